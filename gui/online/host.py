"""Host a table from the app: the relay in the app's own loop, the host in seat 1, the host screen.

``Host`` is ``OnlineBridge.host`` (and ``OnlineBridge.extras``, the name the shared ``CloseAsk``
card reads the window's close question on, gui/close_question.py: the online screens ask it
while guests sit at my table, or while a session I sit in runs). ``hostTable``
loads ``pointline.net.hosting`` only when the player taps Host (the app's start imports no
relay code: tests/gui/test_gui_import_path.py), opens a ``HostedTable`` on the bridge's qasync
loop and hands the host's own ``RelayClient`` to the bridge: from there the host is an online
seat like any other (the lobby, Start, the table, the results). The first time, the host types
a player name; the table's account is made with a generated password kept in the data folder
(``net.hosting.host_account``), and the name is remembered there too, so the next time Host is
one tap.

Leaving, closing the window and going to the background end the table through
``HostedTable.close`` (the host's signed departure first) and ``HostedTable.background``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from pointline.gui.close_question import Asking, CloseQuestion
from pointline.gui.online.from_net import ClientError, NetError, data_dir
from pointline.gui.online.lobby import Lobby
from pointline.gui.online.state import Link, Part
from pointline.gui.online.texts import (
    HOST_ROSTER_WORDS,
    HOST_VOUCHES,
    NAME_HINT,
    host_share,
    who_is_in,
)
from pointline.gui.seat_table import QVARIANT_LIST, state_property
from pointline.gui.texts import CLOSE_WORDS, hosted_close_text

__all__ = ["HOST_NAME_FILE", "NOT_IN_THIS_BUILD", "Host", "kept_host_name"]

NOT_IN_THIS_BUILD = "Hosting a table is not in this build of the app yet: join a table instead."

HOST_NAME_FILE = "host-name.json"
"""In ``data_dir()/host``: the name the host chose the first time (no secret in it)."""


def kept_host_name(folder: Path) -> str:
    """The host's name from an earlier game night ("" the first time)."""
    try:
        doc = json.loads((folder / HOST_NAME_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    name = doc.get("name") if isinstance(doc, dict) else None
    return name if isinstance(name, str) else ""


class Host(Part):
    """The table I host (``hosting`` false: none)."""

    hostingChanged = Signal()
    tableNameChanged = Signal()
    wordsChanged = Signal()
    playersChanged = Signal()
    keptNameChanged = Signal()

    def __init__(
        self,
        shell: Link,
        lobby: Lobby,
        question: CloseQuestion,
        parent: QObject | None = None,
    ) -> None:
        """``question``: the window's close question (its shell's), asked online here."""
        super().__init__(shell, parent)
        self._lobby = lobby
        self._question = question
        question.set_asker("online", self._close_asking)
        self.table: Any = None
        """The open ``net.hosting.HostedTable`` (None when not hosting)."""
        self.folder: Path | None = None
        """Where the table keeps its certificate, relay and accounts (default ``data_dir()/host``;
        tests pass a folder of their own)."""
        self.address: str | None = None
        """The address to host on (default: this device's first network address)."""
        self.announce = True
        """Announce the table nearby by mDNS (tests on loopback turn it off)."""
        self._closing: asyncio.Future[None] | None = None
        self.put(
            hosting=False,
            tableName="",
            words="",
            players=[],
            keptName="",
        )

    hosting = state_property(bool, "hosting", hostingChanged)
    tableName = state_property(str, "tableName", tableNameChanged)
    words = state_property(str, "words", wordsChanged)
    """The table certificate's four words, which guests compare on their join screen."""
    players = state_property(QVARIANT_LIST, "players", playersChanged)
    """Who is in, in seat order (the host first)."""
    keptName = state_property(str, "keptName", keptNameChanged)
    """The host's name from an earlier game night ("": the first time, a name is typed)."""
    closeQuestion = Property(QObject, lambda self: self._question, constant=True)
    """The window's close question (CloseAsk.qml shows it over the online screens)."""
    vouches = Property(str, lambda self: HOST_VOUCHES, constant=True)
    nameHint = Property(str, lambda self: NAME_HINT, constant=True)
    shareText = Property(
        str, lambda self: host_share(self._values["tableName"]), notify=tableNameChanged
    )
    """Where guests find the table and which words they compare (the host screen's first line)."""
    rosterWords = Property(str, lambda self: HOST_ROSTER_WORDS, constant=True)
    """The roster's words explained, once (the host screen)."""

    @Slot(int, int, result=str)
    def whoIsIn(self, count: int, most: int) -> str:
        return who_is_in(count, most)

    def host_folder(self) -> Path:
        return self.folder if self.folder is not None else data_dir() / "host"

    @Slot()
    def refreshKeptName(self) -> None:
        self.put(keptName=kept_host_name(self.host_folder()))

    def publish(self) -> None:
        table = self.table
        players = list(table.players) if table is not None and table.running is not None else []
        self.put(
            hosting=table is not None,
            tableName="" if table is None else table.table_name,
            words="" if table is None else " ".join(table.words),
            players=players,
        )
        if table is not None:  # a guest came or went while the host is asked
            self._question.reword("online", self._hosted_close_text())

    # ------------------------------------------------------------------ hosting
    @Slot(str)
    def hostTable(self, name: str) -> None:
        """Open a table hosted by ``name`` (the kept name when "")."""
        shell = self.shell
        if shell.requesting() or self.table is not None:
            return
        name = name.strip() or kept_host_name(self.host_folder())
        if not name:
            shell.set_error(f"Type your player name first: {NAME_HINT}")
            return
        shell.spawn(self._open(name))

    async def _open(self, name: str) -> None:
        shell = self.shell
        shell.set_error("")
        try:
            from pointline.gui.multicast import install_multicast_lock  # (loads discovery)
            from pointline.net.discovery import local_addresses
            from pointline.net.hosting import HostedTable
        except ImportError:  # an install without the relay (both builds carry it)
            shell.set_error(NOT_IN_THIS_BUILD)
            return

        install_multicast_lock()  # Android: hold Wi-Fi's multicast lock while announcing
        address = self.address
        if address is None:
            found = local_addresses()
            if not found:
                shell.set_error("Join a Wi-Fi network first: there is no network to host on.")
                return
            address = found[0]
        try:
            table = HostedTable(
                f"{name}'s table",
                name,
                address,
                folder=self.folder,
                announce=self.announce,
                config=shell.host_config,
                on_seats=lambda _n: self.publish(),
            )
            await table.open()
        except NetError as exc:
            shell.set_error(exc.text)
            return
        folder = self.host_folder()
        with contextlib.suppress(OSError):
            from pointline.net.hostcert import write_private

            write_private(folder / HOST_NAME_FILE, json.dumps({"name": name}).encode("utf-8"))
        self.table = table
        client = table.client
        assert client is not None and client.room is not None  # open() seated the host
        shell.client = client
        shell.set_hosted(name, True)
        room = client.room
        self._lobby.set_room(room.code, room.creator, room.roster, room.seat)
        shell.pump(client)
        shell.signed_in(client.name or name, table.url)
        self.publish()
        shell.announce(
            f"Your table is open: guests nearby see {table.table_name}. Its certificate's words "
            f"are {' '.join(table.words)}."
        )

    @Slot()
    def start(self) -> None:
        """The host's Start (the lobby's, for a hosted table): also marks the table as playing
        in its announcement."""
        table = self.table
        reason = self._lobby.start_reason()
        if table is None or reason:
            self.shell.set_error(reason or "The table is not open.")
            return
        self.shell.spawn(self._lobby.request(lambda _c: table.start()))

    async def close_table(self) -> None:
        """Close the table: the host's departure goes first (``HostedTable.close``). A second
        caller (leaving, then the app's shutdown) waits for the first to finish."""
        await self._end(background=False)

    async def background(self) -> None:
        """A phone went to the background: the session ends and the relay stops."""
        await self._end(background=True)

    async def _end(self, background: bool) -> None:
        table, self.table = self.table, None
        if table is None:
            if self._closing is not None:
                with contextlib.suppress(ClientError, NetError, OSError):
                    await asyncio.shield(self._closing)
            return
        if self.shell.client is table.client:
            self.shell.client = None
        self._closing = asyncio.ensure_future(table.background() if background else table.close())
        with contextlib.suppress(ClientError, NetError, OSError):
            await asyncio.shield(self._closing)
        self.shell.set_hosted("", False)
        self.publish()

    # ------------------------------------------------------------------ CloseAsk's interface
    def seated_guests(self) -> int:
        table = self.table
        if table is None or table.running is None:
            return 0
        return max(0, len(table.players) - 1)

    def _hosted_close_text(self) -> str:
        table = self.table
        seated = len(table.players) if table is not None and table.running is not None else 0
        return hosted_close_text(seated, self.shell.session_running())

    def _close_asking(self) -> Asking | None:
        """The online screens' close question: asked while guests sit at my table, or, at a
        table I do not host, while its session runs (leaving ends it for everyone). Closing
        after all closes the window, and closing it closes the table (departure first)."""
        if self.seated_guests() > 0:
            text = self._hosted_close_text()
        elif self.table is None and self.shell.session_running():
            text = CLOSE_WORDS["guest"]
        else:
            return None
        self.shell.announce(text)
        return Asking(text, CLOSE_WORDS["onlineHint"])
