"""The window's one close question (gui/close_question.py): one state for every screen, asked
on the screen that counts, answered once. Before, the solo table's ``Extras`` and the online
``Host`` each kept their own (two flags, two approvals, two sets of words)."""

from __future__ import annotations

from typing import Any

from pointline.gui.close_question import Asking, CloseQuestion
from pointline.gui.shell import Shell
from pointline.gui.texts import CLOSE_WORDS, TEXTS, close_keys


def test_a_screen_asks_only_when_it_has_something_to_lose(qapp: Any) -> None:
    question = CloseQuestion()
    assert not question.ask("solo")  # no screen said how it asks: close at once
    question.set_asker("solo", lambda: None)
    assert not question.ask("solo") and not question.asked
    question.set_asker("online", lambda: Asking("1 guest is at your table.", "Leave"))
    assert not question.ask("solo")  # each screen's own asker, never another's
    assert question.ask("online") and question.asked
    assert (question.text, question.hint) == ("1 guest is at your table.", "Leave")
    assert not question.ask("online")  # already open: the window stays, nothing asks twice


def test_keep_playing_changes_nothing_and_close_the_app_is_answered_once(qapp: Any) -> None:
    question = CloseQuestion()
    done: list[str] = []
    approved: list[bool] = []
    question.approved.connect(lambda: approved.append(question.asked))
    question.set_asker("solo", lambda: Asking("Close?", "End", lambda: done.append("recorded")))
    assert question.ask("solo")
    question.reword("online", "not this screen's")
    assert question.text == "Close?"
    question.reword("solo", "Close now?")
    assert question.text == "Close now?"
    question.cancel()  # Keep playing
    assert not question.asked and question.text == "" and done == [] and approved == []
    question.confirm()  # nothing asked: nothing to confirm
    assert done == [] and approved == []
    assert question.ask("solo")
    question.confirm()  # Close the app: the screen's last act, then the window closes
    assert done == ["recorded"] and approved == [False]
    assert not question.ask("solo")  # the window is closing: nothing asks again


def test_one_question_per_window_with_one_set_of_words(qapp: Any) -> None:
    shell = Shell()
    assert shell.closeQuestion is shell.close_question
    assert shell.close_question.words == CLOSE_WORDS
    assert Shell().close_question is not shell.close_question
    # the footer while it is open: the solo table's words, on every screen
    said = shell.close_question.keys("Keep playing (Esc)")
    assert (
        said
        == TEXTS["keysClose"].replace("{button}", "Keep playing (Esc)")
        == close_keys("Keep playing (Esc)")
    )
    assert "Esc keeps playing" in said
    assert TEXTS["keysNoButton"] in shell.close_question.keys("")
