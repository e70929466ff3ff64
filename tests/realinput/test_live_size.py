"""Issue 30, finding 8: ``pointline --size WxH`` sizes the live window, not only screenshots."""

from __future__ import annotations

from tests.realinput.driver import wait_for


def test_size_sets_the_live_window(start_app) -> None:
    app = start_app(args=("--size", "390x844"))
    app.ready()

    def shown() -> list[tuple[int, int]] | None:
        return [(w["width"], w["height"]) for w in app.windows() or [] if w["showing"]] or None

    assert wait_for("the window on screen", shown) == [(390, 844)]
