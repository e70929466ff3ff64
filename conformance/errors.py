"""The conformance suite's errors: its branch of the project's one error tree.

::

    PointlineError                      (pointline.kernel.errors: the root, and the kernel's)
    └── ConformanceError                the conformance suite refused or failed something
        ├── BadAction                   code: ConformanceCode.BAD_ACTION: not an action at all
        ├── ProtocolError               code: ConformanceCode.BAD_REQUEST: not a request
        ├── ImplFailure                 code: ConformanceCode.IMPL_FAILURE: the port crashed,
        │                               hung or wrote something that is not a response
        ├── FixturesMissing             code: ConformanceCode.NO_FIXTURES: no fixture files
        └── Refused                     code: ConformanceCode.RELAY_REFUSED: a relay case's
                                        finding, the relay broke a sentence of ONLINE.md §9
                                        (conformance.online.relay_cases)

Each carries ``code`` (a ``StrEnum`` member, equal to its string) and ``text`` (plain words);
``str(error)`` is ``"code: text"`` for logs. The codes ``bad_action`` and ``bad_request`` are
the ones the adapter answers with (PROTOCOL.md).
"""

from __future__ import annotations

from enum import StrEnum

from pointline.kernel import PointlineError

__all__ = [
    "BadAction",
    "ConformanceCode",
    "ConformanceError",
    "FixturesMissing",
    "ImplFailure",
    "ProtocolError",
]


class ConformanceCode(StrEnum):
    """The conformance suite's own codes."""

    BAD_ACTION = "bad_action"
    BAD_REQUEST = "bad_request"
    IMPL_FAILURE = "impl_failure"
    NO_FIXTURES = "no_fixtures"
    RELAY_REFUSED = "relay_refused"


class ConformanceError(PointlineError):
    """The conformance suite refused or failed something; ``code`` says what."""

    code: ConformanceCode

    def __init__(self, text: str) -> None:
        super().__init__(self.default_code, text)

    default_code = ConformanceCode.BAD_REQUEST


class BadAction(ConformanceError):
    """The request's action is not an action of this table at all (code ``bad_action``)."""

    default_code = ConformanceCode.BAD_ACTION


class ProtocolError(ConformanceError):
    """A request the protocol does not allow (code ``bad_request``)."""

    default_code = ConformanceCode.BAD_REQUEST


class ImplFailure(ConformanceError):
    """The implementation crashed, hung or wrote something that is not a response."""

    default_code = ConformanceCode.IMPL_FAILURE


class FixturesMissing(ConformanceError):
    """No fixture files where the runner looked (an installed wheel ships none)."""

    default_code = ConformanceCode.NO_FIXTURES
