"""The throw is the star online too (issue 39): the same dice in the middle of the felt, the
callout once they land, the status line in step, and a tap on the felt that ends the moment and
sends nothing (tests/gui/test_gui_throw_callout.py has the solo table's)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF

from pointline.gui.history import callout_words
from pointline.gui.texts import SOLO_WORDS
from pointline.kernel import ThrowSeen
from pointline.net.protocol._peer import Timeouts
from tests.gui.online_support import commit_steady, game, on_qt_loop, until
from tests.gui.support import ManualClock

SLOW = Timeouts(confirm=30.0, response=5.0, session=120.0, receipts=3.0)


@on_qt_loop(timeout=60)
async def test_online_the_callout_shows_once_the_dice_land_and_a_tap_ends_it(
    tmp_path: Path,
) -> None:
    beats = ManualClock()
    async with game(
        tmp_path, (844, 390), timeouts=SLOW, peer_timeouts=SLOW, reduce_motion=False, beats=beats
    ) as played:
        bridge, ui, seat = played.bridge, played.window, played.bridge.seatTable
        for tap in (False, True):
            await until(
                lambda: seat.legal["confirm"] or seat.legal["roll"], timeout=20, what="my turn"
            )
            if seat.legal["roll"]:
                assert bridge.table.roll()
            else:
                assert bridge.table.allocate() and bridge.table.confirm()
            commit_steady(played.other)
            await until(lambda: seat.revealStage == "rolling", what="the throw's moment")
            assert seat.status == SOLO_WORDS["rolling"] and seat.callout == ""
            dice, felt = ui.item("onlineDice"), ui.item("onlineFelt")
            assert dice.property("size") >= 64
            beats.advance()  # the dice land
            seen = next(
                e
                for e in reversed(bridge.peer.table.seat(bridge.lobby.seat).ledger)
                if isinstance(e, ThrowSeen)
            )
            assert seat.callout == callout_words(seen)
            assert ui.item("onlineCallout").isVisible()
            assert "rolling" not in seat.status
            if seat.revealStage == "outcome":
                assert seat.status == seat.callout
            await ui.frame()
            d = QRectF(dice.x(), dice.y(), dice.width(), dice.height())
            w, h = felt.width(), felt.height()
            assert QRectF(w / 3, h / 3, w / 3, h / 3).contains(d.center())
            if not tap:
                while beats.advance():
                    assert "rolling" not in seat.status
                continue
            sent = played.sent
            await ui.click("onlineFelt")  # a tap anywhere on the felt: the result at once
            assert seat.revealStage == "" and seat.callout == ""
            assert played.sent == sent and not bridge.table.committed
            assert not beats.pending
