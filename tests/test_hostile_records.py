"""Records and replays read the way an attacker or an unlucky machine would write them (issue #11):
values nested hundreds deep, wrongly typed event fields in every game, inflated lists, every field
under the file digest, True as a die face; and one event numbering everywhere (issue #10)."""
import random
import struct
import sys
import typing
import unicodedata
import zlib

import msgpack
import pytest

from dicehall import engine
from dicehall import replays
from dicehall import saves
from dicehall.engine.codec import MAX_NESTING, DecodeError, check_nesting, decode_event, field_types
from dicehall.engine.games.dicetower import PullBlock
from dicehall.engine.text import clean_text
from tests.apphelpers import drive, screen_text
from dicehall.cli import main

PLAYERS = {"dicetower": ["Ada"], "troll": ["Ada"], "wager": ["Ada", "Bo"], "towers": ["Ada", "Bo"], "bones": ["Ada", "Bo"]}
GAMES = sorted(PLAYERS)
MARKER = "nested-value-goes-here"


def random_game(session, seed=1):
    """Random legal commands until the game ends (every game here ends well within 400 moves)."""
    rng = random.Random(seed)
    for _ in range(400):
        if session.outcome is not None:
            return session
        session.play(rng.choice(session.commands()))
    raise AssertionError("the game did not end")


def finished(game, seed=1, **options):
    return random_game(engine.new_session(game, seed=seed, options=options, players=PLAYERS[game]), seed)


def nested(depth):
    """msgpack bytes of [[[...1...]]], `depth` lists deep (msgpack's own packer stops at 512)."""
    return b"\x91" * depth + b"\x01"


def packed_with_nesting(document, depth=600):
    """The document's bytes with the MARKER string replaced by a value nested `depth` deep."""
    data = msgpack.packb(document, use_bin_type=True)
    assert data.count(msgpack.packb(MARKER)) == 1
    return data.replace(msgpack.packb(MARKER), nested(depth))


def write(tmp_path, data, name="r.dhr"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else msgpack.packb(data, use_bin_type=True))
    return path


def one_line(message):
    return message and "\n" not in message and len(message) < 300


# ----- deep nesting -----

def test_nesting_is_measured_without_recursion_and_capped_far_above_genuine_files():
    check_nesting(msgpack.unpackb(nested(MAX_NESTING)))
    for depth in (MAX_NESTING + 1, 600, 1000):
        with pytest.raises(DecodeError, match=f"nested more than {MAX_NESTING} levels deep"):
            check_nesting(msgpack.unpackb(nested(depth)))
    for game in GAMES:  # every genuine replay stays far below the cap
        check_nesting(replays.replay_document(finished(game)), limit=MAX_NESTING // 4)


def test_text_cleaning_of_a_deeply_nested_value_does_not_recurse():
    value = 1
    for _ in range(5000):
        value = [value]
    assert clean_text(value) == "[[[[...]]]]"


def test_text_cleaning_keeps_a_printable_text_as_the_character_rule_does():
    """A printable text (the fast path) is cleaned as the character-by-character rule cleans it: every
    printable code point is kept by it, and a text with one unprintable character still loses it."""
    printable = [chr(point) for point in range(sys.maxunicode + 1) if chr(point).isprintable()]
    assert not [ch for ch in printable if unicodedata.category(ch).startswith("C") or ch in "\t\n\r"]
    assert clean_text("  a\u00a0 tale  of\tthe  tower ", 12) == "a tale of th"  # no-break space: the character rule
    assert clean_text("  a tale  of the  tower ", 12) == "a tale of th"
    assert clean_text("x" * 200 + "\x1b[31m", 300) == "x" * 200 + "[31m"
    assert clean_text("\u202eevil\u200b", 10) == "evil"


def nested_replays(session):
    """A replay with a value 600 deep in each place a file can put one."""
    doc = replays.replay_document(session)
    name, fields = doc["events"][0]
    first_field = next(iter(fields))
    return {
        "first event's field": dict(doc, events=[[name, dict(fields, **{first_field: MARKER})]] + doc["events"][1:]),
        "name": dict(doc, name=MARKER),
        "a player's name": dict(doc, players=[[MARKER, False, ""]]),
        "an option": dict(doc, options=dict(doc["options"], start=MARKER)),
        "a turn mark": dict(doc, marks=[[0, MARKER]] + doc["marks"][1:]),
        "the format": dict(doc, format=MARKER),
    }


@pytest.mark.parametrize("where", ["first event's field", "name", "a player's name", "an option", "a turn mark", "the format"])
def test_a_replay_nested_600_deep_is_refused_in_one_line(tmp_path, capsys, where):
    session = finished("dicetower", seed=7)
    doc = replays.seal(nested_replays(session)[where])  # the digest is over MARKER: nesting is caught first
    path = write(tmp_path, packed_with_nesting(doc))
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(path)
    assert str(caught.value) == f"not a dicehall replay (lists nested more than {MAX_NESTING} levels deep)"
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1 and main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 2 and "Traceback" not in out.err


def raw_frame(payload):
    return struct.pack(">II", len(payload), zlib.crc32(payload)) + payload


@pytest.mark.parametrize("record", [
    {"op": "play", "by": 0, "events": [["BlockPulled", {"remove": MARKER}]]},
    {"op": MARKER},
    {"op": "dice", "events": MARKER},
])
def test_a_save_record_nested_600_deep_is_damage_and_the_good_part_recovers(capsys, record):
    session = saves.new_save("dicetower", name="deep", seed=7)
    for _ in range(3):
        session.play(PullBlock())
    saves.close_save(session)
    path = session.journal.path
    good_size = path.stat().st_size
    with open(path, "ab") as handle:  # a whole record: its length and CRC are right
        handle.write(raw_frame(msgpack.packb(record).replace(msgpack.packb(MARKER), nested(600))))
    with pytest.raises(saves.SaveDamaged) as caught:
        saves.open_save(session.labels.save_id)
    assert one_line(str(caught.value)) and f"record 4 at byte {good_size}: not readable" in str(caught.value)
    [info] = saves.list_saves()
    assert info.problem and "record 4" in info.problem
    assert main(["continue", session.labels.save_id]) == 1
    assert "Traceback" not in capsys.readouterr().err
    recovered = saves.open_save(saves.recover_save(session.labels.save_id))
    assert recovered.events == session.events
    saves.close_save(recovered)


# ----- wrongly typed fields, every game -----

def sample(hint):
    """A value of the declared type, to fill the fields a test does not break."""
    if hint in (int, bool, str, type(None)):
        return {int: 1, bool: False, str: "x", type(None): None}[hint]
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple:
        return [] if args[-1] is Ellipsis else [sample(a) for a in args]
    return sample(args[0])


def wrong_values(hint):
    """Values a damaged or hostile file could hold instead of a value of `hint`."""
    if hint is int:
        return ["7", True, None, 1.5, [1]]
    if hint is bool:
        return [1, 0, "yes", None]
    if hint is str:
        return [5, None, ["a"], "x" * 101]
    if typing.get_origin(hint) is tuple:
        return [5, "ab", [None, "a"], [True], {"a": 1}, None]
    return ["x", True, [1], 1.5]  # int | None


EVENT_FIELDS = [(game, cls, field, hint) for game in GAMES for cls in engine.get_game(game).EVENTS.values()
                for field, hint in field_types(cls).items()]


@pytest.mark.parametrize("game, cls, field, hint", EVENT_FIELDS,
                         ids=[f"{game}-{cls.__name__}-{field}" for game, cls, field, _ in EVENT_FIELDS])
def test_every_field_of_every_games_events_is_type_checked(game, cls, field, hint):
    events = engine.get_game(game).EVENTS
    fields = {name: sample(h) for name, h in field_types(cls).items()}
    assert isinstance(decode_event([cls.__name__, fields], events), cls)
    shown = hint.__name__ if isinstance(hint, type) else repr(hint).replace("NoneType", "None")
    for wrong in wrong_values(hint):
        with pytest.raises(DecodeError) as caught:
            decode_event([cls.__name__, dict(fields, **{field: wrong})], events)
        assert str(caught.value) == f"{cls.__name__}: field {field} is not {shown}"


def test_an_annotation_the_decoder_cannot_check_fails_loudly():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Odd:
        when: float

    with pytest.raises(TypeError, match="Odd.when: the event decoder cannot check"):
        field_types(Odd)


def first_event_with_a_number(events):
    """The index and field of the first event that has a whole-number or list field."""
    for index, (name, fields) in enumerate(events):
        for field, value in fields.items():
            if isinstance(value, (int, list)) and not isinstance(value, bool):
                return index, name, field
    raise AssertionError("no event with a number")


@pytest.mark.parametrize("game", GAMES)
def test_a_wrongly_typed_field_in_a_replay_is_named_in_one_line(tmp_path, game):
    doc = replays.replay_document(finished(game))
    index, name, field = first_event_with_a_number(doc["events"])
    events = list(doc["events"])
    events[index] = [name, dict(events[index][1], **{field: "5"})]
    path = write(tmp_path, replays.seal(dict(doc, events=events)))
    with pytest.raises(replays.ReplayError) as caught:
        replays.verify(path)
    assert str(caught.value).startswith(f"event {index + 1}: {name}: field {field} is not ")


def rewrite_records(path, change):
    """Rewrite a save with `change(records)` applied, every frame's length and CRC valid."""
    parsed = saves.parse_save(path.read_bytes(), "x")
    records = [msgpack.unpackb(msgpack.packb(r)) for r in parsed.records]  # thawed to lists and dicts
    change(records)
    path.write_bytes(saves.MAGIC + saves.frame(parsed.header) + b"".join(saves.frame(r) for r in records))


def bones_save():
    session = saves.new_save("bones", name="bones night", seed=1, players=PLAYERS["bones"])
    random_game(session)
    saves.close_save(session)
    return session


def replace_field(records, event_name, **changes):
    for number, record in enumerate(records, start=1):
        for event in record.get("events", ()):
            if event[0] == event_name:
                event[1].update(changes)
                return number
    raise AssertionError(f"no {event_name} in the save")


BONES_CASES = [("AttackDeclared", {"attacks": 5}, "attacks is not tuple[tuple[int, int], ...]"),
               ("DefenceAssigned", {"dice": 5}, "dice is not tuple[int, ...]"),
               ("DefenceAssigned", {"dice": [None, "a"]}, "dice is not tuple[int, ...]")]


@pytest.mark.parametrize("event_name, changes, expected", BONES_CASES)
def test_war_of_bones_records_of_the_wrong_type_are_damage_not_a_traceback(tmp_path, capsys, event_name, changes, expected):
    keep = saves.new_save("dicetower", name="a good save", seed=2)
    keep.play(PullBlock())
    saves.close_save(keep)
    session = bones_save()
    record = []
    rewrite_records(session.journal.path, lambda records: record.append(replace_field(records, event_name, **changes)))
    with pytest.raises(saves.SaveDamaged) as caught:
        saves.open_save(session.labels.save_id)
    assert one_line(str(caught.value)) and f"record {record[0]}: {event_name}: field {expected}" in str(caught.value)
    listed = {info.id: info for info in saves.list_saves()}  # one bad save leaves every other reachable
    assert listed[session.labels.save_id].problem and listed[keep.labels.save_id].problem is None
    capsys.readouterr()
    assert main(["saves"]) == 0 and "a good save" in capsys.readouterr().out
    recovered = saves.open_save(saves.recover_save(session.labels.save_id))
    assert len(recovered.events) < len(session.events)
    saves.close_save(recovered)
    # the same change in a replay
    doc = replays.replay_document(session)
    events = [[name, dict(fields)] for name, fields in doc["events"]]
    index = next(i for i, (name, _) in enumerate(events) if name == event_name)
    events[index][1].update(changes)
    path = write(tmp_path, replays.seal(dict(doc, events=events)))
    assert main(["verify", str(path)]) == 1
    assert f"event {index + 1}: {event_name}: field {expected}" in capsys.readouterr().err


# ----- True is not a die face -----

def test_true_as_a_face_is_refused_everywhere_faces_are_read(tmp_path):
    session = finished("dicetower", seed=7)
    doc = replays.replay_document(session)
    index = next(i for i, (name, f) in enumerate(doc["events"]) if name == "DiceRolled" and 1 in f["faces"])
    for typed in (False, True):  # the seed's own 1, and a typed 1
        events = list(doc["events"])
        faces = [True if face == 1 else face for face in events[index][1]["faces"]]
        events[index] = ["DiceRolled", dict(events[index][1], faces=faces, typed=typed)]
        with pytest.raises(replays.ReplayError, match=rf"^event {index + 1}: DiceRolled: field faces is not tuple\[int, int\]$"):
            replays.verify(write(tmp_path, replays.seal(dict(doc, events=events))))
    wager = replays.replay_document(finished("wager"))
    index = next(i for i, (name, _) in enumerate(wager["events"]) if name == "DieRolled")
    events = list(wager["events"])
    events[index] = ["DieRolled", dict(events[index][1], face=True, typed=True)]
    with pytest.raises(replays.ReplayError, match=rf"^event {index + 1}: DieRolled: field face is not int$"):
        replays.verify(write(tmp_path, replays.seal(dict(wager, events=events))))
    live = engine.new_session("dicetower", seed=1)
    with pytest.raises(engine.IllegalCommand, match="True is not a die face"):
        live.play(PullBlock(), faces=[True, 2])
    with pytest.raises(engine.IllegalCommand, match="True is not a die face"):
        engine.new_session("dicetower", seed=1, dice=[True, 2])


# ----- inflated lists cost no more than the game -----

def count_calls(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_repeated_final_digest_is_refused_before_any_copy_is_computed(tmp_path, monkeypatch):
    session = finished("troll", seed=5, difficulty="tutorial")
    doc = replays.replay_document(session)
    doc["digests"] = doc["digests"] + [doc["digests"][-1]] * 50_000
    digests = count_calls(monkeypatch, engine, "digest")
    with pytest.raises(replays.ReplayError, match=r"^the state digests are out of order \(position \d+ after \d+\)$"):
        replays.verify(write(tmp_path, replays.seal(doc)))
    assert digests == []


def test_a_digest_at_every_position_costs_one_digest_a_position(tmp_path, monkeypatch):
    session = finished("troll", seed=5, difficulty="tutorial")
    doc = replays.replay_document(session)
    doc["digests"] = [[n, engine.digest(session.state_at(n))] for n in range(len(session.events) + 1)]
    digests = count_calls(monkeypatch, engine, "digest")
    assert replays.verify(write(tmp_path, replays.seal(doc))).startswith("ok: ")
    assert len(digests) == len(session.events) + 1


@pytest.mark.parametrize("marks, expected", [
    (lambda m: m + [m[-1]] * 1000, "the turn marks are out of order"),
    (lambda m: [m[1], m[0]] + m[2:], "the turn marks are out of order"),
    (lambda m: m + [[10**9, 0]], "a turn mark names position 1000000000, past the end"),
    (lambda m: [[m[0][0], True]] + m[1:], "a turn mark is not readable"),
])
def test_turn_marks_name_strictly_increasing_positions(tmp_path, marks, expected):
    doc = replays.replay_document(finished("towers"))
    with pytest.raises(replays.ReplayError, match=f"^{expected}"):
        replays.verify(write(tmp_path, replays.seal(dict(doc, marks=marks(doc["marks"])))))


def test_events_past_the_end_of_the_game_are_not_even_decoded(tmp_path, monkeypatch):
    session = finished("dicetower", seed=7)
    doc = replays.replay_document(session)
    junk = [["BlockPulled", {"remove": False}]] * 50_000
    doc = dict(doc, events=doc["events"] + junk, marks=doc["marks"] + [[len(doc["events"]), 0]])
    decoded = count_calls(monkeypatch, replays, "decode_event")
    with pytest.raises(replays.ReplayError, match=f"^event {len(session.events) + 1}: a move where none can be made$"):
        replays.verify(write(tmp_path, replays.seal(doc)))
    assert len(decoded) <= len(session.events) + 1


# ----- every field under the file digest -----

HEADER_CHANGES = {
    "format": 2, "dicehall": "0.0.9", "game": "wager", "rules": 0, "seed": 8, "options": {"start": 99, "advantage_from": 51},
    "players": [["Eve", False, ""]], "name": "forged", "result": None, "undos": 0, "created": "2001-01-01T00:00:00+00:00",
}


@pytest.mark.parametrize("field", sorted(HEADER_CHANGES))
def test_every_header_field_changed_is_detected(tmp_path, field):
    session = finished("dicetower", seed=7)
    session.undos = 3
    doc = replays.replay_document(session)
    assert field in doc and doc[field] != HEADER_CHANGES[field]
    with pytest.raises(replays.ReplayError, match="^damaged or changed: it does not match its file digest$"):
        replays.verify(write(tmp_path, dict(doc, **{field: HEADER_CHANGES[field]})))


def test_a_bit_flipped_anywhere_in_a_replay_is_detected(tmp_path):
    session = engine.new_session("dicetower", seed=5, options={"start": 30}, players=["Ada"])
    session.play(PullBlock())
    session.play(PullBlock(), faces=[4, 1])  # typed dice: any faces would fit the rules
    while session.outcome is None:
        session.play(PullBlock())
    data = msgpack.packb(replays.replay_document(session), use_bin_type=True)
    path = tmp_path / "r.dhr"
    for offset in range(len(data)):
        flipped = bytearray(data)
        flipped[offset] ^= 1 << (offset % 8)  # every byte, each bit position in turn
        path.write_bytes(flipped)
        with pytest.raises(replays.ReplayError):
            replays.verify(path)


def test_verify_says_which_fields_are_only_claims(tmp_path):
    session = finished("dicetower", seed=7)
    lines = replays.verify(replays.write_replay(session, tmp_path / "g.dhr")).splitlines()
    assert lines[0].startswith("ok: Dice Tower, seed 7, Ada")
    assert lines[1] == ("header intact (the file matches its digest); only claimed, no replay can prove them: "
                        "the name, the players' names, the assists and the undo count, when it was made and by which dicehall")


FORMAT_2 = __import__("pathlib").Path(__file__).parent / "fixtures" / "format2-dicetower.dhr"


def test_a_format_2_replay_is_upcast_and_says_its_header_is_unchecked():
    assert msgpack.unpackb(FORMAT_2.read_bytes())["format"] == 2
    lines = replays.verify(FORMAT_2).splitlines()
    assert lines[0] == ("ok: Dice Tower, seed 21, Bea, 12 events, 1 digest checked, 1 undo, the tower fell on pull 6, "
                        "1 typed dice outcome (not from the seed)")
    assert lines[1].startswith("header not checked (a format 2 replay has no file digest); only claimed")
    assert replays.UPCASTS[2]({"format": 2, "name": "x"}) == {"format": 3, "name": "x", "file_digest": None}


def test_a_format_3_replay_cannot_pass_as_format_2(tmp_path):
    doc = replays.replay_document(finished("dicetower", seed=7))
    with pytest.raises(replays.ReplayError, match="^damaged or changed: it does not match its file digest$"):
        replays.verify(write(tmp_path, dict(doc, format=2)))
    with pytest.raises(replays.ReplayError, match="^the file digest is missing$"):
        replays.verify(write(tmp_path, dict(doc, file_digest=None)))


# ----- one event numbering: verify, the viewer and every message -----

def test_verify_names_the_changed_event_as_the_viewer_numbers_it(tmp_path):
    session = finished("troll", seed=5, difficulty="tutorial")
    doc = replays.replay_document(session)
    index = next(i for i, (name, _) in enumerate(doc["events"]) if name == "AwakeningRolled" and i >= 60)
    events = list(doc["events"])
    events[index] = ["AwakeningRolled", dict(events[index][1], face=events[index][1]["face"] % 6 + 1)]
    with pytest.raises(replays.ReplayError, match=f"^event {index + 1}: "):
        replays.verify(write(tmp_path, replays.seal(dict(doc, events=events))))

    async def steps(pilot):  # in the viewer, `g` and that number highlight the same event
        await pilot.press("g", *str(index + 1), "enter")
        return screen_text(pilot.app)

    from dicehall.tui.app import DicehallApp

    text = drive(DicehallApp(replay=replays.read_replay(replays.write_replay(session, tmp_path / "g.dhr"))), steps)
    assert f"event {index + 1}/{len(session.events)}" in text
    highlighted = next(line.strip() for line in text.splitlines() if line.strip().startswith(">"))
    assert highlighted.startswith(f">{index + 1:>4} ") and "rolled" in highlighted  # the changed die's event


def typed_game():
    session = engine.new_session("dicetower", seed=5, options={"start": 30}, players=["Ada"])
    session.play(PullBlock())
    session.play(PullBlock(), faces=[4, 1])  # a genuine typed pull before the changed one
    while session.outcome is None:
        session.play(PullBlock())
    return session


def test_a_seeded_die_re_marked_as_typed_is_blamed_not_the_next_one(tmp_path):
    doc = replays.replay_document(typed_game())
    seeded = [i for i, (name, f) in enumerate(doc["events"]) if name == "DiceRolled" and not f["typed"]]
    index = seeded[2]
    assert index + 1 < len(doc["events"]) and seeded[3] > index  # a seeded pull follows it
    events = list(doc["events"])
    events[index] = ["DiceRolled", dict(events[index][1], typed=True)]
    with pytest.raises(replays.ReplayError,
                       match=f"^event {index + 1}: marked as typed, but these are the seed's own dice \\(the mark was changed\\)$"):
        replays.verify(write(tmp_path, replays.seal(dict(doc, events=events))))


def test_changed_seeded_dice_after_a_genuine_typed_pull_are_still_blamed_where_they_are(tmp_path):
    doc = replays.replay_document(typed_game())
    index = [i for i, (name, f) in enumerate(doc["events"]) if name == "DiceRolled" and not f["typed"]][3]
    events = list(doc["events"])
    a, b = events[index][1]["faces"]
    events[index] = ["DiceRolled", dict(events[index][1], faces=[a % 6 + 1, b])]
    with pytest.raises(replays.ReplayError, match=f"^event {index + 1}: the dice do not match the seed$"):
        replays.verify(write(tmp_path, replays.seal(dict(doc, events=events))))


def test_only_dice_can_be_typed_a_shuffle_cannot(tmp_path):
    doc = replays.replay_document(finished("troll", seed=5, difficulty="tutorial"))
    assert doc["events"][0][0] == "DeckShuffled"
    events = list(doc["events"])
    events[0] = ["DeckShuffled", dict(events[0][1], typed=True)]
    with pytest.raises(replays.ReplayError, match="^event 1: marked as typed, but only dice can be typed$"):
        replays.verify(write(tmp_path, replays.seal(dict(doc, events=events))))
