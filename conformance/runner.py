"""Run the conformance fixtures against an implementation that speaks PROTOCOL.md.

``python -m pointline.conformance.runner [--impl "COMMAND"] [--junit FILE] [--json FILE] [-k TEXT]
[--timeout S] [--max-failures N] [--protocol N]``. The default implementation is the reference
adapter.
A crash, garbage output or a hang becomes a reported failure (each request has a time limit);
the implementation is restarted and the run goes on. The last line is ``N passed, N failed``
(``, N not run`` after it when cases were left out: the run stopped early, or their topic needs
a newer protocol than the implementation speaks); the exit status is 1 if anything failed or
the run stopped early. Standard library and ``kernel`` only.
"""

from __future__ import annotations

import argparse
import difflib
import json
import shlex
import sys
import time
from pathlib import Path
from typing import IO, Any

from pointline.conformance.casebook import content_hash, split_file, summary
from pointline.conformance.codec import PROTOCOL, PROTOCOLS
from pointline.conformance.errors import FixturesMissing, ImplFailure
from pointline.conformance.process import Implementation, default_command
from pointline.conformance.reports import (
    Outcome,
    parse_summary,
    summary_line,
    write_json,
    write_junit,
)

__all__ = [
    "FIXTURES",
    "Fixture",
    "ImplFailure",
    "Implementation",
    "Outcome",
    "Runner",
    "check",
    "find_fixtures",
    "fixture_files",
    "load_fixtures",
    "main",
    "parse_summary",
    "request_of",
    "summary_line",
]

FIXTURES = Path(__file__).resolve().parent / "fixtures"
"""Where the fixtures are in a checkout and an sdist (an app wheel ships none)."""
NO_FIXTURES = (
    "no conformance fixtures in {folder}. They are generated files that ship in the source"
    " repository and its sdist (conformance/fixtures/), not in the app wheel: run from a"
    " checkout of the repository (tox -e conformance), or pass --fixtures DIR naming a copy of"
    " conformance/fixtures."
)


def find_fixtures(folder: Path | None = None) -> Path:
    """The folder of fixture files: ``folder`` if given, else the package's own, else a
    checkout's in the working directory; raises ``FixturesMissing`` saying where to get them."""
    candidates = (
        [folder] if folder is not None else [FIXTURES, Path.cwd() / "conformance" / "fixtures"]
    )
    for candidate in candidates:
        if any(candidate.glob("*.json")):
            return candidate
    raise FixturesMissing(NO_FIXTURES.format(folder=candidates[0]))


class Fixture:
    """One fixture file: its header at once, its cases (and content-hash check) when needed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name
        with path.open("rb") as f:
            head = f.readline()
        self.header: dict[str, Any] = json.loads(
            head.decode("utf-8").rsplit(', "cases": [', 1)[0] + "}"
        )
        self.topic: str = self.header.get("topic", path.stem)
        self.protocol: int = self.header.get("protocol", 1)
        """The adapter protocol version the file's cases need (2: ``load_state``)."""
        self.case_count: int = self.header.get("case_count", 0)
        self._cases: list[dict[str, Any]] | None = None
        self._problems: list[str] = []

    def _load(self) -> None:
        data = self.path.read_bytes()
        doc = json.loads(data)
        self._cases = doc.get("cases", [])
        want = doc.get("content_hash")
        got = content_hash(split_file(data)[1])
        if want != got:
            self._problems.append(
                f"{self.name}: content hash {want} does not match its cases ({got})"
            )

    @property
    def cases(self) -> list[dict[str, Any]]:
        if self._cases is None:
            self._load()
        assert self._cases is not None
        return self._cases

    @property
    def problems(self) -> list[str]:
        self.cases  # noqa: B018 - loading checks the hash
        return self._problems


def fixture_files(directory: Path) -> list[Fixture]:
    return [Fixture(path) for path in sorted(directory.glob("*.json"))]


def load_fixtures(directory: Path) -> list[Fixture]:
    """Every fixture file, loaded, with any content-hash mismatch found."""
    fixtures = fixture_files(directory)
    for fx in fixtures:
        fx.cases  # noqa: B018
    return fixtures


# ---------------------------------------------------------------------- checking
REPLY_OPS = ("apply", "new_table", "load_state")


def request_of(step: dict[str, Any]) -> dict[str, Any]:
    """The request a step sends: a ``raw`` step is its text as written; otherwise the step's
    members (``op`` defaults to ``apply``) and, unless the step names its own ``reply``, the
    reply its expectation needs."""
    request = {k: v for k, v in step.items() if k != "expect"}
    if "raw" in request:
        return request
    op = request.setdefault("op", "apply")
    if op in REPLY_OPS and "reply" not in request:
        expect = step["expect"]
        request["reply"] = "state" if ("state" in expect or "summary" in expect) else "hash"
    return request


def hash_only(step: dict[str, Any]) -> dict[str, Any]:
    """The step's request asking for the hash only (to replay a case up to a step)."""
    request = request_of(step)
    if "raw" not in request and "reply" not in step and request["op"] in REPLY_OPS:
        request["reply"] = "hash"
    return request


def check(expect: dict[str, Any], response: dict[str, Any]) -> str | None:
    """Why ``response`` does not meet ``expect``, or None."""
    want_ok = "error" not in expect
    if response.get("ok") is not want_ok:
        if want_ok:
            return f"expected success, got error {response.get('error')!r}"
        return f"expected error {expect['error']['code']} ({expect['error']['class']}), got success"
    for key, want in expect.items():
        got = response.get(key)
        if key == "hash":
            if not (isinstance(got, str) and len(got) == 64 and got.startswith(want)):
                return f"state hash {got!r} does not start with {want}"
        elif key == "error":
            if not isinstance(got, dict):
                return f"error is not an object: {got!r}"
            actual = {"code": got.get("code"), "class": got.get("class")}
            if "invariant" in want:  # a bad_state names the first check it fails
                actual["invariant"] = got.get("invariant")
            if actual != want:
                return f"error {_said(actual)}, expected {_said(want)}"
        elif key == "summary":
            state = response.get("state")
            try:
                if summary(state) != want:  # type: ignore[arg-type]
                    return "the state (ledgers aside) differs"
            except (TypeError, KeyError, AttributeError):
                return f"no canonical state in the response: {str(state)[:200]}"
        elif key == "state":
            if got != want:
                return "the canonical state differs"
        elif key == "absent":
            present = [name for name in want if name in response]
            if present:
                return f"answered {', '.join(present)}, which this request does not ask for"
        elif got != want or type(got) is not type(want):
            return f"{key} is {got!r}, expected {want!r}"
    return None


def _said(error: dict[str, Any]) -> str:
    words = f"{error['code']} ({error['class']})"
    return words + (f" naming {error['invariant']}" if "invariant" in error else "")


def _pretty(doc: Any) -> list[str]:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False).splitlines()


def diff(expected: Any, actual: Any, limit: int = 80) -> str:
    lines = list(
        difflib.unified_diff(
            _pretty(expected), _pretty(actual), "expected", "actual", lineterm="", n=2
        )
    )
    if len(lines) > limit:
        lines = [*lines[:limit], f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


def reference_state(steps: list[dict[str, Any]], upto: int) -> Any:
    """The reference kernel's canonical state after step ``upto`` (for the diff)."""
    from pointline.conformance.adapter import Adapter

    adapter = Adapter()
    for step in steps[: upto + 1]:
        request = hash_only(step)
        raw = request.get("raw")
        adapter.handle(adapter.parse(raw) if isinstance(raw, str) else request)
    return adapter.handle({"op": "state"}).get("state")


class Runner:
    def __init__(self, impl: Implementation, show: int = 20, out: IO[str] = sys.stdout) -> None:
        self.impl = impl
        self.show = show
        self.out = out
        self.shown = 0
        self.broken = 0

    def ensure_running(self) -> str | None:
        if self.impl.proc is not None and self.impl.proc.poll() is None:
            return None
        try:
            self.impl.start()
        except ImplFailure as error:
            self.broken += 1
            self.impl.stop()
            return error.text
        self.broken = 0
        return None

    def run_case(self, topic: str, case: dict[str, Any]) -> Outcome:
        started = time.monotonic()
        outcome = Outcome(topic, case["id"], True)
        problem = self.ensure_running()
        if problem:
            outcome.passed = False
            outcome.message = problem
            return outcome
        steps = case["steps"]
        requests = [request_of(s) for s in steps]
        index = 0
        try:
            for response in self.impl.stream(requests):
                why = check(steps[index]["expect"], response)
                if why:
                    self._diverged(outcome, steps, index, why, response)
                    break
                index += 1
        except ImplFailure as error:
            outcome.passed = False
            outcome.step = index
            outcome.message = error.text
            outcome.request = requests[index]
            outcome.expected = steps[index]["expect"]
            self.impl.stop()
        outcome.seconds = time.monotonic() - started
        return outcome

    def _diverged(
        self,
        outcome: Outcome,
        steps: list[dict[str, Any]],
        index: int,
        why: str,
        response: dict[str, Any],
    ) -> None:
        outcome.passed = False
        outcome.step = index
        outcome.message = why
        outcome.request = request_of(steps[index])
        expect = steps[index]["expect"]
        outcome.expected = expect
        outcome.actual = {k: v for k, v in response.items() if k != "id"}
        if "state" in expect and isinstance(response.get("state"), dict):
            outcome.diff = diff(expect["state"], response["state"])
            return
        if "hash" in expect and response.get("ok") is not None:
            # Replay the case up to here to show the whole states side by side.
            try:
                want = reference_state(steps, index)
                replay = [hash_only(s) for s in steps[: index + 1]]
                actual = list(self.impl.stream([*replay, {"op": "state"}]))[-1]
                outcome.diff = diff(want, actual.get("state"))
            except ImplFailure as error:
                outcome.diff = f"(could not fetch the state: {error.text})"
                self.impl.stop()
            return
        outcome.diff = diff(expect, outcome.actual)

    def report(self, outcome: Outcome) -> None:
        if outcome.passed or self.shown >= self.show:
            return
        self.shown += 1
        w = self.out.write
        w(f"\nFAIL {outcome.topic} :: {outcome.case_id}\n")
        if outcome.step is not None:
            w(
                f"  first diverging step {outcome.step}: "
                f"{json.dumps(outcome.request, ensure_ascii=False)[:300]}\n"
            )
        w(f"  {outcome.message}\n")
        if outcome.expected is not None:
            w(f"  expected: {json.dumps(outcome.expected, ensure_ascii=False)[:300]}\n")
        if outcome.actual is not None:
            w(f"  actual:   {json.dumps(outcome.actual, ensure_ascii=False)[:300]}\n")
        if outcome.diff:
            w("  " + outcome.diff.replace("\n", "\n  ") + "\n")
        if self.shown == self.show:
            w(f"\n(only the first {self.show} failures are shown; see --json for all)\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pointline.conformance.runner", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--impl", help="the command that runs the implementation (default: the reference adapter)"
    )
    parser.add_argument("--junit", type=Path, help="write a JUnit XML report here")
    parser.add_argument("--json", type=Path, help="write a JSON report here")
    parser.add_argument(
        "-k",
        action="append",
        default=[],
        metavar="TEXT",
        help="run only cases whose topic or id contains TEXT (repeatable)",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds allowed per request (default 10)"
    )
    parser.add_argument(
        "--max-failures", type=int, default=0, help="stop after this many failures (0: never)"
    )
    parser.add_argument(
        "--show", type=int, default=20, help="failures to print in full (default 20)"
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=PROTOCOLS,
        default=PROTOCOL,
        help=f"the newest protocol version to ask for (default {PROTOCOL})",
    )
    parser.add_argument(
        "--fixtures",
        type=Path,
        metavar="DIR",
        help="the folder of fixture files (default: the package's, else ./conformance/fixtures)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    command = shlex.split(args.impl) if args.impl else default_command()
    out = sys.stdout
    started = time.monotonic()
    try:
        folder = find_fixtures(args.fixtures)
    except FixturesMissing as error:
        print(f"pointline-conformance: {error.text}", file=sys.stderr)
        return 2
    fixtures = fixture_files(folder)
    outcomes: list[Outcome] = []
    impl = Implementation(command, args.timeout, protocol=args.protocol)
    runner = Runner(impl, show=args.show, out=out)

    def select(fx: Fixture) -> list[dict[str, Any]]:
        if not args.k:
            return fx.cases
        return [c for c in fx.cases if any(k in c["id"] or k in fx.topic for k in args.k)]

    if args.k:
        total = sum(len(select(fx)) for fx in fixtures)
    else:
        total = sum(fx.case_count for fx in fixtures)
    if not args.quiet:
        out.write(
            f"conformance: {total} cases from {len(fixtures)} files against {shlex.join(command)}\n"
        )
        out.flush()
    stopped = 0
    """Cases left out because the run stopped early (--max-failures)."""
    too_new: dict[str, int] = {}
    """Cases left out because their topic needs a newer protocol than the implementation's."""
    stop = False
    if total:
        runner.ensure_running()  # the handshake settles the protocol before any topic is chosen
    for fx in fixtures:
        if stop:
            stopped += len(select(fx)) if args.k else fx.case_count
            continue
        speaks = impl.protocol
        if speaks is not None and fx.protocol > speaks:
            count = len(select(fx)) if args.k else fx.case_count
            if count:
                too_new[fx.topic] = count
                if not args.quiet:
                    out.write(
                        f"{fx.topic:<16} {count:>5} cases  not run: they need protocol"
                        f" {fx.protocol}, the implementation speaks {speaks}\n"
                    )
            continue
        cases = select(fx)
        for problem in fx.problems:
            outcomes.append(Outcome(fx.topic, f"{fx.name}#content_hash", False, message=problem))
            runner.report(outcomes[-1])
        if not cases:
            continue
        t0 = time.monotonic()
        failed_here = 0
        done = 0
        for i, case in enumerate(cases):
            if stop:
                stopped += len(cases) - i
                break
            if runner.broken >= 3:
                outcome = Outcome(
                    fx.topic,
                    case["id"],
                    False,
                    message="not run: the implementation cannot start or refuses the handshake",
                )
            else:
                outcome = runner.run_case(fx.topic, case)
            outcomes.append(outcome)
            done += 1
            failed_here += not outcome.passed
            runner.report(outcome)
            if args.max_failures and sum(not o.passed for o in outcomes) >= args.max_failures:
                stop = True
        if not args.quiet:
            out.write(
                f"{fx.topic:<16} {done:>5} cases  {failed_here:>4} failed"
                f"  {time.monotonic() - t0:6.1f} s\n"
            )
            out.flush()
    impl.stop()
    seconds = time.monotonic() - started
    passed = sum(o.passed for o in outcomes)
    failed = len(outcomes) - passed
    not_run = stopped + sum(too_new.values())
    if args.junit:
        write_junit(args.junit, outcomes, seconds, too_new, impl.protocol)
    if args.json:
        write_json(
            args.json,
            outcomes,
            seconds,
            impl.hello,
            command,
            not_run,
            protocol=impl.protocol,
            stopped=stopped,
            too_new=too_new,
        )
    if not args.quiet:
        who = impl.hello or {}
        out.write(
            f"implementation: {who.get('implementation')} ({who.get('language')}"
            f" {who.get('version')}), protocol {impl.protocol}; {seconds:.1f} s\n"
        )
    if stopped:
        out.write(f"stopped after {failed} failure(s); {stopped} case(s) not run\n")
    if too_new:
        topics = ", ".join(f"{topic} ({n})" for topic, n in too_new.items())
        out.write(
            f"not run, the implementation speaks protocol {impl.protocol}: {topics}"
            f" ({sum(too_new.values())} case(s))\n"
        )
    out.write(summary_line(passed, failed, not_run) + "\n")
    out.flush()
    # Topics of a newer protocol than the implementation speaks do not fail the run (it conforms
    # to the version it speaks, and says which); stopping early does.
    return 1 if failed or stopped else 0


if __name__ == "__main__":
    raise SystemExit(main())
