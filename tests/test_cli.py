"""The dicehall command: usage errors, sim, rules, saves and export, and headless commands without Textual."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import PullBlock
from dicehall.cli import main


def run_cli(*args, home=None):
    env = dict(os.environ)
    if home:
        env["DICEHALL_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "dicehall", *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("args", [["bogus"], ["sim", "dicetower", "--games", "0"], ["sim", "dicetower", "--seed", "x"],
                                  ["play"], ["sim", "dicetower", "--remove-rate", "2"], ["play", "dicetower", "--option", "start"],
                                  ["sim", "journal", "--option", "kings"], ["sim", "journal", "--option", "=x"]])
def test_bad_arguments_get_one_line_and_the_usage(args, capsys):
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("usage: dicehall") and err[-1].startswith("dicehall: ")


def usage_error(args, capsys, usage=None):
    """Run the command expecting an argument error: the command's usage, then exactly one error line."""
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and err[0].startswith(usage or f"usage: dicehall {args[0]} ")
    assert [line for line in err if line.startswith("dicehall: ")] == [err[-1]]
    assert "Traceback" not in captured.err and "\x1b" not in captured.err
    return err[-1]


@pytest.mark.parametrize("args, error", [
    (["rules", "chess"], "dicehall: unknown game 'chess' (games: dicetower, wager, troll, towers, bones, journal)"),
    (["rules", "nope"], "dicehall: unknown game 'nope' (games: dicetower, wager, troll, towers, bones, journal)"),
    (["play", "nope"], "dicehall: unknown game 'nope' (games: dicetower, wager, troll, towers, bones, journal)"),
    (["sim", "nope"], "dicehall: unknown game 'nope' (games: dicetower, wager, troll, towers, bones, journal)"),
    (["play", "dicetower", "--option", "start=0"], "dicehall: start must be a whole number from 1 to 10000"),
    (["play", "dicetower", "--option", "start=\u00b9"], "dicehall: start must be a whole number from 1 to 10000"),
    (["play", "dicetower", "--option", "start=--5"], "dicehall: start must be a whole number from 1 to 10000"),
    (["play", "dicetower", "--option", "colour=red"], "dicehall: unknown option 'colour' (known: start, advantage_from)"),
    (["play", "troll", "--option", "difficulty=impossible"], "dicehall: difficulty must be standard, sturdy, tutorial or custom"),
])
def test_unknown_games_and_bad_options_get_the_usage_and_one_line(args, error, capsys):
    assert usage_error(args, capsys) == error
    assert saves.list_saves() == []  # nothing was written


def test_a_game_that_is_coming_gets_the_usage_and_one_line(capsys, monkeypatch):
    from dicehall import engine

    # every game is playable now: a catalogue entry not built yet stands in for the next one
    coming = engine.games.CatalogueEntry("chess", "Chess", "a board game", False)
    monkeypatch.setattr(engine.games, "CATALOGUE", engine.games.CATALOGUE + (coming,))
    for command in ("play", "rules", "sim"):
        assert usage_error([command, "chess"], capsys) == "dicehall: Chess is coming but not playable yet"


def test_control_characters_in_arguments_never_reach_the_terminal(capsys):
    assert "unrecognized arguments: [2J" in usage_error(["saves", "\x1b[2J\x07"], capsys, "usage: dicehall [-h] [--version] [--hall DIR] [--player NAME] COMMAND")
    assert usage_error(["play", "\x1b[31mred"], capsys).startswith("dicehall: unknown game '\\x1b[31mred'")


def test_sim_json_agrees_with_the_exact_figure(capsys):
    assert main(["sim", "dicetower", "--games", "800", "--seed", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 800
    assert abs(report["mean"] - float(dicetower.expected_pulls(100))) < 0.6
    assert report["min"] <= report["percentiles"]["p5"] <= report["percentiles"]["p50"] <= report["percentiles"]["p95"] <= report["max"]


def test_sim_text_and_remove_rate(capsys):
    main(["sim", "dicetower", "--games", "300", "--seed", "4"])
    plain = capsys.readouterr().out
    assert "300 games" in plain and "mean" in plain and "exact" in plain and "p50" in plain
    main(["sim", "dicetower", "--games", "300", "--seed", "4", "--remove-rate", "0.5", "--json"])
    removing = json.loads(capsys.readouterr().out)
    assert removing["mean"] < 26  # removing subtracts both dice, so towers fall sooner


def test_sim_is_deterministic(capsys):
    main(["sim", "dicetower", "--games", "50", "--seed", "9", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["sim", "dicetower", "--games", "50", "--seed", "9", "--json"])
    second = json.loads(capsys.readouterr().out)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_rules_prints_the_rules(capsys):
    assert main(["rules", "dicetower"]) == 0
    assert "Double threes" in capsys.readouterr().out


def test_saves_export_and_verify(tmp_path, capsys):
    session = saves.new_save("dicetower", name="cli night", seed=3)
    session.play(PullBlock())
    saves.close_save(session)
    assert main(["saves"]) == 0
    assert "cli night" in capsys.readouterr().out
    out = tmp_path / "night.dhr"
    assert main(["export", "cli night", "-o", str(out)]) == 0
    assert replays.read_replay(out).events == session.events
    assert main(["export", "nothing here"]) == 1
    assert "no save named 'nothing here'" in capsys.readouterr().err


def test_headless_commands_do_not_import_textual(tmp_path):
    path = replays.write_replay(engine.new_session("dicetower", seed=1), tmp_path / "g.dhr")
    code = ("import sys; from dicehall.cli import main; "
            f"main(['verify', {str(path)!r}]); main(['analyse', {str(path)!r}]); main(['sim', 'dicetower', '--games', '3']); "
            "main(['rules', 'dicetower']); "
            "main(['saves']); print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, DICEHALL_HOME=str(tmp_path / "h")))
    assert result.stdout.strip().endswith("CLEAN"), result.stdout + result.stderr



def sim_journal_imports(*extra: str) -> set[str]:
    """The modules `dicehall sim journal` imports, as the installed `dicehall` script runs it."""
    code = ("import json, sys; from dicehall.cli import main; "
            f"main(['sim', 'journal', '--games', '2', *{list(extra)!r}]); print(json.dumps(sorted(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(result.stdout.splitlines()[-1]))


# what `sim journal` uses of dicehall: its command's module, the engine's journal on the Dice Tower's pulls,
# the deck's reading and the box's check (no store, no session, no other game, command, hall or screen)
SIM_JOURNAL_USES = ("dicehall.cli.args", "dicehall.cli.box", "dicehall.cli.games", "dicehall.cli.terminal",
                    "dicehall.engine.games.journal", "dicehall.engine.games.dicetower", "dicehall.saves.box",
                    "dicehall.saves.decks", "dicehall.saves.errors", "dicehall.sims.journal")


@pytest.mark.parametrize("deck", [[], ["--deck", str(Path(__file__).parent / "fixtures" / "dc-solo-rpg-game.csv")]],
                         ids=["sample", "csv"])
def test_sim_journal_starts_without_textual_or_what_it_does_not_use(deck):
    """`dicehall sim journal --games 10000` is timed start-up included (#30: within 1 s of CPU): its
    start imports no Textual, no msgpack, platformdirs or openskill, and of dicehall only what it uses."""
    modules = sim_journal_imports(*deck)
    heavy = ("textual", "rich", "msgpack", "platformdirs", "openskill", "hashlib", "fractions")  # hashlib loads OpenSSL
    assert {m for m in modules if m.split(".")[0] in heavy} == set()
    deep = {m for m in modules if m.startswith(("dicehall.cli.", "dicehall.saves.", "dicehall.sims.", "dicehall.engine.games.",
                                                "dicehall.engine.bots", "dicehall.engine.analysis"))}
    assert {m for m in deep if not m.startswith(SIM_JOURNAL_USES)} == set()
    assert "dicehall.engine.session" not in modules and "dicehall.tui" not in modules
    assert ("tomllib" in modules) == (not deck)  # the sample deck is TOML; a CSV deck needs no TOML reader


def test_continue_with_no_saves_says_so(capsys):
    assert main(["continue"]) == 1
    assert "no unfinished save" in capsys.readouterr().err


def test_damaged_save_is_one_line(capsys):
    session = saves.new_save("dicetower", name="broken", seed=3)
    session.play(PullBlock())
    saves.close_save(session)
    data = bytearray(session.journal.path.read_bytes())
    data[-2] ^= 1
    session.journal.path.write_bytes(bytes(data))
    assert main(["continue", "broken"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "checksum does not match" in err[0]
    assert main(["recover", session.labels.save_id]) == 0
    assert "recovered into save" in capsys.readouterr().out


def test_daily_deal_is_the_same_for_everyone_on_a_date():
    from dicehall.engine.chance import daily_seed

    assert daily_seed("troll", "2026-11-22") == daily_seed("troll", "2026-11-22")
    assert daily_seed("troll", "2026-11-22") != daily_seed("troll", "2026-11-23")
    assert daily_seed("troll", "2026-11-22") == 3756386890  # pinned: a daily deal must never change


def test_daily_and_seed_together_are_refused(capsys):
    assert "--daily and --seed do not go together" in usage_error(["play", "troll", "--daily", "--seed", "4"], capsys)
    assert "--daily is for the troll's deal" in usage_error(["play", "wager", "--daily"], capsys)


def test_options_parse_words_booleans_and_lists():
    from dicehall.cli.args import game_options, option

    typed = [option(text) for text in ("difficulty=sturdy", "toys=true", "heights=2,2,2,2,2,2", "start=60", "big=" + "9" * 31)]
    assert game_options("troll", typed) == {"difficulty": "sturdy", "toys": True, "heights": [2, 2, 2, 2, 2, 2],
                                            "start": 60, "big": "9" * 31}  # too long a number: the game refuses the text
    assert game_options("journal", typed[:2]) == {"difficulty": "sturdy", "toys": True}


@pytest.mark.parametrize("title", ["Alone, Again", "1984", "true", "007", "-5", "a,b,c"])
def test_a_journals_title_is_taken_as_typed(title, capsys):
    """Issue #30: the title is text, never a number, a list or true (it was refused: "title is not text")."""
    assert main(["sim", "journal", "--option", f"title={title}", "--games", "1", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deck"] == title


@pytest.mark.parametrize("name", ["my,deck.csv", "1984", "true"])
def test_a_journals_deck_path_is_taken_as_typed(name, tmp_path, monkeypatch, capsys):
    """Issue #30: `--option deck=PATH` is the path as typed (it was "the deck is not a map"): a deck
    with a bad row is refused naming the file; a good one is read and checked, then the screen
    wants a terminal."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text("card,suite,action,description\n2,hearts,flee,Run\n")
    assert main(["play", "journal", "--option", f"deck={name}"]) == 1
    assert capsys.readouterr().err.startswith(f"dicehall: {name} line 2: action is not one of")
    Path(name).write_text("card,suite,action,description\n2,hearts,,Rain\n")
    assert main(["play", "journal", "--option", f"deck={name}"]) == 2
    assert capsys.readouterr().err.startswith("dicehall: no terminal on standard input")


def test_sim_troll_reports_rates(capsys):
    assert main(["sim", "troll", "--difficulty", "tutorial", "--games", "5", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 5 and 0 <= report["win_rate"] <= 1 and report["bot"] == "hint"
    assert report["perfect_rate"] <= report["win_rate"]


def test_sim_wager_reports_each_style_and_seat_with_the_seating_rotated(capsys):
    # three games: the seating turned once round (best at three seats' wagers simulates each decision)
    assert main(["sim", "wager", "--players", "3", "--bots", "best,bold", "--games", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"] == ["best", "bold", "best"]  # the styles repeat to fill the seats
    assert report["games"] == 3 and len(report["seat_win_rate"]) == 3
    assert sum(report["seat_win_rate"]) == pytest.approx(1.0)  # one winner a game
    assert set(report["style_win_rate"]) == {"best", "bold"}
    assert main(["sim", "wager", "--players", "2", "--games", "4", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    assert "win rate per seat taken: best" in text and "seat 1" in text and "seat 2" in text


@pytest.mark.parametrize("args, error", [
    (["--bots", "best,reckless"], "dicehall: unknown bot style 'reckless' (styles: cautious, bold, best)"),
    (["--players", "7"], "dicehall: wager needs 2 to 6 players"),
    (["--players", "2", "--bots", "best,cautious,bold"], "dicehall: 3 bot styles for 2 players: give --players 3 or fewer styles"),
])
def test_sim_wager_bad_arguments_fail_in_one_line(args, error, capsys):
    assert usage_error(["sim", "wager", "--games", "2", *args], capsys) == error


def test_play_wager_rejects_an_unknown_option_before_the_screen_opens(capsys):
    assert usage_error(["play", "wager", "--option", "speed=3"], capsys) == "dicehall: unknown option 'speed' (known: play_on)"


def test_errors_that_are_not_about_arguments_stay_one_line_with_exit_1(tmp_path, capsys):
    assert main(["continue", "no such save"]) == 1
    assert main(["verify", str(tmp_path / "missing.dhr")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and not any(line.startswith("usage:") for line in err)
    assert err[0] == "dicehall: no save named 'no such save' (dicehall saves lists them)"
    assert err[1].startswith("dicehall: ") and "cannot read" in err[1]


def export_fixture():
    session = saves.new_save("dicetower", name="exported", seed=3)
    session.play(PullBlock())
    saves.close_save(session)
    return session


def test_export_never_overwrites_without_force(tmp_path, capsys):
    session = export_fixture()
    target = tmp_path / "taken.dhr"
    target.write_bytes(b"someone else's file")
    assert main(["export", "exported", "-o", str(target)]) == 1
    assert capsys.readouterr().err.strip() == f"dicehall: {target} already exists; add --force to replace it"
    assert target.read_bytes() == b"someone else's file"
    assert main(["export", "exported", "-o", str(target), "--force"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {target}"
    assert replays.read_replay(target).events == session.events
    assert sorted(os.listdir(tmp_path)) == ["dicehall-home", "taken.dhr"]  # no temporary file left


def test_export_to_a_folder_writes_the_save_id(tmp_path, capsys):
    session = export_fixture()
    folder = tmp_path / "outdir"
    folder.mkdir()
    assert main(["export", "exported", "-o", str(folder)]) == 0
    written = folder / f"{session.labels.save_id}.dhr"
    assert capsys.readouterr().out.strip() == f"wrote {written}"
    assert replays.read_replay(written).events == session.events
    assert main(["export", "exported", "-o", str(folder)]) == 1
    assert "already exists; add --force" in capsys.readouterr().err
    assert os.listdir(folder) == [written.name] and sorted(os.listdir(tmp_path)) == ["dicehall-home", "outdir"]


def test_sim_towers_plays_two_levels_with_colours_alternated(capsys):
    assert main(["sim", "towers", "--bots", "easy,random", "--games", "4", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and report["bots"] == ["easy", "random"]
    total = sum(report["win_rate"].values()) + report["draw_rate"]
    assert total == pytest.approx(1.0)
    assert main(["sim", "towers", "--games", "2", "--seed", "3", "--bots", "random,random"]) == 0
    assert "random (first)" in capsys.readouterr().out


def test_sim_towers_and_play_towers_refuse_bad_arguments_with_the_usage(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["sim", "towers", "--bots", "hard,genius", "--games", "1"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == \
        "dicehall: unknown Towers level 'genius' (levels: random, easy, medium, hard)"
    with pytest.raises(SystemExit):
        main(["play", "towers", "--option", "first=red"])
    assert capsys.readouterr().err.strip().splitlines()[-1] == "dicehall: first must be light or dark (who places the first tower)"


def test_sim_bones_plays_the_general_against_random_play(capsys):
    assert main(["sim", "bones", "--bots", "general,random", "--games", "4", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and report["bots"] == ["general", "random"]
    assert report["win_rate"]["general"] >= 0.75  # 100% over 200 games in the README


# --- command-line leftovers: nothing silently ignored ---------------------------------------------

@pytest.mark.parametrize("args, error", [
    (["sim", "wager", "--bots", ",,,"], "dicehall: --bots ',,,' names no bot"),
    (["sim", "towers", "--bots", " , "], "dicehall: --bots ',' names no bot"),
    (["sim", "dicetower", "--bots", "best,bold"], "dicehall: sim dicetower does not take --bots (it takes --remove-rate)"),
    (["sim", "troll", "--players", "4"], "dicehall: sim troll does not take --players (it takes --difficulty, --variant, --bot)"),
    (["sim", "wager", "--difficulty", "sturdy"], "dicehall: sim wager does not take --difficulty (it takes --players, --bots)"),
    (["sim", "bones", "--remove-rate", "0.5"], "dicehall: sim bones does not take --remove-rate (it takes --bots)"),
    (["sim", "towers", "--players", "2"], "dicehall: sim towers does not take --players (it takes --bots)"),
    (["verify", ""], "dicehall: verify needs the name of a replay file (.dhr)"),
    (["replay", " "], "dicehall: replay needs the name of a replay file (.dhr)"),
])
def test_options_that_mean_nothing_here_are_refused_with_the_usage(args, error, capsys):
    assert usage_error(args, capsys) == error


def test_sim_games_is_capped(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["sim", "dicetower", "--games", str(10**12)])
    assert caught.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == "dicehall: argument --games: must be at most 1,000,000"


def test_a_long_sim_shows_its_progress_on_a_terminal_and_clears_it(monkeypatch, capsys):
    from dicehall import sims as sim

    class Terminal:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, text):
            self.text += text

        def flush(self):
            pass

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(sim, "PROGRESS_SECONDS", 0)
    assert main(["sim", "dicetower", "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3  # stdout is the report alone
    assert "\rsim: 1 of 3 games" in terminal.text and "\rsim: 2 of 3 games" in terminal.text
    assert terminal.text.endswith("\r")  # the progress line is cleared


def test_recover_on_a_healthy_save_says_so_and_writes_nothing(capsys):
    session = saves.new_save("dicetower", name="healthy", seed=3)
    session.play(PullBlock())
    saves.close_save(session)
    assert main(["recover", session.labels.save_id]) == 0
    out = capsys.readouterr().out.strip()
    assert out == f"{session.labels.save_id} is not damaged: nothing to recover (dicehall continue {session.labels.save_id} opens it)"
    assert [info.id for info in saves.list_saves()] == [session.labels.save_id]


@pytest.mark.parametrize("game", ["dicetower", "troll"])
def test_play_names_a_one_player_game_after_the_options_and_seats_the_login_name(game, monkeypatch):
    import pty
    import signal

    from tests.apphelpers import exited
    from tests.test_signals import read_for

    monkeypatch.setenv("LOGNAME", "bob")
    pid, fd = pty.fork()
    if pid == 0:  # dicehall in a terminal of its own, as a person starts it
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "dicehall", "play", game, "--seed", "3"])
    try:
        read_for(fd, 60, until=b"Help")  # the footer: the screen is drawn, the save made
        infos = saves.list_saves()
        os.kill(pid, signal.SIGTERM)  # ends the app cleanly (tests/test_signals.py)
        exited(pid, "dicehall ended on SIGTERM", fd)
    finally:
        os.close(fd)
    assert [info.name for info in infos] == [{"dicetower": "Tower from 100", "troll": "Standard"}[game]]
    assert [p.name for p in saves.load_readonly(infos[0].id).players] == ["bob"]
