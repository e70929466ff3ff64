"""Tables nearby: the live list on the sign-in screen, the certificate words, one tap to join.

``Nearby`` is ``OnlineBridge.nearby``. ``browse`` starts a ``net.discovery.TableBrowser`` on
this device's addresses (loaded then, never at the app's start) and keeps ``tables`` in step as
hosts come and go. ``choose(i)`` picks a table:

- a table this device knows (its certificate pinned) and a kept token: straight into its room
  (the returning guest's one tap);
- a first visit: the four certificate words are shown, with the name and password fields and
  "Join" (sign up, or sign in to an account made there before): the certificate is pinned when
  its fingerprint matches the announcement;
- a changed certificate: "this table's certificate changed" with the new words and an explicit
  "Trust the new certificate" (``trustNew``) or "Don't join" (``decline``); never accepted
  silently, never a dead end;
- a table whose certificate is not the one it announces: refused, nothing trusted.

The kept token (never the password) is ``net.joining.GuestTokens`` in the data folder (0600).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.online.from_net import ClientError, NetError, data_dir
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.models import RowsModel
from pointline.gui.online.state import Link, Part
from pointline.gui.online.texts import (
    CERTIFICATE_CHANGED,
    FIRST_VISIT,
    FORGED,
    FORGET_TABLE,
    NEARBY_LIST,
    NEARBY_NONE,
    RELAY_NEARBY,
    TRUSTED_NEW,
    forget_hint,
    forgot_table,
    nearby_relay_label,
    other_version,
    refusal,
    sign_in_problem,
    table_gone,
    version_refusal,
)
from pointline.gui.seat_table import state_property

__all__ = ["NEARBY_KEYS", "Nearby"]

NEARBY_KEYS = ("key", "name", "host", "seats", "open", "label", "kind", "kept")


class Nearby(Part):
    """The tables nearby and the one I chose (``asking``: "", "first", "changed")."""

    browsingChanged = Signal()
    askingChanged = Signal()
    questionChanged = Signal()
    wordsChanged = Signal()
    chosenNameChanged = Signal()
    relayChosen = Signal(str)
    """A club relay was tapped: its address, for the sign-in form (then a room's code)."""

    def __init__(self, shell: Link, lobby: Lobby, parent: QObject | None = None) -> None:
        super().__init__(shell, parent)
        self._lobby = lobby
        self._tables = RowsModel(NEARBY_KEYS, self)
        self.browser: Any = None
        self.folder: Path | None = None
        """Where pinned certificates and kept tokens live (default ``data_dir()``)."""
        self.addresses: list[str] | None = None
        """The addresses to browse on (default: this device's; tests name their own)."""
        self.found: dict[str, Any] = {}
        """The ``NearbyTable``s by service name, as the browser last said."""
        self.chosen: Any = None
        self._relay_url = ""
        """A club relay tapped in the list (``useRelay`` puts it in the typed field)."""
        self._new_fingerprint = ""
        self.put(browsing=False, asking="", question="", words="", chosenName="")
        # No lambda over self: when this object goes (its window closed without a stop), the
        # browser is stopped through the holder, and never calls into a deleted model.
        self._holder: list[Any] = []
        self.destroyed.connect(_abandon(self._holder))

    browsing = state_property(bool, "browsing", browsingChanged)
    asking = state_property(str, "asking", askingChanged)
    question = state_property(str, "question", questionChanged)
    words = state_property(str, "words", wordsChanged)
    chosenName = state_property(str, "chosenName", chosenNameChanged)
    tables = Property(QObject, lambda self: self._tables, constant=True)
    """The tables nearby (a ``RowsModel``, ``NEARBY_KEYS``), in name order."""
    emptyText = Property(str, lambda self: NEARBY_NONE, constant=True)
    forgetText = Property(str, lambda self: FORGET_TABLE, constant=True)
    listName = Property(str, lambda self: NEARBY_LIST, constant=True)
    """The list's name for a screen reader, ``{count}`` for how many tables it holds."""

    @Slot(str, result=str)
    def forgetHint(self, name: str) -> str:
        """The hint of "Forget" beside ``name``'s table."""
        return forget_hint(name)

    def data_folder(self) -> Path:
        return self.folder if self.folder is not None else data_dir()

    # ------------------------------------------------------------------ the live list
    @Slot()
    def browse(self) -> None:
        if self.browser is None:
            self.shell.spawn(self._browse(), request=False)

    async def _browse(self) -> None:
        try:
            from pointline.gui.multicast import install_multicast_lock  # (loads discovery)
            from pointline.net.discovery import TableBrowser, local_addresses
        except ImportError:  # an install without zeroconf: no list (both builds carry it)
            return

        install_multicast_lock()  # Android: hold Wi-Fi's multicast lock while browsing
        addresses = self.addresses if self.addresses is not None else local_addresses()
        if not addresses or self.browser is not None:
            return
        browser = TableBrowser(addresses, on_event=lambda _e: self.refresh())
        self.browser = browser
        self._holder[:] = [browser]
        self.show_tables({})  # a fresh list: only tables that answer now
        try:
            await browser.start()
        except (OSError, RuntimeError, ValueError):
            self.browser = None
            self._holder.clear()
            with contextlib.suppress(OSError, RuntimeError):
                await browser.stop()
            return
        self.put(browsing=True)

    async def stop(self) -> None:
        """Stop browsing (the list is no longer shown): the browser and its sockets end, and
        the list is emptied, so the next browse shows only the tables that answer then."""
        browser, self.browser = self.browser, None
        self._holder.clear()
        if browser is not None:
            with contextlib.suppress(OSError, RuntimeError):
                await browser.stop()
        self.show_tables({})
        self.put(browsing=False)

    def refresh(self) -> None:
        """The browser's list changed: show the hosted tables in it, by name."""
        browser = self.browser
        self.show_tables({} if browser is None else dict(browser.tables))

    def show_tables(self, tables: dict[str, Any]) -> None:
        """List ``tables`` (``NearbyTable`` by service name): the browser's, or a scene's."""
        self.found = dict(tables)
        rows = []
        for key, table in sorted(self.found.items(), key=lambda kv: kv[1].announcement.name):
            ann = table.announcement
            if ann.kind == "relay":  # a club's relay (pointline-relay --announce)
                label = nearby_relay_label(ann.name, ann.rooms)
                rows.append(
                    {
                        "key": key,
                        "name": ann.name,
                        "host": "",
                        "seats": 0,
                        "open": True,
                        "label": label,
                        "kind": "relay",
                        "kept": False,
                    }
                )
                continue
            seated = "1 seated" if ann.seats == 1 else f"{ann.seats} seated"
            if not ann.compatible:  # listed with plain words, never joined
                from pointline.net.discovery import PROTOCOL_VERSION

                seated += " · " + other_version(ann.version, PROTOCOL_VERSION)
            rows.append(
                {
                    "key": key,
                    "name": ann.name,
                    "host": ann.host or "",
                    "seats": ann.seats or 0,
                    "open": ann.open,
                    "kind": "table",
                    "label": f"{ann.name} · {seated}" + ("" if ann.open else " · playing"),
                    "kept": self._kept(ann),
                }
            )
        self._tables.set_rows(rows)

    def _kept(self, ann: Any) -> bool:
        """This app keeps a sign-in for the table (its row offers "Forget this table")."""
        try:
            return self._tokens().get(ann.host, ann.fingerprint or "") is not None
        except ClientError:  # a damaged file: nothing to forget from the list
            return False

    # ------------------------------------------------------------------ joining
    def _known(self) -> Any:
        from pointline.net.client import KnownTables

        return KnownTables(self.data_folder())

    def _tokens(self) -> Any:
        from pointline.net.joining import GuestTokens

        return GuestTokens(self.data_folder())

    @Slot(str)
    def choose(self, key: str) -> None:
        """The player tapped the table ``key``."""
        table = self.found.get(key)
        shell = self.shell
        if table is None or shell.requesting():
            return
        from pointline.net.client import TableTrust
        from pointline.net.hostcert import certificate_words

        ann = table.announcement
        if ann.kind == "relay":  # sign in to the club's relay, then type a room's code
            self.chosen = None
            self._relay_url = table.url
            self.put(asking="relay", question=RELAY_NEARBY, words="", chosenName=ann.name)
            shell.announce(RELAY_NEARBY)
            return
        if not ann.compatible:  # another protocol version: say so before any sign-in
            from pointline.net.discovery import PROTOCOL_VERSION

            refused = version_refusal(ann.host or ann.name, ann.version, PROTOCOL_VERSION)
            self.chosen = None
            self.put(asking="", question="")
            shell.set_error(refused)
            shell.announce(refused)
            return
        self.chosen = table
        words = " ".join(certificate_words(ann.fingerprint or "0" * 64))
        check = self._known().check(ann.host, ann.fingerprint)
        shell.set_error("")
        self.put(chosenName=ann.name, words=words)
        if check.outcome is TableTrust.CHANGED:
            self._new_fingerprint = ann.fingerprint or ""
            self.put(asking="changed", question=CERTIFICATE_CHANGED)
            shell.announce(f"{CERTIFICATE_CHANGED} {words}")
            return
        if check.outcome is TableTrust.KNOWN and self._tokens().get(ann.host, ann.fingerprint):
            self.put(asking="", question="")
            shell.spawn(self._join(None, None, False))
            return
        self.put(asking="first", question=FIRST_VISIT)
        shell.announce(f"{FIRST_VISIT} {words}")

    @Slot(str, str)
    def join(self, name: str, password: str) -> None:
        """Join the chosen table with ``name`` and ``password`` (sign up, or sign in when the
        account exists there)."""
        if self.chosen is None or self.shell.requesting():
            return
        problem = sign_in_problem(name, password)
        if problem:
            self.shell.set_error(problem)
            self.shell.announce(problem)
            return
        self.shell.spawn(self._join(name, password, True))

    @Slot()
    def useRelay(self) -> None:
        """The player chose to sign in to the club relay tapped in the list: its address goes
        into the typed field (``relayChosen``) and the sign-in form shows."""
        if self.asking != "relay" or not self._relay_url:
            return
        self.relayChosen.emit(self._relay_url)
        self.put(asking="", question="", chosenName="")

    @Slot()
    def trustNew(self) -> None:
        """The player compared the new words with the host's screen: trust the new one. The
        token kept for the old certificate is not sent to it: the guest signs in again."""
        table = self.chosen
        if table is None or self.asking != "changed":
            return
        try:
            self._known().trust(table.announcement.host, self._new_fingerprint)
        except ClientError as exc:
            self.shell.set_error(exc.text)
            return
        self.put(asking="first", question=TRUSTED_NEW)
        self.shell.announce(TRUSTED_NEW)

    @Slot(str)
    def forgetTable(self, key: str) -> None:
        """The player's explicit "Forget this table" (issue 41): the kept sign-in is deleted
        (only it: the certificate pin and the relay's key stay, so old sessions still verify);
        the next tap asks for the password once, and does not call it expired. Leaving never
        does this."""
        table = self.found.get(key)
        if table is None or table.announcement.kind != "table":
            return
        self.shell.spawn(self._forget(table))

    async def _forget(self, table: Any) -> None:
        from pointline.net.joining import forget_table

        await forget_table(None, table.announcement.host, self._tokens())
        self.show_tables(self.found)  # its row no longer offers to forget
        self.shell.announce(forgot_table(table.announcement.name))

    @Slot()
    def decline(self) -> None:
        self.chosen = None
        self.put(asking="", question="", words="", chosenName="")

    async def _join(self, name: str | None, password: str | None, signup: bool) -> None:
        from pointline.net.client import AnnouncementMismatch, TableCertificateChanged
        from pointline.net.joining import SignInNeeded, connect_table, enter_table

        shell, table = self.shell, self.chosen
        if table is None:
            return
        shell.set_busy(True)
        shell.set_error("")
        client = None
        try:
            options = {"timeouts": shell.timeouts}
            client = await connect_table(table, self._known(), **options)
            room = await enter_table(client, table, self._tokens(), name, password, signup)
        except AnnouncementMismatch:
            self.put(asking="", question="")
            shell.set_error(FORGED)
            shell.announce(FORGED)
            await self._drop(client)
            return
        except TableCertificateChanged as exc:
            self._new_fingerprint = exc.new
            self.put(asking="changed", question=CERTIFICATE_CHANGED)
            await self._drop(client)
            return
        except SignInNeeded as exc:
            self.put(asking="first", question=exc.text)
            await self._drop(client)
            return
        except ClientError as exc:
            if exc.code in _GONE:  # its room is gone: the host closed it
                self._gone(table)
            else:
                shell.set_error(refusal(exc.code, exc.text))
            await self._drop(client)
            return
        except (NetError, OSError, TimeoutError):  # nobody answers there: it closed
            self._gone(table)
            await self._drop(client)
            return
        finally:
            shell.set_busy(False)
        ann = table.announcement
        self.put(asking="", question="")
        shell.client = client
        shell.set_hosted(ann.host or "", False)
        self._lobby.set_room(room.code, room.creator, room.roster, room.seat)
        shell.pump(client)
        shell.signed_in(client.name or name or "", table.url)
        await self.stop()

    def _gone(self, table: Any) -> None:
        """A tapped table that has gone: say it closed, and take it off the list."""
        words = table_gone(table.announcement.host or table.announcement.name)
        self.put(asking="", question="")
        self.chosen = None
        self.shell.set_error(words)
        self.shell.announce(words)
        self.show_tables({k: v for k, v in self.found.items() if v is not table})

    async def _drop(self, client: Any) -> None:
        if client is not None:
            with contextlib.suppress(ClientError, NetError, OSError):
                await client.close()


_GONE = frozenset({"no_room", "room_closed", "unreachable"})
"""Refusals that mean the tapped table is gone (its host closed it)."""


def _abandon(holder: list[Any]) -> Any:
    """A slot for ``destroyed`` that stops the browser left in ``holder`` (a window closed
    without a ``stop``): nothing more reaches the deleted model, and its sockets close."""

    def abandon(*_: object) -> None:
        for browser in holder:
            browser.on_event = None
            with contextlib.suppress(RuntimeError):  # no running loop: the app is ending
                task = asyncio.get_running_loop().create_task(browser.stop())
                _STOPPING.add(task)
                task.add_done_callback(_STOPPING.discard)
        holder.clear()

    return abandon


_STOPPING: set[Any] = set()
"""Browser stops under way for deleted lists (kept referenced until they finish)."""
