"""One surface for the session a game screen sees (tui/session.py's GameSession): the engine's
Session and the hall's HallSession both have every name of it, with calls that take its arguments.
(mypy checks the same statically: engine_session_is_one in tui/session.py, hall_session_is_one in
tui/screens/hall/table.py.)"""
from __future__ import annotations

import inspect
import typing
from types import SimpleNamespace

import pytest

from dicehall import engine
from dicehall.engine.core import HostLabels, Player
from dicehall.saves.hall import Hall
from dicehall.tui.screens.base import GameScreen
from dicehall.tui.screens.hall.table import HallSession
from dicehall.tui.session import GameSession

MEMBERS = sorted(name for name in vars(GameSession) if not name.startswith("_"))


def calls_of(protocol_method) -> list[inspect.Parameter]:
    return list(inspect.signature(protocol_method).parameters.values())[1:]  # without self


def takes_the_same_arguments(method, protocol_method) -> bool:
    """Every argument the Protocol's call passes (by position, or by name with its default) is taken."""
    parameters = inspect.signature(method).parameters
    if any(p.kind is p.VAR_POSITIONAL for p in parameters.values()):
        return False  # the surface is written out, not passed through blindly
    named = list(parameters.values())
    for n, wanted in enumerate(calls_of(protocol_method)):
        if n >= len(named) or named[n].name != wanted.name:
            return False
        if wanted.default is not inspect.Parameter.empty and named[n].default != wanted.default:
            return False
    return all(p.default is not inspect.Parameter.empty for p in named[len(calls_of(protocol_method)):])


def sessions(tmp_path, monkeypatch) -> dict:
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "unused"))
    played = engine.new_session("wager", seed=3, players=[Player("Ann"), Player("Bot", True, "bold")])
    table = HallSession(Hall(tmp_path / "hall").host("dicetower", ["player"], "Ann"))
    return {"Session": played, "HallSession": table}


def test_the_protocol_declares_what_a_game_screen_uses():
    assert {"game", "state", "events", "outcome", "to_act", "play", "undo", "describe", "labels"} <= set(MEMBERS)
    assert typing.get_type_hints(GameScreen.__init__)["session"] is GameSession
    assert GameScreen.__annotations__["session"] in (GameSession, "GameSession")


def test_the_engines_session_and_the_halls_both_satisfy_it(tmp_path, monkeypatch):
    for kind, session in sessions(tmp_path, monkeypatch).items():
        assert isinstance(session, GameSession), kind
        for name in MEMBERS:
            declared = inspect.getattr_static(GameSession, name)
            if isinstance(declared, property):
                getattr(session, name)  # readable, here and now
            else:
                assert takes_the_same_arguments(getattr(session, name), declared), (kind, name)
        # and they say the same of a game just begun
        assert session.outcome is None and session.turn_starts() == [m.start for m in session.marks]


def test_a_session_without_one_of_the_names_is_not_one():
    # the check above can fail: one name missing, or a call that does not take the Protocol's arguments
    assert not isinstance(SimpleNamespace(**{name: None for name in MEMBERS if name != "turn_starts"}), GameSession)
    assert not takes_the_same_arguments(lambda self, *args: "", GameSession.describe)
    assert not takes_the_same_arguments(lambda n, shown=True: "", GameSession.describe)


def test_labels_are_the_hosts_and_a_label_set_on_the_session_fails(tmp_path, monkeypatch):
    both = sessions(tmp_path, monkeypatch)
    assert all(isinstance(session.labels, HostLabels) for session in both.values())
    assert both["HallSession"].labels.save_id and not both["Session"].labels.save_id  # the hall named its table
    played = both["Session"]
    with pytest.raises(AttributeError):
        played.comments = {1: "lost"}  # a label belongs in `labels`: on the session it is refused, not kept unread
    played.labels.comments = {1: "kept"}
    assert played.labels.comments == {1: "kept"} and HostLabels().comments == {}  # one session's labels are its own
