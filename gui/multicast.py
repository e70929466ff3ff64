"""Android's Wi-Fi multicast lock for tables nearby, taken through Qt for Python's JNI bridge.

Android drops the multicast packets mDNS needs unless the app holds a
``WifiManager.MulticastLock`` (permission ``CHANGE_WIFI_MULTICAST_STATE``; ``ACCESS_WIFI_STATE``
to reach the Wi-Fi manager: tools/android_patch.py declares both). ``install_multicast_lock()``,
called once at start-up, hands ``net.discovery`` the lock's acquire and release; discovery takes
it while it browses or announces and gives it back when it stops (``net.discovery.MulticastLock``
counts the users). Elsewhere it does nothing. A lock that cannot be taken is logged and
discovery goes on (the list may then stay empty on that phone), never a crash.
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import Any, Final

from pointline.net.discovery import set_multicast_lock

__all__ = ["LOCK_TAG", "AndroidMulticastLock", "install_multicast_lock"]

log = logging.getLogger("pointline.multicast")

LOCK_TAG: Final = "pointline-tables-nearby"
WIFI_SERVICE: Final = "wifi"  # android.content.Context.WIFI_SERVICE
_GET_SERVICE: Final = "(Ljava/lang/String;)Ljava/lang/Object;"
_CREATE_LOCK: Final = "(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;"


class AndroidMulticastLock:
    """One ``WifiManager.MulticastLock``, made on first use (``jni``: PySide6.QtCore, or a stand-in
    with ``QJniObject`` and ``QNativeInterface`` for tests)."""

    def __init__(self, jni: Any = None) -> None:
        self._jni = jni
        self._lock: Any = None
        self.held = False

    def _make(self) -> Any:
        jni = self._jni or importlib.import_module("PySide6.QtCore")
        context = jni.QNativeInterface.QAndroidApplication.context()
        wifi = context.callObjectMethod(
            "getSystemService", _GET_SERVICE, jni.QJniObject.fromString(WIFI_SERVICE).object()
        )
        lock = wifi.callObjectMethod(
            "createMulticastLock", _CREATE_LOCK, jni.QJniObject.fromString(LOCK_TAG).object()
        )
        lock.callMethod("setReferenceCounted", "(Z)V", False)  # discovery counts its users
        return lock

    def acquire(self) -> None:
        try:
            if self._lock is None:
                self._lock = self._make()
            self._lock.callMethod("acquire", "()V")
            self.held = True
        except Exception:  # the JNI bridge's failures have no common type
            log.exception("could not take Wi-Fi's multicast lock: tables nearby may not show")

    def release(self) -> None:
        if self._lock is None or not self.held:
            return
        try:
            self._lock.callMethod("release", "()V")
        except Exception:
            log.exception("could not give Wi-Fi's multicast lock back")
        self.held = False


def install_multicast_lock(
    platform: str = sys.platform, jni: Any = None
) -> AndroidMulticastLock | None:
    """On Android, give discovery the multicast lock (returns it); elsewhere None."""
    if platform != "android":
        return None
    lock = AndroidMulticastLock(jni)
    set_multicast_lock(lock.acquire, lock.release)
    return lock
