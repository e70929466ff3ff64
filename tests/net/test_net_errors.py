"""One error tree (#16 item 7): every net error is a ``PointlineError`` with a StrEnum code."""

from __future__ import annotations

from enum import StrEnum

import pytest

from pointline.kernel.errors import PointlineError
from pointline.net import errors
from pointline.net.client._transcript_file import TranscriptWriteError
from pointline.net.client._trust import CertificateNotTrusted, RelayKeyChanged
from pointline.net.protocol._wire import ErrorCode, WireError
from pointline.net.relay._accounts import AccountError
from pointline.net.relay._rooms import RoomError


def test_every_net_error_class_is_in_the_one_tree() -> None:
    classes = [
        obj
        for obj in vars(errors).values()
        if isinstance(obj, type) and issubclass(obj, Exception)
        if obj.__module__ == errors.__name__
    ]
    classes += [WireError, AccountError, RoomError, TranscriptWriteError]
    classes += [RelayKeyChanged, CertificateNotTrusted]
    for cls in classes:
        assert issubclass(cls, errors.NetError) and issubclass(cls, PointlineError), cls
    assert errors.BadReveal is __import__("pointline.net", fromlist=["BadReveal"]).BadReveal


@pytest.mark.parametrize(
    "error",
    [
        errors.MalformedMessage("bad"),
        errors.BadReveal("bad"),
        errors.RosterError("bad"),
        errors.TranscriptError("bad"),
        TranscriptWriteError("disk full"),
        WireError(ErrorCode.BAD_FRAME, "bad"),
        RoomError(ErrorCode.NO_ROOM, "no such room"),
        AccountError(ErrorCode.BAD_CREDENTIALS, "wrong password"),
        errors.ClientError(errors.ClientCode.TIMEOUT, "too slow"),
        errors.ClientError("unreachable", "Cannot reach the relay."),
        RelayKeyChanged("ws://a:1", "a" * 64, "b" * 64),
    ],
)
def test_codes_are_strenums_and_the_text_is_plain(error: PointlineError) -> None:
    assert isinstance(error.code, StrEnum), (type(error), error.code)
    assert str(error) == f"{error.code.value}: {error.text}"
    assert "Error" not in error.text and "{" not in error.text


def test_wire_errors_keep_their_constructor_and_request_id() -> None:
    error = RoomError(ErrorCode.ROOM_FULL, "full", 7)
    assert (error.code, error.message, error.request_id) == (ErrorCode.ROOM_FULL, "full", 7)
    assert error.code == "room_full"
