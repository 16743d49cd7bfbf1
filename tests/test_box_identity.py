"""A player is their key (issue #29, item 1): on a shared box the admin's key line names the player
(`dicehall --player NAME`); the name is never typed, no other key can sit as it, and each player's
saves live in a folder of their own. Off a box (no name) everything is as it was."""
from __future__ import annotations

import json

import pytest

from dicehall.cli import main
from dicehall.saves import home, saves_dir
from dicehall.saves.box import PLAYER_ENV, box_player, check_player
from dicehall.saves.hall import Hall, SeatHeld, hall_scores
from dicehall.saves.hall.errors import HallError
from dicehall.tui.app import DicehallApp
from dicehall.tui.screens.hall.lobby import HallScreen
from tests.apphelpers import drive_hall as run, screen_text, status, until
from tests.hallhelpers import step
from tests.test_hall_screens import open_host_screen, to_line


@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEHALL_HALL", str(tmp_path / "hall"))
    return Hall(tmp_path / "hall")


def as_player(monkeypatch, name):
    if name is None:
        monkeypatch.delenv(PLAYER_ENV, raising=False)
    else:
        monkeypatch.setenv(PLAYER_ENV, name)


def seat_records(hall, game_id):
    from dicehall.saves import parse_save

    parsed = parse_save((hall.games / f"{game_id}.dhh").read_bytes(), game_id)
    return [r for r in parsed.records if r.get("op") == "seat"]


@pytest.mark.parametrize("name", ["", "Ann", "ann bob", "../ann", "a" * 25, "1ann", "ann\x1b[2J", "[b]ann"])
def test_a_player_name_that_is_not_one_is_refused_in_one_line(name, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--player", name, "saves"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "--player:" in err and "is not a player name" in err and "\x1b" not in err


def test_a_bad_name_in_the_environment_is_never_taken_as_no_box(monkeypatch):
    monkeypatch.setenv(PLAYER_ENV, "../alice")
    with pytest.raises(Exception, match="is not a player name"):
        box_player()
    with pytest.raises(Exception, match="is not a player name"):
        home()


def test_each_player_has_a_data_folder_of_their_own(monkeypatch, home):
    as_player(monkeypatch, None)
    assert saves_dir() == home / "saves"
    as_player(monkeypatch, "ann")
    assert saves_dir() == home / "players" / "ann" / "saves"
    as_player(monkeypatch, "bob")
    assert saves_dir() == home / "players" / "bob" / "saves"
    assert check_player("bob_2-x") == "bob_2-x"


def test_on_a_box_the_seat_is_the_keys_name_and_another_name_is_refused(hall, monkeypatch):
    as_player(monkeypatch, "ann")
    game = hall.host("towers", ["player", "open"], "")
    assert game.fold.seats[0].name == "ann" and game.fold.seats[0].keyed
    as_player(monkeypatch, "bob")
    with pytest.raises(HallError, match="on this box you play as bob"):
        hall.join(game.id, name="ann")  # bob cannot sit as ann, nor as anyone but bob
    joined = hall.join(game.id, name="")
    assert joined.fold.seats[1].name == "bob"
    assert [(r["name"], r.get("key")) for r in seat_records(hall, game.id)] == [("ann", True), ("bob", True)]
    game.close(), joined.close()


def test_no_other_key_takes_a_players_seat_back(hall, monkeypatch):
    as_player(monkeypatch, "ann")
    game = hall.host("towers", ["player", "open"], "ann")
    as_player(monkeypatch, "bob")
    bob = hall.join(game.id)
    game.close()  # ann's link drops: her seat waits for her
    as_player(monkeypatch, "eve")
    with pytest.raises(HallError):  # eve is the same Unix user, but not ann's key
        hall.join(game.id, seat=0)
    with pytest.raises(SeatHeld):
        hall.join(game.id)
    as_player(monkeypatch, "ann")
    back = hall.join(game.id)
    assert back.seat == 0
    back.close(), bob.close()


def test_a_login_with_no_key_named_never_takes_a_keys_seat_by_typing_its_name(hall, monkeypatch):
    """On the box's account every login is the same Unix user: a login without --player (a key line
    without it, the account's own shell) typing `--name ann` took ann's seat and played as her key,
    rated and scored. A key's name is matched only by that key: at a seat, and at a match's seat kept
    for it (a seat handed to a bot is matched the same way: seats.same_player)."""
    from dicehall.saves.hall.match_book import MatchBook

    as_player(monkeypatch, "ann")
    game = hall.host("wager", ["player", "open"], "ann")
    game.close()  # ann's link drops: her seat waits for her
    as_player(monkeypatch, None)
    with pytest.raises(SeatHeld, match="ann's: only they can take it back"):
        hall.join(game.id, seat=0, name="ann")
    typed = hall.join(game.id, name="ann")  # not her seat back: the open one, as a typed name
    assert typed.seat == 1 and [(r["name"], r.get("key", False)) for r in seat_records(hall, game.id)] == [
        ("ann", True), ("ann", False)]
    typed.close()

    as_player(monkeypatch, "ann")
    _, first = MatchBook(hall).host("wager", "match", 3, ["ann", "bob"], "ann")  # invited by a key: bob's key
    as_player(monkeypatch, None)
    with pytest.raises(SeatHeld, match="kept for bob"):
        hall.join(first.id, name="bob")
    as_player(monkeypatch, "bob")
    bob = hall.join(first.id)
    assert bob.seat == 1
    bob.close(), first.close()


def test_off_a_box_names_are_typed_as_before(hall, monkeypatch):
    as_player(monkeypatch, None)
    game = hall.host("towers", ["player", "open"], "Ann")
    assert game.fold.seats[0].name == "Ann" and not game.fold.seats[0].keyed
    assert "key" not in seat_records(hall, game.id)[0]
    game.close()


def finished_towers(hall, monkeypatch, light, dark):
    as_player(monkeypatch, light[0])
    first = hall.host("towers", ["player", "open"], light[1])
    as_player(monkeypatch, dark[0])
    second = hall.join(first.id, name=dark[1])
    games = {0: first, 1: second}
    while not first.finished:
        step(games)
    step(games)
    first.close(), second.close()


def test_scores_say_the_names_are_the_keys_and_keep_a_typed_name_apart(hall, monkeypatch, capsys):
    finished_towers(hall, monkeypatch, ("ann", ""), ("bob", ""))
    found = hall_scores(hall)
    assert "one per player's key" in found.names_note
    assert {s.player for s in found.scores} == {"ann", "bob"}
    finished_towers(hall, monkeypatch, (None, "ann"), (None, "Zed"))  # typed off the box: "ann" again
    found = hall_scores(hall)
    assert "unauthenticated" in found.names_note
    assert {s.player for s in found.scores} == {"ann", "bob", "ann (typed)", "Zed (typed)"}
    assert next(s for s in found.scores if s.player == "ann").games == 1  # the typed game is not the key's
    as_player(monkeypatch, None)
    assert main(["--hall", str(hall.folder), "hall", "--scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "unauthenticated" in data["names"]


def test_on_a_box_the_hall_and_saves_screens_show_no_path_of_the_box(hall, monkeypatch, tmp_path):
    """docs/hall.md: on a box no command shows the hall's folder or any other path of the box; the
    hall screen's title and the empty saves list's named theirs."""
    as_player(monkeypatch, "ann")
    game = hall.host("towers", ["player", "open"], "")
    game.close()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen) and "The hall:" in screen_text(pilot.app))
        lobby = screen_text(pilot.app)
        await pilot.press("q")
        await until(pilot, lambda: not isinstance(pilot.app.screen, HallScreen))
        await pilot.press("c")
        await until(pilot, lambda: "No saved games yet" in screen_text(pilot.app))
        return lobby, screen_text(pilot.app)

    lobby, listing = run(DicehallApp(), steps)
    assert "The hall: 1 in progress, 0 finished" in lobby and "No saved games yet" in listing
    for shown in (lobby, listing):
        assert str(tmp_path) not in shown and "/" not in shown.splitlines()[0] + shown.splitlines()[1], shown


def test_the_hall_screen_joins_as_the_keys_name_without_asking(hall, monkeypatch):
    as_player(monkeypatch, "bob")
    game = hall.host("towers", ["player", "open"], "")
    as_player(monkeypatch, "ann")
    app = DicehallApp()

    async def steps(pilot):
        await pilot.press("h")
        await until(pilot, lambda: isinstance(pilot.app.screen, HallScreen))
        await until(pilot, lambda: "j Join" in screen_text(pilot.app))
        await pilot.press("j")  # no question: the seat is taken as ann at once
        await until(pilot, lambda: getattr(pilot.app, "hall_game", None) is not None)
        return pilot.app.hall_game.fold.seats[1].name

    try:
        assert run(app, steps) == "ann"
    finally:
        game.close()


def test_the_host_screen_shows_the_keys_name_and_enter_on_it_asks_nothing(hall, monkeypatch):
    as_player(monkeypatch, "ann")
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        screen = pilot.app.screen
        await to_line(pilot, "name")
        await pilot.press("enter")
        await pilot.pause()
        return screen_text(pilot.app), status(pilot.app), pilot.app.screen is screen

    text, said, same_screen = run(app, steps)
    assert "Your name:  ann (your key's name)" in " ".join(text.split("  ")) or "ann (your key's name)" in text
    assert "on this box you play as ann" in said
    assert same_screen  # no dialog to type a name in


def test_the_default_hall_is_the_accounts_shared_by_every_player(monkeypatch, home):
    from dicehall.saves.hall import hall_dir

    monkeypatch.delenv("DICEHALL_HALL", raising=False)
    monkeypatch.setattr("dicehall.saves.hall.files.ADMIN_HALL", home / "no-admin-hall")
    as_player(monkeypatch, "ann")
    ann = hall_dir()
    as_player(monkeypatch, "bob")
    assert hall_dir() == ann == home / "hall"


# a key and its fingerprint as `ssh-keygen -lf` printed it (a golden vector: no ssh-keygen needed here)
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPKqjn7SFQZs+d0d7IxS1cL6KZR6jGxi9daaV1xqZ2w/"
FINGERPRINT = "SHA256:368M2adkwchq7Sr9eS7cjRZi22yica7cj/hfrdmx4Ds"


def admin_settings(hall_folder, text):
    import os

    hall_folder.mkdir(parents=True, exist_ok=True)
    (hall_folder / "hall.toml").write_text(text)
    os.chmod(hall_folder / "hall.toml", 0o644)  # the admin's: writable by its owner alone


def test_the_admin_bars_a_key_by_its_fingerprint_when_sshd_names_the_key(hall, monkeypatch, tmp_path, capsys):
    from dicehall.saves.box import login_keys

    admin_settings(hall.folder, f'barred = ["{FINGERPRINT}"]\n')
    auth = tmp_path / "auth-info"
    auth.write_text(f"publickey {KEY}\n")
    monkeypatch.setenv("SSH_USER_AUTH", str(auth))  # sshd's, with ExposeAuthInfo yes
    assert login_keys() == {FINGERPRINT}
    assert main(["--player", "ann", "hall"]) == 1
    assert capsys.readouterr().err.strip() == "dicehall: the admin has barred the key you logged in with from this hall"
    auth.write_text("publickey ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBh2v8mvZ0CXb9Z3WnWnYq0CqwzZfCsPpmY0QbWk5p9F\n")
    assert main(["--player", "ann", "hall"]) == 0  # another key of ann's name is let in: the key was barred
    capsys.readouterr()


@pytest.mark.parametrize("content", ["", "password\n", "publickey ssh-ed25519 !!!notbase64\n", "publickey\n", "\x00" * 100])
def test_a_login_without_a_key_named_or_a_damaged_auth_file_bars_nobody(hall, monkeypatch, tmp_path, content):
    from dicehall.saves.box import login_keys

    auth = tmp_path / "auth-info"
    auth.write_text(content)
    monkeypatch.setenv("SSH_USER_AUTH", str(auth))
    assert login_keys() == frozenset()


def test_the_auth_file_is_never_read_through_a_link_or_a_fifo(monkeypatch, tmp_path):
    import os

    from dicehall.saves.box import login_keys

    real = tmp_path / "real"
    real.write_text(f"publickey {KEY}\n")
    (tmp_path / "link").symlink_to(real)
    os.mkfifo(tmp_path / "fifo")
    for name in ("link", "fifo", "missing"):
        monkeypatch.setenv("SSH_USER_AUTH", str(tmp_path / name))
        assert login_keys() == frozenset()


def test_the_host_screen_offers_the_admins_decks_by_name_and_hosts_with_one(hall, monkeypatch):
    hall.folder.mkdir(parents=True, exist_ok=True)
    decks = hall.folder / "decks"
    decks.mkdir(mode=0o755)
    (decks / "tide.toml").write_text('[game]\ntitle = "Tide Station"\n[[card]]\ncard = "AH"\nprompt = "The tide turns."\n')
    as_player(monkeypatch, "ann")
    app = DicehallApp()

    async def steps(pilot):
        await open_host_screen(pilot)
        screen = pilot.app.screen
        await to_line(pilot, "game")
        while screen.game != "journal":
            await pilot.press("left")
        await to_line(pilot, "option:deck")
        offered = screen_text(pilot.app)
        await pilot.press("right")  # the sample deck -> the admin's tide
        chosen = screen_text(pilot.app)
        await pilot.press("s")
        await until(pilot, lambda: getattr(pilot.app, "hall_game", None) is not None)
        return offered, chosen, pilot.app.hall_game.session.options["deck"]

    offered, chosen, deck = run(app, steps)
    assert "Deck:           the sample deck" in offered
    assert "Deck:           tide (the admin's deck)" in chosen
    assert deck["title"] == "Tide Station" and deck["cards"] == [["AH", "salvation", "The tide turns."]]


def test_a_chat_line_naming_the_secret_or_markup_is_sent_as_text_and_reads_nothing(hall, monkeypatch):
    """The table's message box, as an attacker on the box fills it: the secret's path, ../ and markup
    go out as the words typed (shown as text), nothing is read, and the seed never shows."""
    from dicehall.tui.screens.dialogs import AskScreen

    as_player(monkeypatch, "ann")
    ann = hall.host("towers", ["player", "open"], "")
    secret = (hall.secrets / ann.id).read_text().strip()
    attack = f"{hall.secrets / ann.id} ../../secrets/{ann.id} [@click=app.quit] [/bold]"
    app = DicehallApp(hall_game=ann)

    async def steps(pilot):
        await pilot.press("m")
        await until(pilot, lambda: isinstance(pilot.app.screen, AskScreen))
        # put in the box whole, as tests/test_box_attacker.py fills every box (a key each was 100-odd keys)
        pilot.app.screen.query_one("Input").value = attack
        await pilot.press("enter")
        await until(pilot, lambda: status(pilot.app).startswith("sent: "))
        sent = status(pilot.app)
        await pilot.press("M")
        await pilot.pause()
        return sent, screen_text(pilot.app), pilot.app.is_running

    sent, listing, running = run(app, steps)
    assert sent == f"sent: {attack}"[:len(sent)] and running  # [@click=app.quit] did not quit
    assert secret not in listing and secret not in sent
    assert "[@click=app.quit]" in listing
    ann.close()


def test_a_keys_name_taken_by_another_unix_user_is_shown_with_that_user(hall, monkeypatch):
    """A member with a shell of their own runs dicehall --player alice: the seat is marked a key's,
    but not taken by the box's account, so nobody sees it as alice's key."""
    import dicehall.saves.hall.game as game_module

    finished_towers(hall, monkeypatch, ("alice", ""), ("bob", ""))  # the real alice, on the box
    as_player(monkeypatch, "alice")
    with monkeypatch.context() as mallory:
        mallory.setattr(game_module.os, "getuid", lambda: 4321)  # mallory's own account
        forged = hall.host("towers", ["player", "open"], "")
    assert [view.name for view in forged.seats()][0] == "alice@uid 4321"
    forged.close()
    mallory = hall.open(forged.id)
    assert mallory.fold.seats[0].keyed  # the record says a key's: the reader does not take its word
    assert [entry.seats[0].name for entry in hall.listing() if entry.id == forged.id] == ["alice@uid 4321"]


def test_a_members_copy_of_a_finished_game_never_takes_its_credit(hall, monkeypatch, capsys):
    """A copy of alice's won game, put under a lower id by another Unix user: the game is listed and
    credited as the log its own players own, the copy counted as a copy."""
    import os

    finished_towers(hall, monkeypatch, ("alice", ""), ("bob", ""))
    [real] = [path for path in hall.games.glob("*.dhh")]
    copy = hall.games / "000000.dhh"
    copy.write_bytes(real.read_bytes())
    os.chown(copy, 4321, -1)
    as_player(monkeypatch, "carol")
    entries = [entry for entry in hall.listing() if not entry.problem]
    assert [entry.id for entry in entries] == [real.stem] and entries[0].copies == 1
    found = hall_scores(hall)
    assert found.counted == 1 and found.copies == 1


def test_a_key_barred_while_its_player_is_in_cannot_host_or_join(hall, monkeypatch, tmp_path):
    as_player(monkeypatch, "eve")
    game = hall.host("towers", ["player", "open"], "")
    game.close()
    admin_settings(hall.folder, f'barred = ["{FINGERPRINT}"]\n')
    auth = tmp_path / "auth-info"
    auth.write_text(f"publickey {KEY}\n")
    monkeypatch.setenv("SSH_USER_AUTH", str(auth))
    with pytest.raises(HallError, match="barred the key you logged in with"):
        hall.host("towers", ["player", "open"], "")
    with pytest.raises(HallError, match="barred the key you logged in with"):
        hall.join(game.id)


def test_a_match_tag_without_keyed_leaves_a_kept_seat_to_the_name_alone():
    """A match game's tag names whether each kept name is a key's; one hosted before that (no `keyed`)
    keeps its seat for the name alone, as it did, so its player (a key's name now) still takes it."""
    from types import SimpleNamespace

    from dicehall.saves.hall.seats import kept_keyed
    from dicehall.saves.hall.game import HallGame

    assert kept_keyed({"match": {"kept": ["ann", "bob"]}}, 1) is None
    assert kept_keyed({"match": {"kept": ["ann", "bob"], "keyed": [True, False]}}, 0) is True
    assert kept_keyed({"match": {"kept": ["ann", "bob"], "keyed": [True, "yes"]}}, 1) is None  # not a bool: unsaid

    def takes(kept_keyed_for_bob, keyed):
        game = SimpleNamespace(fold=SimpleNamespace(kept=("ann", "bob"), kept_keyed=(None, kept_keyed_for_bob)))
        return HallGame._kept_for_us(game, 1, "bob", keyed)

    assert takes(None, True) and takes(None, False)  # an older tag: the name alone, either way
    assert takes(True, True) and not takes(True, False) and takes(False, False) and not takes(False, True)
