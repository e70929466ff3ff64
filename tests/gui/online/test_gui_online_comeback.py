"""Coming back to a hosted table is one tap after a normal leave (issue 41, finding 1): going
back to the solo table keeps the guest's sign-in (it used to sign out, emptying
guest-tokens.json, so the next game night asked for the password and called it "expired")."""

from __future__ import annotations

import json
from pathlib import Path

from pointline.net.joining import GUEST_TOKENS_FILE
from tests.gui.online.test_gui_online_hosted import (
    guest_bridge,
    host_a_table,
    host_bridge,
    join_nearby,
    listed,
)
from tests.gui.online_support import Window, on_qt_loop, until


@on_qt_loop(timeout=60)
async def test_a_guest_who_went_back_to_solo_returns_with_two_taps(tmp_path: Path) -> None:
    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("leaver"), (390, 844))
    folder = tmp_path / "guest"
    guest.bridge.nearby.folder = folder
    returning: Window | None = None
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await join_nearby(guest, table, "leaver")
        kept = json.loads((folder / GUEST_TOKENS_FILE).read_text())["tokens"]
        left: list[bool] = []
        guest.bridge.left.connect(lambda: left.append(True))
        guest.bridge.leave()  # "Back to solo table", the normal way out
        await until(lambda: left, what="back at the solo table")
        assert json.loads((folder / GUEST_TOKENS_FILE).read_text())["tokens"] == kept
        returning = Window(guest_bridge("back"), (390, 844))  # the app relaunched
        returning.bridge.nearby.folder = folder
        assert await join_nearby(returning, table) == 2  # Play online, the table
        assert returning.bridge.account.name == "leaver"
    finally:
        for ui in (guest, returning, host):
            if ui is not None:
                await ui.bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_forget_this_table_deletes_the_sign_in_only(tmp_path: Path) -> None:
    """Only "Forget this table" drops the kept sign-in; the pin stays, so the next tap is not
    a first visit's certificate question but a plain sign-in, never called expired."""
    from pointline.net.client._trust import KnownTables

    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("forgetter"), (390, 844))
    folder = tmp_path / "guest"
    guest.bridge.nearby.folder = folder
    try:
        await host_a_table(host, "hoster")
        table = host.bridge.host.table
        await join_nearby(guest, table, "forgetter")
        nearby = guest.bridge.nearby
        nearby.show_tables(listed(table))  # back on the list
        (key,) = nearby.found
        pinned = KnownTables(folder).pinned("hoster")
        nearby.forgetTable(key)
        await until(
            lambda: json.loads((folder / GUEST_TOKENS_FILE).read_text())["tokens"] == {},
            what="the sign-in forgotten",
        )
        assert KnownTables(folder).pinned("hoster") == pinned  # the pin stays
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()


@on_qt_loop(timeout=60)
async def test_a_tapped_table_that_has_closed_says_so_and_leaves_the_list(tmp_path: Path) -> None:
    """Finding 3: a table still listed after its host closed it said "The relay refused that
    request: try again in a moment."; now the tap says the host closed it."""
    from pointline.gui.online.texts import table_gone

    host = Window(host_bridge(tmp_path / "host"), (844, 390))
    guest = Window(guest_bridge("late"), (390, 844))
    guest.bridge.nearby.folder = tmp_path / "guest"
    try:
        await host_a_table(host, "hoster")
        stale = listed(host.bridge.host.table)
        await host.bridge.host.table.close()  # the host closes; the guest's list is stale
        nearby = guest.bridge.nearby
        nearby.show_tables(stale)
        (key,) = nearby.found
        nearby.choose(key)
        nearby.join("late", "password-123")  # a first visit's Join
        await until(lambda: guest.bridge.error != "", what="the tap's answer")
        assert guest.bridge.error == table_gone("hoster")
        assert nearby.tables.rowCount() == 0
    finally:
        await guest.bridge.shutdown()
        await host.bridge.shutdown()
