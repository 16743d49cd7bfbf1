"""The journal's decks: each format, a dc-solo-rpg deck, the sample deck, and 100 hostile deck files,
each refused in one line naming the file, the line and the field (or loaded with its text cleaned)."""
from __future__ import annotations

import pytest

from dicehall import engine
from dicehall.engine.games import journal
from dicehall.engine.games.journal import DeckError, load_deck, parse_deck
from dicehall.engine.games.journal.caps import MAX_INTRO, MAX_TITLE
from dicehall.engine.games.journal.deck import MAX_FILE, MAX_PROMPT, deck_from_record

# a deck as dc-solo-rpg writes it: its column spelling `suite`, its actions, symbols for suits
DC_SOLO_RPG = """card,suite,action,description
A,hearts,primary-success,"The signal: someone is listening, if you can keep the line open."
K,spades,failure-token,The hull groans; a seal fails.
K,hearts,failure-token,You stop counting the days.
7,\u2663,failure-check,"Something knocks, twice. Pull."
2,diamonds,,A quiet watch.
10,clubs,no-pull,You sleep without dreams.
"""

TOML_DECK = """
[game]
title = "Tide Station"
author = "A. Writer"
licence = "CC BY 4.0"
intro = \"\"\"First paragraph.

Second paragraph.\"\"\"
tokens = 3
kings = 2
final_check = "pull"
deck_out = "reshuffle"
deck = "listed"
tower_start = 40

[[card]]
card = "A"
suit = "hearts"
prompt = "Salvation."

[[card]]
card = "KS"
action = "king"
prompt = "A King."

[[card]]
card = "10"
suit = "\u2666"
action = "remove"
description = "Pull and remove."
"""


def test_a_dc_solo_rpg_csv_deck_loads_with_its_spelling_and_actions(tmp_path):
    path = tmp_path / "wretched-like.csv"
    path.write_text(DC_SOLO_RPG)
    deck = load_deck(path)
    assert deck.title == "wretched-like"
    assert deck.action("AH") == "salvation" and deck.prompt("AH").startswith("The signal")
    assert deck.action("KS") == "king" and deck.action("7C") == "pull" and deck.action("10C") == "no-pull"
    assert deck.action("2D") == "no-pull" and deck.prompt("2D") == "A quiet watch."  # blank action: the rank's rule
    assert deck.prompt("5S") == "" and deck.action("5S") == "pull"  # left out: no prompt, only its rule
    assert len(deck.cards) == 52


def test_dc_solo_rpgs_empty_action_is_no_effect_as_a_blank_one():
    deck = parse_deck(b"card,suite,action,description\n5,hearts,empty,Nothing\n7,clubs, Empty ,Still nothing\n"
                      b"K,spades,empty,A King all the same\n3,spades,,Blank\n", "evens.csv")
    assert deck.action("5H") == deck.action("7C") == deck.action("3S") == "no-pull"  # a 5 or 7 would pull
    assert deck.prompt("5H") == "Nothing" and deck.action("KS") == "king"  # a King is a King, as with a blank
    assert deck.action("5S") == "pull"  # left out: its rank's rule


def test_a_csv_deck_with_suit_and_prompt_columns_in_another_order():
    deck = parse_deck(b"description,suit,card,action\nA note,spades,Q,pull\n", "mine.csv")
    assert deck.prompt("QS") == "A note" and deck.action("QS") == "pull"


def test_a_toml_deck_with_its_game_table_and_settings():
    deck = parse_deck(TOML_DECK.encode(), "tide.toml")
    assert (deck.title, deck.author, deck.licence) == ("Tide Station", "A. Writer", "CC BY 4.0")
    assert deck.intro == "First paragraph.\n\nSecond paragraph."
    assert deck.settings == {"tokens": 3, "kings": 2, "tower_start": 40, "final_check": "pull",
                             "deck_out": "reshuffle", "deck": "listed", "reshuffles": 3}
    assert deck.cards == ("10D", "AH", "KS") or set(deck.cards) == {"AH", "KS", "10D"}
    assert deck.action("10D") == "remove" and deck.prompt("10D") == "Pull and remove."


def test_the_sample_deck_is_original_complete_and_licensed():
    deck = journal.sample_deck()
    assert deck.title == "The Last Watch at Harrow Pass"
    assert len(deck.prompts) == 52 and all(deck.prompt(card) for card in journal.FULL_DECK)
    assert len({deck.prompt(card) for card in journal.FULL_DECK}) == 52
    assert "CC BY 4.0" in deck.licence and "Chris Bissette" in deck.licence


def test_the_deck_travels_in_the_options_so_a_save_needs_no_file(tmp_path):
    path = tmp_path / "tide.toml"
    path.write_text(TOML_DECK)
    options = journal.check_options({"deck": load_deck(path).record()})
    path.unlink()
    session = engine.new_session("journal", seed=1, options=options)
    assert session.state.deck.title == "Tide Station" and session.state.deck.prompt("KS") == "A King."


def test_a_deck_in_a_save_is_checked_like_a_file():
    record = journal.sample_deck().record()
    record["cards"][3] = ["ZZ", "pull", "x"]
    with pytest.raises(DeckError, match="^the deck card 4: card is not a card"):
        journal.check_options({"deck": record})
    with pytest.raises(DeckError, match="tokens is not a whole number from 1 to 20"):
        journal.check_options({"deck": dict(journal.sample_deck().record(), tokens=99)})


# ----- 100 hostile deck files -----

HEADER = "card,suite,action,description\n"


def csv_file(*rows: str, header: str = HEADER) -> bytes:
    return (header + "".join(row + "\n" for row in rows)).encode()


def toml_file(text: str) -> bytes:
    return text.encode()


REFUSED: list[tuple[str, bytes, str]] = []  # (file name, bytes, what the one line must say)
# wrong columns
for header, said in [("card,action,description\n", "line 1: no column suite"), ("card,suite,description\n", "line 1: no column action"),
                     ("suite,action,description\n", "line 1: no column card"), ("card,suite,action\n", "line 1: no column description"),
                     ("card,suite,action,description,colour\n", "line 1, column 5: not a deck's column"),
                     ("card,suite,suit,action,description\n", "line 1: more than one column suite"),
                     ("card;suite;action;description\n", "line 1, column 1: not a deck's column"),
                     ("Card,Suite,Action,Notes\n", "line 1, column 4: not a deck's column"),
                     ("\n\ncard,suit,action\n", "line 3: no column description"),
                     ("rank,suit,action,description\n", "line 1, column 1: not a deck's column")]:
    REFUSED.append(("cols.csv", csv_file("A,hearts,pull,x", header=header), said))
# bad suits
for suit in ["swords", "\u2605", "0", "spadez",
             "[bold]red[/bold]", "\x1b[31mred", "clubs,spades"]:
    quoted = '"' + suit.replace('"', '""') + '"'
    REFUSED.append(("suits.csv", csv_file("A,hearts,,ok", f"3,{quoted},pull,x"), "suits.csv line 3: suit"))
# bad ranks
for rank in ["0", "14", "B", "kings", "\u216b"]:
    REFUSED.append(("ranks.csv", csv_file(f"{rank},spades,pull,x"), "ranks.csv line 2: card"))
# bad actions, and actions on the wrong card
for action in ["draw", "pull twice", "remove-all", "win", "lose", "Pull!", "narrative", "bonus", "yes", "1"]:
    REFUSED.append(("actions.csv", csv_file(f"4,clubs,{action},x"), "actions.csv line 2: action"))
for card in ["QH", "KS", "2H", "AS", "JD"]:
    REFUSED.append(("salvation.csv", csv_file(f"{card[:-1]},{card[-1]},salvation,x"), "action 'salvation' is for the Ace of hearts"))
for card in ["QH", "AH", "2H", "JS", "10D"]:
    REFUSED.append(("kings.csv", csv_file(f"{card[:-1]},{card[-1]},king,x"), "action 'king' is for the Kings"))
# duplicate cards, spelt differently
for first, second in [("A,hearts", "1,\u2665"), ("K,spades", "king,S"), ("10,clubs", "10,club"), ("Q,diamonds", "queen,\u2666"),
                      ("J,hearts", "11,h"), ("2,spades", "2,spades"), ("7,\u2663", "7,clubs"), ("3,d", "3,Diamonds"),
                      ("5,hearts", " 5 , hearts "), ("9,spades", "9,\u2664")]:
    REFUSED.append(("dupes.csv", csv_file(f"{first},,x", "4,clubs,,y", f"{second},,z"), "dupes.csv line 4: card"))
# sizes: 10 MB prompts, a prompt one over the cap, a file over the cap
REFUSED.append(("huge.csv", csv_file("A,hearts,pull," + "x" * 10_000_000), f"larger than {MAX_FILE // 1024} KiB"))
REFUSED.append(("huge.toml", toml_file('[[card]]\ncard = "AS"\nprompt = "' + "y" * 10_000_000 + '"\n'), "larger than"))
REFUSED.append(("many.csv", b"card,suite,action,description\n" + b"A,hearts,pull,x\n" * 20000, "larger than"))
# tables and keys a deck has not, and a CSV field over csv's own limit: refused at their line
REFUSED.append(("tables.toml", toml_file("[game]\ntitle = 'x'\n[game.x]\n"), "tables.toml line 3: a table that is neither"))
REFUSED.append(("cards.toml", toml_file("[card]\ncard = 'AS'\n"), "cards.toml line 1: a table that is neither"))
REFUSED.append(("outside.toml", toml_file("title = 'x'\n[game]\n"), "outside.toml line 1: a key outside"))
REFUSED.append(("field.csv", csv_file("2,hearts,,x", 'A,hearts,pull,"' + "x" * 200_000 + '"'), "field.csv line 3: not readable as CSV"))
EUROS = "\u20ac" * 390  # 1170 bytes of UTF-8 each: 52 of them pass the whole deck's cap
big = "".join(f'[[card]]\ncard = "{card}"\nprompt = "{EUROS}"\n' for card in journal.FULL_DECK)
REFUSED.append(("heavy.toml", toml_file(big), "at most 40000 (a save holds the whole deck)"))
# wrong field counts
for row in ["A,hearts", "A,hearts,pull,x,y", "A", "A,hearts,pull,\"x\",extra", "7,hearts,pull,x,"]:
    REFUSED.append(("fields.csv", csv_file(row), "fields.csv line 2:"))
# not text
REFUSED.append(("latin.csv", HEADER.encode() + b"A,hearts,pull,caf\xe9\n", "not UTF-8 text (byte 48)"))
REFUSED.append(("bin.csv", b"PNG\r\n\x1a\n\x00\x00", "binary data"))
REFUSED.append(("nul.toml", b"[game]\ntitle = \"a\x00b\"\n", "binary data"))
REFUSED.append(("utf16.csv", HEADER.encode("utf-16"), "not UTF-8 text"))
REFUSED.append(("empty.csv", b"", "no header"))
# TOML: syntax, unknown keys, wrong types, bad settings
for text, said in [
    ("[game\ntitle = 'x'\n", "not TOML"), ("title = \n", "line 1: a key outside [game] and [[card]]"), ("[[card]]\ncard = 'A' suit = 'H'\n", "not TOML"),
    ("[game]\ntitle = 'a'\ntitle = 'b'\n", "not TOML"), ("[[card]\n", "not TOML"),
    ("[game]\ncolour = 'red'\n", "line 1: a key in [game] that is none of"), ("[deck]\n", "a table that is neither [game] nor [[card]]"),
    ("[[card]]\ncard = 'AS'\nflavour = 'x'\n", "line 1 (card 1): a key that is none of card"), ("[[card]]\nsuit = 'hearts'\n", "(card 1): no card"),
    ("prompt = 'x'\n", "line 1: a key outside [game] and [[card]]"),
    ("[game]\ntitle = 5\n", "title is not text"), ("[game]\ntokens = 'ten'\n", "tokens is not a whole number from 1 to 20"),
    ("[[card]]\ncard = 7\nsuit = 'hearts'\n", "card is not text"), ("[[card]]\ncard = 'AS'\nprompt = ['a']\n", "description is not text"),
    ("game = 5\n", "[game] is not a table"),
    ("[game]\ntokens = 0\n", "line 1: tokens is not"), ("[game]\nkings = 5\n", "kings is not a whole number from 1 to 4"),
    ("[game]\nfinal_check = 'roll'\n", "final_check is not one of none, pull"),
    ("[game]\ndeck_out = 'shuffle'\n", "deck_out is not one of end, reshuffle"),
    ("[game]\ndeck = 'listed'\n", "deck = 'listed' but the file lists no card"),
]:
    REFUSED.append(("bad.toml", toml_file(text), said))

# loaded, with every text cleaned: control characters, escapes and markup are data, never rendered
CLEANED = [
    ("A,hearts,pull,\"\x1b[31mred\x1b[0m alert\"", "AH", "[31mred[0m alert"),
    ("2,hearts,,\"[bold]loud[/bold]\"", "2H", "[bold]loud[/bold]"),
    ("3,hearts,,\"[@click=app.quit]Quit[/]\"", "3H", "[@click=app.quit]Quit[/]"),
    ("4,hearts,,\"bell\x07 and back\x08space\"", "4H", "bell and backspace"),
    ("5,hearts,,\"right\u202eto left\"", "5H", "rightto left"),
    ("6,hearts,,\"two\r\nlines\"", "6H", "two\nlines"),  # a prompt's line breaks are kept
    ("7,hearts,,\"tab\there\"", "7H", "tab here"),
    ("8,hearts,,\"zero\u200bwidth\"", "8H", "zerowidth"),
    ("9,hearts,,\"\x9b2Jcsi\"", "9H", "2Jcsi"),
    ("10,hearts,,\"<script>alert(1)</script>\"", "10H", "<script>alert(1)</script>"),
]


def test_there_are_a_hundred_hostile_deck_files():
    assert len(REFUSED) + len(CLEANED) == 100


@pytest.mark.parametrize("name, data, said", REFUSED, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(REFUSED)])
def test_a_hostile_deck_file_is_refused_in_one_line_naming_file_line_and_field(tmp_path, name, data, said):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300 and message.isprintable(), message
    assert message.startswith(name), message
    assert said in message, message


@pytest.mark.parametrize("row, card, shown", CLEANED)
def test_control_characters_and_markup_in_a_deck_are_cleaned_text(tmp_path, row, card, shown):
    path = tmp_path / "odd.csv"
    path.write_bytes(csv_file(row))
    assert load_deck(path).prompt(card) == shown


def test_a_folder_or_a_missing_file_is_one_line(tmp_path):
    (tmp_path / "decks").mkdir()
    with pytest.raises(DeckError, match=r"^decks: a folder, not a deck file \(nor a dc-solo-rpg game folder: no deck.csv in it\)$"):
        load_deck(tmp_path / "decks")
    with pytest.raises(DeckError, match="^gone.csv: cannot be read"):
        load_deck(tmp_path / "gone.csv")


# ----- a file given as a deck that is not one: its text never shows (it may be another's secret) -----

SECRET = "337105376417815935"
NOT_DECKS = [
    ("ID", f"{SECRET}\n"),  # the hall's secrets/ID, typed as a deck
    ("keys", f"ssh-ed25519 AAAA{SECRET} ann@laptop\n"),
    ("cols.csv", f"card,suite,action,{SECRET}\n"),
    ("card.csv", f"card,suite,action,description\n{SECRET},hearts,pull,x\n"),
    ("suit.csv", f"card,suite,action,description\nA,{SECRET},pull,x\n"),
    ("action.csv", f"card,suite,action,description\nA,hearts,{SECRET},x\n"),
    ("key.toml", f"[game]\nk{SECRET} = 1\n"),
    ("table.toml", f"[t{SECRET}]\n"),
    ("cardkey.toml", f"[[card]]\ncard = 'AS'\nk{SECRET} = 1\n"),
    ("setting.toml", f"[game]\nfinal_check = '{SECRET}'\n"),
    ("syntax.toml", f"[game]\ntitle = 'a'\n{SECRET}!\n"),
    ("dupe.toml", f"[game]\nx = {{ k{SECRET} = 1, k{SECRET} = 2 }}\n"),
]


@pytest.mark.parametrize("name, text", NOT_DECKS)
def test_a_refusal_names_the_file_and_line_never_its_text(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert message.startswith(name) and SECRET not in message and SECRET[:6] not in message, message


def test_a_decks_long_texts_are_cut_at_a_word_and_the_deck_plays():
    words = "the wind " * 300
    deck = parse_deck(toml_file(f'[game]\ntitle = "A lighthouse keeper alone on the rock {words}"\nauthor = "{"a" * 200}"\n'
                                f'intro = "{words}"\nlicence = "{words}"\nwon = "{words}"\n'
                                f'[[card]]\ncard = "AS"\nprompt = "{words}"\n'), "long.toml")
    assert deck.title.startswith("A lighthouse keeper alone") and deck.title.endswith("wind...")
    assert len(deck.title) <= MAX_TITLE and deck.author == "a" * (MAX_TITLE - 3) + "..."
    assert len(deck.intro) <= MAX_INTRO and deck.intro.endswith("the...") and deck.won.endswith("wind...")
    assert len(deck.prompt("AS")) <= MAX_PROMPT and deck.prompt("AS").endswith("wind...")
    long_row = parse_deck(csv_file("A,hearts,pull,\"" + "x " * 400 + "\""), "long.csv")
    assert long_row.prompt("AH") == "x " * 197 + "x..."
    engine.new_session("journal", options={"deck": deck.record()}, seed=1)  # it plays


def test_a_prompts_line_breaks_are_kept_from_csv_and_toml_and_old_records_read_as_before():
    from_csv = parse_deck(csv_file('2,hearts,,"line one\nline two\n\n\n\nafter a gap"'), "breaks.csv")
    from_toml = parse_deck(toml_file('[[card]]\ncard = "2H"\nprompt = "line one\\nline two\\n\\n\\n\\nafter a gap"\n'), "breaks.toml")
    assert from_csv.prompt("2H") == from_toml.prompt("2H") == "line one\nline two\n\nafter a gap"
    assert deck_from_record(from_csv.record()).prompt("2H") == "line one\nline two\n\nafter a gap"
    sample = journal.sample_deck().record()
    assert deck_from_record(sample).record() == sample  # a record with no line break reads as it was


def test_a_forged_record_with_a_long_text_is_refused_not_cut():
    record = {**journal.sample_deck().record(), "title": "t" * (MAX_TITLE + 1)}
    with pytest.raises(DeckError, match=f"title is {MAX_TITLE + 1} characters, at most {MAX_TITLE}"):
        deck_from_record(record)
