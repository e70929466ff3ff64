"""The conformance runner's results: one ``Outcome`` per case, the summary line, and the
JUnit XML and JSON reports (standard library only)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["SUMMARY", "Outcome", "parse_summary", "summary_line", "write_json", "write_junit"]


@dataclass
class Outcome:
    topic: str
    case_id: str
    passed: bool
    seconds: float = 0.0
    step: int | None = None
    message: str = ""
    expected: Any = None
    actual: Any = None
    diff: str = ""
    request: Any = None


def write_junit(
    path: Path,
    outcomes: list[Outcome],
    seconds: float,
    too_new: dict[str, int] | None = None,
    protocol: int | None = None,
) -> None:
    suites = ET.Element("testsuites", name="pointline-conformance", time=f"{seconds:.3f}")
    by_topic: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_topic.setdefault(o.topic, []).append(o)
    for topic, items in by_topic.items():
        failures = sum(not o.passed for o in items)
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=topic,
            tests=str(len(items)),
            failures=str(failures),
            errors="0",
            skipped="0",
            time=f"{sum(o.seconds for o in items):.3f}",
        )
        for o in items:
            tc = ET.SubElement(
                suite,
                "testcase",
                classname=f"conformance.{topic}",
                name=o.case_id,
                time=f"{o.seconds:.4f}",
            )
            if not o.passed:
                failure = ET.SubElement(tc, "failure", message=o.message[:500])
                failure.text = "\n".join(
                    [
                        f"step {o.step}: {json.dumps(o.request, ensure_ascii=False)}",
                        f"expected: {json.dumps(o.expected, ensure_ascii=False)}",
                        f"actual: {json.dumps(o.actual, ensure_ascii=False)}",
                        o.diff,
                    ]
                )
    for topic, count in (too_new or {}).items():
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=topic,
            tests=str(count),
            failures="0",
            errors="0",
            skipped=str(count),
            time="0",
        )
        tc = ET.SubElement(suite, "testcase", classname=f"conformance.{topic}", name=topic)
        ET.SubElement(
            tc,
            "skipped",
            message=f"{count} case(s) need a newer protocol; the implementation speaks {protocol}",
        )
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def write_json(
    path: Path,
    outcomes: list[Outcome],
    seconds: float,
    hello: Any,
    command: list[str],
    not_run: int,
    protocol: int | None = None,
    stopped: int = 0,
    too_new: dict[str, int] | None = None,
) -> None:
    doc = {
        "command": command,
        "implementation": hello,
        "protocol": protocol,
        "seconds": round(seconds, 3),
        "passed": sum(o.passed for o in outcomes),
        "failed": sum(not o.passed for o in outcomes),
        "not_run": not_run,
        "not_run_stopped": stopped,
        "not_run_protocol": too_new or {},
        "cases": [
            {"topic": o.topic, "id": o.case_id, "passed": o.passed, "seconds": round(o.seconds, 4)}
            | (
                {}
                if o.passed
                else {
                    "step": o.step,
                    "message": o.message,
                    "request": o.request,
                    "expected": o.expected,
                    "actual": o.actual,
                    "diff": o.diff,
                }
            )
            for o in outcomes
        ],
    }
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def summary_line(passed: int, failed: int, not_run: int) -> str:
    """The last line of a run: ``N passed, N failed`` and, when cases were left out,
    ``, N not run``."""
    line = f"{passed} passed, {failed} failed"
    return f"{line}, {not_run} not run" if not_run else line


SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) not run)?$")


def parse_summary(line: str) -> tuple[int, int, int] | None:
    """(passed, failed, not run) from a summary line, or None if it is not one."""
    match = SUMMARY.match(line.strip())
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3] or 0)
