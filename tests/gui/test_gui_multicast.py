"""Android's multicast lock through the JNI bridge (issue 32, phones): the calls it makes, in
order, on a stand-in for Qt for Python's QJniObject (no phone here), and discovery holding it
only while it browses."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pointline.gui.multicast import LOCK_TAG, install_multicast_lock
from pointline.net.discovery import TableBrowser, multicast_lock, set_multicast_lock


class FakeJni:
    """Records every JNI call as (method, signature, args)."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.fail = fail
        jni = self

        class Obj:
            def __init__(self, name: str) -> None:
                self.name = name

            def object(self) -> str:
                return self.name

            def callObjectMethod(self, method: str, signature: str, *args: Any) -> Obj:
                jni.calls.append((method, signature, *map(str, args)))
                return Obj(method)

            def callMethod(self, method: str, signature: str, *args: Any) -> None:
                if jni.fail and method == "acquire":
                    raise RuntimeError("java.lang.SecurityException")
                jni.calls.append((method, signature, *map(str, args)))

        class QJniObject:
            @staticmethod
            def fromString(text: str) -> Obj:
                return Obj(text)

        class QAndroidApplication:
            @staticmethod
            def context() -> Obj:
                return Obj("context")

        class QNativeInterface:
            pass

        QNativeInterface.QAndroidApplication = QAndroidApplication  # type: ignore[attr-defined]
        self.QJniObject, self.QNativeInterface = QJniObject, QNativeInterface


@pytest.fixture(autouse=True)
def no_lock_after() -> Any:
    yield
    set_multicast_lock(None, None)


def test_nothing_happens_off_android() -> None:
    assert install_multicast_lock("linux", FakeJni()) is None
    assert multicast_lock.acquire is None


def test_the_lock_is_made_once_taken_while_browsing_and_given_back() -> None:
    jni = FakeJni()
    lock = install_multicast_lock("android", jni)
    assert lock is not None

    async def browse() -> None:
        browser = TableBrowser(["127.0.0.1"])
        await browser.start()
        assert lock.held
        await browser.stop()

    asyncio.run(browse())
    assert not lock.held
    assert [c[0] for c in jni.calls] == [
        "getSystemService",
        "createMulticastLock",
        "setReferenceCounted",
        "acquire",
        "release",
    ]
    assert jni.calls[0][2] == "wifi" and jni.calls[1][2] == LOCK_TAG
    assert jni.calls[2][2] == "False"  # discovery counts its own users


def test_a_refused_lock_is_logged_and_discovery_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    lock = install_multicast_lock("android", FakeJni(fail=True))
    assert lock is not None
    lock.acquire()
    assert not lock.held and "multicast lock" in caplog.text
    lock.release()  # nothing to give back: no call, no error
