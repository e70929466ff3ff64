"""When two seats' transcripts of one session end differently (issue 43): the words each seat's
``verify`` adds, and ``pointline verify A B``'s one-paragraph explanation of the difference.

Why a split can happen at all is spec/ONLINE.md "A blip is not a departure" ("Why two seats can
end differently"): without a trusted party, the last message of a session reaches some seats
in time and not others, and no protocol can make every seat decide alike (the card's abort
bias). The words here say what each seat saw, and that the other may have seen otherwise.
"""

from __future__ import annotations

from pointline.kernel import EndReason
from pointline.net.protocol._events import seat_label
from pointline.net.protocol._report import Report

__all__ = ["MAY_HAVE_COMPLETED", "MAY_HAVE_ENDED", "explain_pair", "note_for"]

MAY_HAVE_ENDED = "another seat may have seen the session end without a result"
"""Added to a completed session whose receipt exchange stopped: a seat whose receipt did not
come may have ended before the last reveal reached it."""
MAY_HAVE_COMPLETED = "another seat may have seen the session complete"
"""Added to a session ended by a missed deadline: the late message may have reached the other
seats in time."""


def note_for(report: Report) -> str | None:
    """What this seat's view leaves open about the others' (None: nothing)."""
    if report.status == "complete" and report.receipts == "incomplete":
        return MAY_HAVE_ENDED
    if report.status == "ended" and report.reason is EndReason.DEADLINE:
        return MAY_HAVE_COMPLETED
    return None


def _seat(report: Report) -> str:
    return seat_label(report.me) if report.me is not None else "one seat"


def _view(report: Report) -> str:
    """What one seat saw, in a clause."""
    if report.status == "complete":
        receipts = {
            "matched": "with every receipt matched",
            "mismatch": "but with receipts that do not match",
            "incomplete": "but not every seat's receipt came in",
        }.get(report.receipts or "", "with no receipt exchange recorded")
        return f"saw the session complete after {report.throws} throws, {receipts}"
    return f"saw it end without a result after {report.throws} throws ({report.ending_words})"


def explain_pair(first: Report, second: Report) -> str:
    """One paragraph on how two seats' files of one session differ, and why."""
    if not first.ok or not second.ok:
        bad = first if not first.ok else second
        return (
            f"{'The first' if bad is first else 'The second'} file does not check "
            f"({bad.problem}); only two files that check can be compared."
        )
    if first.table_id != second.table_id:
        return (
            f"These are two different sessions (table {first.table_id} and table "
            f"{second.table_id}): there is nothing to compare."
        )
    a, b = _seat(first), _seat(second)
    if first.me == second.me:
        return f"Both files are {a}'s view of table {first.table_id}: there is nothing to compare."
    same = (first.status, first.final, first.reason) == (second.status, second.final, second.reason)
    if same and first.status == "complete":
        return (
            f"{a} and {b} agree: both saw the session complete with the same final points "
            f"after {first.throws} throws."
        )
    if same:
        return (
            f"{a} and {b} agree: both saw the session end without a result ({first.ending_words}"
            f"; {second.ending_words})."
        )
    if first.status == second.status == "complete":
        return (
            f"{a} and {b} both saw the session complete but with different final points. A "
            "network stall cannot do this: every seat computes the same result from the same "
            "signed messages, so one seat's software computed it otherwise; its receipt "
            "exchange says mismatch."
        )
    views = f"{a} {_view(first)}, while {b} {_view(second)}."
    if "complete" in (first.status, second.status):
        why = (
            " Both files check: each is true to what reached that seat. The difference is in "
            "what arrived, not in what anyone played: the seat that ended stopped waiting "
            "before the last message reached it (a deadline passed there), and the seat that "
            "completed had received everything. No protocol without a trusted party can rule "
            'this out entirely (spec/ONLINE.md, "Why two seats can end differently"); the '
            "completed seat's result is what the signed messages give, and the other seat's "
            "file shows its session stopped short of it."
        )
    else:
        why = (
            " Both files check: each seat ended on the first fault that reached it, and a "
            "late or lost message can reach seats in a different order."
        )
    return views + why
