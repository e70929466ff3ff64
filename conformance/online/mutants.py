"""Deliberately wrong reference peers, each applied at run time by monkeypatching (never by
editing a file) in a subprocess, and each killed by the vectors, the client harness or the
verifier harness.

    python -m pointline.conformance.online.mutants            # run every mutant, print kills
    python -m pointline.conformance.online.mutants --vectors NAME   # (internal) one vector run
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

PYTHON = [sys.executable, "-m"]


@dataclass(frozen=True)
class Mutant:
    text: str
    killer: str
    """``vectors``, ``verifier`` or ``client:CASE`` (the harness case that must catch it)."""
    patch: Callable[[], None]


MUTANTS: dict[str, Mutant] = {}


def mutant(name: str, text: str, killer: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(patch: Callable[[], None]) -> Callable[[], None]:
        MUTANTS[name] = Mutant(text, killer, patch)
        return patch

    return register


def replace_everywhere(old: object, new: object) -> None:
    """Rebind every ``pointline`` module global that is ``old`` to ``new``."""
    for name, module in list(sys.modules.items()):
        if name.startswith("pointline") and module is not None:
            for key, value in list(vars(module).items()):
                if value is old:
                    setattr(module, key, new)


def _set(owner: object, name: str, value: object) -> None:
    """Monkeypatch ``owner.name`` (a module global or a class attribute) in this process."""
    setattr(owner, name, value)


def apply(name: str) -> None:
    """Turn this process's reference code into mutant ``name``."""
    import pointline.conformance.online.check
    import pointline.net.protocol
    import pointline.net.verify  # noqa: F401

    MUTANTS[name].patch()


# ---------------------------------------------------------------------------- vectors


@mutant("sign_domain_byte", "the signing domain ends in 0x01, not NUL", "vectors")
def _sign_domain() -> None:
    from pointline.net import messages

    _set(messages, "SIGN_DOMAIN", b"pointline/message/v1\x01")


@mutant("canonical_ascii_escapes", "canonical JSON escapes non-ASCII as \\uXXXX", "vectors")
def _ascii() -> None:
    from pointline.net import messages

    _set(
        messages,
        "_CANONICAL",
        json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False),
    )


@mutant("canonical_spaces", "canonical JSON with spaces after , and :", "vectors")
def _spaces() -> None:
    from pointline.net import messages

    _set(
        messages,
        "_CANONICAL",
        json.JSONEncoder(
            sort_keys=True, separators=(", ", ": "), ensure_ascii=False, allow_nan=False
        ),
    )


def _commitment(layout: str) -> Callable[..., bytes]:
    from pointline.kernel import dice

    def commitment(
        table_id: str, throw_index: int, seat: int, nonce: bytes, choices: bytes, version: int = 1
    ) -> bytes:
        head = dice.COMMIT_DOMAIN + (b"" if layout == "no_version" else struct.pack(">H", version))
        seat_bytes = struct.pack(">H" if layout == "seat_u16" else ">B", seat)
        data = (
            head
            + dice._lp(table_id.encode())
            + struct.pack(">I", throw_index)
            + seat_bytes
            + bytes(nonce)
            + dice._lp(bytes(choices))
        )
        return hashlib.sha256(data).digest()

    return commitment


@mutant("commit_no_version", "the commitment leaves out the protocol version", "vectors")
def _no_version() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.commitment, _commitment("no_version"))


@mutant("commit_seat_u16", "the commitment writes the seat in two bytes", "vectors")
def _seat_u16() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.commitment, _commitment("seat_u16"))


@mutant("dice_accept_252", "rejection off by one: byte 252 gives a face", "vectors")
def _accept_252() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 253)


@mutant("dice_reject_251", "rejection off by one: byte 251 is rejected", "vectors")
def _reject_251() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 251)


@mutant("dice_modulo_bias", "no rejection at all: every byte mod 6", "vectors")
def _modulo() -> None:
    from pointline.kernel import dice

    _set(dice, "ACCEPT_BELOW", 256)


def _seed(variant: str) -> Callable[..., bytes]:
    from pointline.kernel import dice

    def dice_seed(
        table_id: str, throw_index: int, nonces: Sequence[bytes], version: int = 1
    ) -> bytes:
        ordered = sorted(nonces) if variant == "sorted" else list(nonces)
        count = b"" if variant == "no_count" else struct.pack(">B", len(nonces))
        data = (
            dice.DICE_DOMAIN
            + struct.pack(">H", version)
            + dice._lp(table_id.encode())
            + struct.pack(">I", throw_index)
            + count
            + b"".join(ordered)
        )
        return hashlib.sha256(data).digest()

    return dice_seed


@mutant("dice_nonces_sorted", "the dice seed sorts the nonces instead of seat order", "vectors")
def _sorted() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.dice_seed, _seed("sorted"))


@mutant("dice_no_seat_count", "the dice seed leaves out the seat count", "vectors")
def _no_count() -> None:
    from pointline.kernel import dice

    replace_everywhere(dice.dice_seed, _seed("no_count"))


def _digest(variant: str) -> Callable[..., bytes]:
    from pointline.net import messages

    def session_digest(items: Any) -> bytes:
        if variant == "reveals_first":
            key = lambda m: (m.throw, 0 if isinstance(m, messages.Reveal) else 1, m.seat)  # noqa: E731
        else:
            key = lambda m: (m.throw, 0 if isinstance(m, messages.Commit) else 1, m.seat)  # noqa: E731
        h = hashlib.sha256(messages.DIGEST_DOMAIN)
        for message in sorted(items, key=key):
            data = messages.encode(message).encode()
            h.update((b"" if variant == "no_length" else struct.pack(">I", len(data))) + data)
        return h.digest()

    return session_digest


@mutant("digest_reveals_first", "the session digest puts reveals before commits", "vectors")
def _reveals_first() -> None:
    from pointline.net import messages

    replace_everywhere(messages.session_digest, _digest("reveals_first"))


@mutant("digest_no_length", "the session digest drops the length prefixes", "vectors")
def _no_length() -> None:
    from pointline.net import messages

    replace_everywhere(messages.session_digest, _digest("no_length"))


@mutant("record_hash_domain", "the transcript hash uses another domain", "vectors")
def _record_domain() -> None:
    from pointline.net import transcript

    _set(transcript, "TRANSCRIPT_DOMAIN", b"pointline/transcript/v2\x00")


@mutant("parse_uppercase_hex", "parsing accepts uppercase hex", "vectors")
def _upper() -> None:
    from pointline.net import messages

    original = messages._hex

    def lenient(doc: Any, name: str, digits: int) -> bytes:
        value = doc[name]
        if isinstance(value, str):
            doc = {**doc, name: value.lower()}
        return original(doc, name, digits)

    _set(messages, "_hex", lenient)


@mutant("parse_bool_as_int", "parsing takes true/false as integers", "vectors")
def _bool() -> None:
    from pointline.net import messages

    original = messages._int
    _set(
        messages,
        "_int",
        lambda doc, name, low, high: original(
            {**doc, name: int(doc[name]) if isinstance(doc[name], bool) else doc[name]},
            name,
            low,
            high,
        ),
    )


@mutant(
    "parse_wrong_table_as_malformed", "another table's message is reported malformed", "vectors"
)
def _wrong_table() -> None:
    from pointline.net import errors

    _set(errors.WrongTable, "code", "malformed")


@mutant("choice_not_reencoded", "a choice is accepted without the canonical re-encoding", "vectors")
def _choice() -> None:
    from pointline.kernel import choice as kchoice

    original = vars(kchoice.Choice)["from_bytes"].__func__

    def from_bytes(cls: Any, data: bytes) -> Any:
        try:
            doc = json.loads(data)
            return original(cls, kchoice.Choice(doc["pass"], doc["dont_pass"]).to_bytes())
        except (ValueError, KeyError, TypeError):
            return original(cls, data)

    _set(kchoice.Choice, "from_bytes", classmethod(from_bytes))


@mutant("words_skip_first_byte", "verification words start at the digest's second byte", "vectors")
def _words() -> None:
    from pointline.net import keys

    def words(public_key: bytes, count: int = keys.WORD_COUNT) -> tuple[str, ...]:
        digest = hashlib.sha256(keys.WORDS_DOMAIN + public_key).digest()
        return tuple(keys.WORDS[b] for b in digest[1 : count + 1])

    replace_everywhere(keys.verification_words, words)


@mutant("roster_domain", "the roster signature uses another domain", "vectors")
def _roster_domain() -> None:
    from pointline.net import protocol

    _set(protocol, "ROSTER_DOMAIN", b"pointline/roster/v2\x00")


# ---------------------------------------------------------------------------- verify


@mutant("verify_accepts_cut", "verify calls a transcript without an outcome OK", "verifier")
def _cut() -> None:
    from pointline.net import verify

    original = verify._verify

    def lenient(path: Any, relay_key: bytes | None = None) -> Any:
        report = original(path, relay_key)
        if not report.ok and "cut off" in (report.problem or ""):
            return verify.Report(True, "cut", complete=True)
        return report

    _set(verify, "_verify", lenient)


@mutant("verify_ignores_signatures", "verify does not check message signatures", "verifier")
def _no_sigs() -> None:
    from pointline.net import messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "verify_ignores_roster_sig", "verify does not check the relay's roster signature", "verifier"
)
def _no_roster_sig() -> None:
    from pointline.net import verify

    _set(verify, "verify_signature", lambda *args: True)


@mutant("verify_incomplete_is_ok", "verify says OK when the receipts are missing", "verifier")
def _incomplete() -> None:
    from pointline.net import verify

    original = verify.Report.text
    _set(verify.Report, "text", lambda self: original(replace(self, complete=True)))


@mutant("verify_accepts_any_ending", "verify takes whatever ended outcome is recorded", "verifier")
def _outcome_reason() -> None:
    from pointline.net import verify

    original = verify._compare

    def lenient(state: Any, index: int, doc: dict[str, Any], produced: Any) -> None:
        if doc["kind"] == "outcome" == produced.kind.value and doc["body"].get("status") == "ended":
            return
        original(state, index, doc, produced)

    _set(verify, "_compare", lenient)


# ---------------------------------------------------------------------------- the peer


def _tick(pick: Callable[[tuple[int, ...]], int]) -> Callable[..., None]:
    from pointline.kernel import EndReason

    def tick(self: Any, now: float) -> None:
        if self.is_finished or self._deadline is None:
            return
        if self.is_live and now >= self._session_deadline:
            self._fault(EndReason.DEADLINE, None, now)
        elif now >= self._deadline:
            waiting = self.awaiting
            self._fault(EndReason.DEADLINE, pick(waiting) if waiting else None, now)

    return tick


@mutant(
    "peer_deadline_not_enforced", "the peer never fires a deadline", "client:fault.withheld_reveal"
)
def _no_deadline() -> None:
    from pointline.net.protocol import Peer

    _set(Peer, "tick", lambda self, now: None)


@mutant(
    "peer_blames_highest_awaited",
    "a deadline blames the highest awaited seat",
    "client:fault.deadline",
)
def _highest() -> None:
    from pointline.net.protocol import Peer

    _set(Peer, "tick", _tick(lambda waiting: waiting[-1]))


@mutant(
    "peer_confirm_deadline_ignored", "the confirm deadline is never armed", "client:fault.deadline"
)
def _confirm() -> None:
    from pointline.net import protocol

    original = protocol.Peer._open_round

    def open_round(self: Any, now: float) -> None:
        original(self, now)
        self._deadline = now + 3600.0

    _set(protocol.Peer, "_open_round", open_round)


@mutant("peer_skips_signatures", "the peer accepts any signature", "client:fault.bad_signature")
def _peer_sigs() -> None:
    from pointline.net import messages

    _set(messages, "verify_signature", lambda *args: True)


@mutant(
    "peer_skips_reveal_check",
    "the peer does not check reveals against commits",
    "client:fault.bad_reveal",
)
def _peer_reveal() -> None:
    from pointline.net import protocol

    _set(protocol, "verify_commitment", lambda *args, **kw: True)


@mutant(
    "peer_ignores_repeats",
    "the peer drops a repeated message instead of ending",
    "client:fault.replay",
)
def _repeats() -> None:
    from pointline.net import protocol

    original = protocol.Peer.receive
    seen: set[str] = set()

    def receive(self: Any, frame: object, from_seat: int, now: float) -> None:
        key = json.dumps(frame, sort_keys=True) if isinstance(frame, dict) else repr(frame)
        if key in seen:
            return
        seen.add(key)
        original(self, frame, from_seat, now)

    _set(protocol.Peer, "receive", receive)


@mutant("peer_notice_proven", "a received notice counts as proven", "client:fault.false_blame")
def _notice_proven() -> None:
    _wrap_fault(lambda reason, seat, reporter, proven: (reason, seat, reporter, True))


@mutant("peer_blames_reporter", "a received notice blames its sender", "client:fault.false_blame")
def _blames_reporter() -> None:
    _wrap_fault(lambda reason, seat, reporter, proven: (reason, reporter, reporter, proven))


def _wrap_fault(change: Callable[..., tuple[Any, Any, Any, Any]]) -> None:
    from pointline.net import protocol

    original = protocol.Peer._fault

    def fault(
        self: Any,
        reason: Any,
        seat: Any,
        now: float,
        notify: bool = True,
        reporter: Any = None,
        proven: bool = False,
    ) -> None:
        if not notify and reporter is not None:
            reason, seat, reporter, proven = change(reason, seat, reporter, proven)
        original(self, reason, seat, now, notify, reporter, proven)

    _set(protocol.Peer, "_fault", fault)


@mutant("peer_no_receipt", "the peer never sends its receipt", "client:honest.seats_2")
def _no_receipt() -> None:
    from pointline.net import protocol
    from pointline.net.messages import Receipt

    original = protocol.Peer._send

    def send(self: Any, message: Any, now: float) -> Any:
        signed = original(self, message, now)
        if isinstance(signed, Receipt):
            self._out.pop()
        return signed

    _set(protocol.Peer, "_send", send)


@mutant(
    "peer_dice_nonces_reversed",
    "the peer derives the dice from the nonces in reverse seat order",
    "client:honest.seats_3",
)
def _peer_dice() -> None:
    from pointline.net import protocol

    original = getattr(protocol, "derive_dice")  # noqa: B009 - not re-exported
    _set(protocol, "derive_dice", lambda t, n, nonces, *a: original(t, n, list(nonces)[::-1], *a))


@mutant("peer_seq_from_1", "the peer numbers its messages from 1", "client:honest.seats_2")
def _seq() -> None:
    from pointline.net import protocol

    original = protocol.Peer.__init__

    def init(self: Any, *args: Any, **kw: Any) -> None:
        original(self, *args, **kw)
        self._my_seq = 1
        self._order._next_seq[self.seat] = 1

    _set(protocol.Peer, "__init__", init)


@mutant(
    "peer_reveals_own_choice_wrong",
    "the peer reveals a choice other than it committed",
    "client:honest.seats_2",
)
def _own_choice() -> None:
    from pointline.net import protocol

    original = protocol.Peer._all_committed

    def all_committed(self: Any, now: float) -> None:
        self._my_nonce = bytes(32) if self._my_nonce != bytes(32) else b"\x01" * 32
        original(self, now)

    _set(protocol.Peer, "_all_committed", all_committed)


# ---------------------------------------------------------------------------- running


def _command(name: str) -> list[str]:
    m = MUTANTS[name]
    if m.killer == "vectors":
        return [*PYTHON, "pointline.conformance.online.mutants", "--vectors", name]
    if m.killer == "verifier":
        verifier = (
            f"{sys.executable} -m pointline.conformance.online.adapters.verifier --mutant {name}"
        )
        return [
            *PYTHON,
            "pointline.conformance.online.harness",
            "--verifier",
            verifier,
            "--fail-fast",
        ]
    client = f"{sys.executable} -m pointline.conformance.online.adapters.peer --mutant {name}"
    case = m.killer.split(":", 1)[1]
    return [
        *PYTHON,
        "pointline.conformance.online.harness",
        "--client",
        client,
        "--case",
        case,
        "--fail-fast",
    ]


def run_mutant(name: str) -> tuple[str, bool, str]:
    """(name, killed, the last lines of what killed it)."""
    done = subprocess.run(_command(name), capture_output=True, text=True, timeout=170, check=False)
    lines = done.stdout.strip().split("\n")
    # killed means a failing case reported as such, never a crash of the run itself
    count = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1]) if lines else None
    killed = done.returncode == 1 and count is not None and int(count.group(2)) > 0
    tail = "\n".join((done.stdout + done.stderr).strip().split("\n")[-4:])
    return name, killed, tail


def _vectors(name: str) -> int:
    apply(name)
    from pointline.conformance.online import check

    passed, failed = check.run(fail_fast=True)  # one failing vector kills it
    for line in failed[:3]:
        print(f"FAIL {line}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pointline.conformance.online.mutants")
    parser.add_argument("--vectors", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("names", nargs="*", help="only these mutants")
    args = parser.parse_args(argv)
    if args.vectors:
        return _vectors(args.vectors)
    names = args.names or list(MUTANTS)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_mutant, names))
    for name, killed, _ in results:
        print(
            f"{'killed' if killed else 'SURVIVED'} {name} ({MUTANTS[name].killer}): "
            f"{MUTANTS[name].text}"
        )
    survivors = [name for name, killed, _ in results if not killed]
    print(f"{len(names) - len(survivors)}/{len(names)} killed")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
