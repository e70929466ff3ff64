"""One error tree (#16 item 7): every net error is a ``PointlineError`` with a StrEnum code."""

from __future__ import annotations

import importlib
import subprocess
import sys
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


def _net_errors_in_the_tree() -> list[type[PointlineError]]:
    """Every public error class that some module of net defines under ``PointlineError``
    (each module of net imported first, so every class exists)."""
    import pkgutil

    import pointline.net

    for info in pkgutil.walk_packages(pointline.net.__path__, "pointline.net."):
        if not info.name.endswith(".__main__"):
            importlib.import_module(info.name)
    found: list[type[PointlineError]] = []
    todo: list[type[PointlineError]] = [PointlineError]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("pointline.net") and not sub.__name__.startswith("_"):
                found.append(sub)
    return found


def test_every_error_of_the_tree_is_reachable_from_net_errors() -> None:
    """The module that draws the tree names every public error of it: defined there, or
    re-exported (lazily) from the module that defines it."""
    classes = _net_errors_in_the_tree()
    assert {cls.__name__ for cls in classes} >= {"AccountError", "WireError", "HostingError"}
    for cls in classes:
        assert getattr(errors, cls.__name__) is cls, cls
        assert cls.__name__ in errors.__all__, cls
        assert cls.__name__ in dir(errors), cls
    assert sorted(errors.__all__) == sorted(
        {c.__name__ for c in classes} | {"NetCode", "ClientCode"}
    )


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchError"):
        errors.NoSuchError  # noqa: B018


def test_net_errors_loads_no_socket_library_and_its_re_exports_make_no_cycle() -> None:
    """Imported first in a fresh interpreter, ``net.errors`` loads nothing of networking; then
    each re-exported error, asked for there first, is the class its own module defines."""
    code = (
        "import sys, importlib\n"
        "from pointline.net import errors\n"
        "heavy = ('websockets', 'socket', 'ssl', 'asyncio', 'zeroconf', 'sqlite3', 'argon2',\n"
        "         'redis', 'psycopg', 'pointline.net.relay', 'pointline.net.client')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "for name, module in errors._ELSEWHERE.items():\n"
        "    cls = getattr(errors, name)\n"
        "    assert cls is getattr(importlib.import_module(module), name), name\n"
        "    assert issubclass(cls, errors.NetError), name\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr
