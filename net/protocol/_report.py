"""What ``pointline verify`` found, as a ``Report``: ``ok``, a summary or the first problem,
who played and each replayed throw; and ``printable``, which keeps any text from a file on its
own line. Shared by the transcript replay (``_verify``) and the solo record check (``_solo``)."""

from __future__ import annotations

from dataclasses import dataclass

from pointline.kernel import EndReason
from pointline.net.protocol._peer import seat_label

__all__ = ["NO_PINNED_KEY_SIGNED", "NO_RELAY_KEY", "Report", "pinned_players", "printable"]

NO_RELAY_KEY = "who played cannot be checked without the relay's key (--relay-key)"
NO_PINNED_KEY_SIGNED = (
    "who played cannot be checked: no relay key this app has pinned signed this roster "
    "(give the relay's key with --relay-key)"
)


def pinned_players(
    owner: str, pinned_on: str | None, current: bool, hosted: bool, names: str
) -> str:
    """verify's players line when a key this app pinned signed the roster (issue 41):
    ``owner`` is "hostana's table" or "the relay at wss://…"."""
    when = f"pinned on {pinned_on}" if pinned_on else "pinned earlier"
    if not current:
        when += ", before that relay was reinstalled"
    if hosted:
        return f"the names are vouched for by {owner}, whose key this app {when}: {names}"
    return f"players verified by the signature of {owner}, whose key this app {when}: {names}"


@dataclass(frozen=True, slots=True)
class Report:
    """What ``verify_transcript`` found: ``ok``, the first ``problem`` (and its record index)."""

    ok: bool
    summary: str
    problem: str | None = None
    record: int | None = None
    table_id: str | None = None
    seats: int = 0
    throws: int = 0
    messages: int = 0
    status: str | None = None
    final: tuple[int, ...] | None = None
    ranks: tuple[int, ...] | None = None
    reason: EndReason | None = None
    seat: int | None = None
    receipts: str | None = None
    complete: bool = False
    """OK proves consistency; complete also means nothing is missing: the session ended without
    a result seen through to its end (not by this seat's own lost connection), or it completed
    and every seat's receipt is recorded and matches."""
    players: str = NO_RELAY_KEY
    """Who played: checked against the relay's roster signature, or why it cannot be."""
    roster: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    """Seat, name and verification words of each roster key, to compare with the players."""
    throw_lines: tuple[str, ...] = ()
    """One line per replayed throw: dice, phase, hands resolved, every seat's balance."""

    def text(self) -> str:
        """The report as lines for people. Names and the table id are only what the file
        claims: each line is ``printable`` (no control character), so none can forge a line."""
        if self.ok:
            lines = [f"{'OK' if self.complete else 'INCOMPLETE'}: {self.summary}", self.players]
            lines.extend(
                f"  {seat_label(seat)} {name}: {' '.join(words)}"
                for seat, name, words in self.roster
            )
            return "\n".join(printable(line) for line in lines)
        where = f"record {self.record}: " if self.record is not None else ""
        return printable(f"FAIL: {where}{self.problem}")


_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Marks that reorder how a terminal shows the text around them."""


def printable(text: str) -> str:
    """``text`` with every control character (newline, carriage return, ESC, DEL, C1, the
    line and paragraph separators, bidirectional marks) written as a visible escape such as
    ``\\n`` or ``\\x1b``: text from a file stays on its own line and cannot move the cursor,
    clear the screen or reorder what verify prints."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() and ch not in _BIDI:
            out.append(ch)
        elif ch in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return "".join(out)
