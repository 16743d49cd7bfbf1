"""Stored analyses edited within their types (issue #31): each game's figures are checked by the
checker beside its analyser, so plain `analyse` never crashes on a stored copy that is JSON of the
right types but not what the analyser writes: one line, analysed again, stored anew. The per-game
figures (`extra`) never take the place of the output's own fields."""
import json

import pytest

from dicehall.cli import main
from dicehall.engine import analysis
from dicehall.engine.analysis import Analysis, Decision
from dicehall.engine.games import CATALOGUE, troll
from dicehall.engine.games.wager import Wager
from tests.test_analysis import adviser_game, replay_of, tower, wager_game

def towers_opening():
    """Six placements between persons: the first four even by rule, the last two judged by the search
    and marked (a whole game would cost its analysis four times here, and the store is the point)."""
    from dicehall import engine
    from dicehall.engine.core import Player
    from dicehall.engine.games import towers

    session = engine.new_session("towers", seed=1, players=[Player("Ann"), Player("Bob")])
    for square in ("a8", "d5", "h1", "c2", "e4", "g7"):
        session.play(towers.parse_command(f"place {square}"))
    return session


PLAYED = {
    "dicetower": tower,
    "towers": towers_opening,
    "troll": lambda: adviser_game(5, {"difficulty": "standard"}, stop_turn=2,
                                  then=(troll.Move("up"), troll.Move("right"))),
    "wager": lambda: wager_game(Wager()),
}


# game -> (what the one line names, an edit of the stored document that keeps JSON's types)
EDITS = {
    "towers": [("sides", lambda d: d["extra"].__setitem__("sides", {"a": 1})),
               ("margins", lambda d: d["extra"].__setitem__("margins", [])),
               ("per-game figures", lambda d: d["extra"].__setitem__("summary", "x")),
               ("margins", lambda d: d["extra"]["margins"][0].__setitem__("event", float(d["extra"]["margins"][0]["event"]))),
               ("margin 1's margin played", lambda d: d["extra"]["margins"][0].__setitem__("margin_played", 10 ** 400))],
    "dicetower": [("curve", lambda d: d.__setitem__("curve", [])),
                  ("odds", lambda d: d["extra"]["odds"][0].pop("topple")),
                  ("curve", lambda d: d["curve"].reverse()),
                  ("odds", lambda d: d["extra"]["odds"][1].__setitem__("event", True)),  # True == 1, and not an event number
                  ("odds 1's topple chance", lambda d: d["extra"]["odds"][0].__setitem__("topple", 10 ** 400)),
                  ("figure", lambda d: d.__setitem__("figure", "win chance"))],
    "troll": [("one equity", lambda d: d["decisions"][0].__setitem__(7, None)),
              ("no equity", lambda d: [row.__setitem__(7, None) or row.__setitem__(8, None) for row in d["decisions"]]),
              ("per-game figures", lambda d: d["extra"].__setitem__("decisions", []))],
    "wager": [("per-game figures", lambda d: d["extra"].__setitem__("decisions", [])),
              ("figure", lambda d: d.__setitem__("figure", "expected pulls left")),  # the Dice Tower's: read as pulls
              ("decision 1's chance", lambda d: d["decisions"][0].__setitem__(4, 10 ** 400)),  # too large for a float
              ("point 1", lambda d: d["curve"][0].__setitem__(1, -(10 ** 400)))],
}


@pytest.mark.parametrize("game", sorted(EDITS))
def test_a_stored_analysis_edited_within_its_types_is_one_line_and_analysed_again(game, tmp_path, capsys, home):
    path = replay_of(PLAYED[game](), tmp_path, f"{game}.dhr")
    assert main(["analyse", path, "--samples", "2"]) == 0
    fresh = capsys.readouterr().out
    (stored,) = sorted((home / "analyses").glob("*.json"))
    document = json.loads(stored.read_text())
    for words, edit in EDITS[game]:
        changed = json.loads(json.dumps(document))
        edit(changed)
        stored.write_text(json.dumps(changed))
        assert main(["analyse", path, "--samples", "2"]) == 0, words
        out = capsys.readouterr()
        lines = out.err.splitlines()
        assert len(lines) == 1 and words in lines[0] and lines[0].endswith("; analysing again"), (words, out.err)
        assert out.out == fresh, words
        assert json.loads(stored.read_text()) == document  # stored anew, sound


def test_every_analyser_has_its_own_checker_and_its_fresh_figures_pass_it():
    from importlib import import_module

    for entry in CATALOGUE:
        if entry.analyser:
            assert callable(getattr(import_module(entry.analyser), "check_stored", None)), entry.id
    session = tower()
    analysis.check_stored(analysis.analyse(session), session)  # no ShapeError


def test_the_per_game_figures_never_overwrite_the_outputs_own_fields():
    result = Analysis("wager", "win chance", (Decision(1, 0, "roll", "stop", 0.4, 0.5),),
                      extra={"decisions": "forged", "summary": "forged", "game": "forged", "odds": [1]})
    document = analysis.as_json(result)
    assert document["decisions"][0]["played"] == "roll" and document["game"] == "wager"
    assert document["summary"] == result.summary() and document["odds"] == [1]


def analysed_with_a_crafted_copy(session, edit, tmp_path, capsys, home, separators=None):
    """`analyse` of `session`, then again once its stored copy is edited by `edit` (the document
    given, written back compact if `separators`): the first output, the second's (out and err),
    the peak memory of the second, and the crafted file's size (within the size cap)."""
    from dicehall.saves import analyses
    from tests.test_caches_hostile import peak_of

    path = replay_of(session, tmp_path, "game.dhr")
    assert main(["analyse", path]) == 0
    fresh = capsys.readouterr().out
    (stored,) = sorted((home / "analyses").glob("*.json"))
    document = json.loads(stored.read_text())
    edit(document)
    stored.write_text(json.dumps(document, separators=separators))
    size = stored.stat().st_size
    assert analyses.MAX_STORED // 2 < size <= analyses.MAX_STORED
    code, peak = peak_of(lambda: main(["analyse", path]))
    assert code == 0
    return fresh, capsys.readouterr(), peak, size


def test_a_stored_analysis_of_empty_lists_is_refused_before_it_is_parsed(tmp_path, capsys, home):
    fresh, out, peak, size = analysed_with_a_crafted_copy(  # 8 MiB of "[], ": within the size cap
        tower(), lambda d: d["extra"].__setitem__("odds", [[]] * 2_000_000), tmp_path, capsys, home)
    assert out.out == fresh and len(out.err.splitlines()) == 1 and "more lists and tables" in out.err
    assert peak < 3 * size, f"{peak / 2**20:.0f} MiB for {size / 2**20:.0f} MiB"  # parsed: about 60 times its bytes


@pytest.mark.parametrize("stuffing, words", [(["ab"] * 1_500_000, "more texts"), ([10.0] * 1_500_000, "more values")])
def test_a_stored_analysis_stuffed_with_short_values_is_refused_before_it_is_parsed(stuffing, words, tmp_path, capsys, home):
    """Strings and numbers cost 8 to 17 times their bytes once parsed: a file within the size cap but
    far beyond what an analysis of its game holds is refused before json.loads, in one line."""
    fresh, out, peak, size = analysed_with_a_crafted_copy(
        wager_game(Wager()), lambda d: d.__setitem__("notes", stuffing), tmp_path, capsys, home, separators=(",", ":"))
    assert out.out == fresh and len(out.err.splitlines()) == 1 and words in out.err, out.err
    assert peak < 3 * size, f"{peak / 2**20:.0f} MiB for {size / 2**20:.0f} MiB"

def test_the_analysers_own_figures_are_well_within_the_bounds_a_stored_copy_is_read_under(tmp_path, home):
    """The counts read_stored bounds (values, texts) measured on each game's fresh stored analysis:
    at most half of what the game's events allow, so a sound copy is never refused for its size."""
    from dicehall.saves import analyses

    for game, played in PLAYED.items():
        session = played()
        analyses.store(analysis.analyse(session, samples=2 if game != "dicetower" else None), session,
                       2 if game != "dicetower" else None)
    for stored in sorted((home / "analyses").glob("*.json")):
        data = stored.read_bytes()
        events = len(json.loads(data)["curve"])  # a point an event or fewer: events at least this
        values = data.count(b",") + data.count(b":") + data.count(b"[") + data.count(b"{") + 1
        texts = data.count(b'"') // 2 - data.count(b'":')
        assert values <= (32 * events + 4096) // 2 and texts <= (8 * events + 1024) // 2, stored.name
