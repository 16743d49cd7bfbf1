"""The journaling game's rules as dicehall plays them: the SRD's defaults, the deck's settings,
every choice dicehall made where the SRD leaves it to each game, and the SRD's attribution text."""
from __future__ import annotations

RULES_TEXT = """\
JOURNAL - a solo journaling game on the Wretched & Alone rules: a deck of
prompts, the Dice Tower for the block tower, and a journal.

The prompts come from a deck file (CSV, TOML, or dc-solo-rpg's game file
NAME.game.md or game folder) or from the sample deck written for
dicehall, "The Last Watch at Harrow Pass". dicehall ships the rules,
never The Wretched's own prompts. The journal's title is the game's name:
a TOML deck's or a game file's title, or the name the player gives when
the game starts (a CSV deck has only its file's name).

A day: press n to start it; a die says how many cards to draw. Draw each
card (d; or c to type the card you drew from a real deck: one already
drawn is refused). Read its prompt. If its action says pull, pull from the
tower (p; r where it says pull and remove): the Dice Tower's rules, with
its countdown, its dice and its exact odds. Then write the entry for the
card: w or Enter opens the box (until then every key is a command;
from then on every key is text, however fast they come, until Escape
leaves the box), ctrl+s saves the entry; or skip it (s). The words in
the box are kept in the save as you type (leaving, a dropped link, an
undo lose none of them) and are back in the box on continue.
A prompt too long for the panel ends in "..."; o shows it whole.
a shows the deck: which cards do what, and its settings.

The Kings are kept face up. The fourth King ends the game at once (no
pull for it). The Ace of Hearts is salvation: it starts a countdown of 10
tokens. At the end of each day after that, roll a die (n): a 6 removes a
token. Removing the last token ends the game in your favour. The tower
falling ends the game. Every ending leaves one last entry to write.

Undo (u) takes back the last entry, draw, pull or roll; drawing again
gives the same card and the same dice (they come from the game's seed).
An entry taken back puts its words back in the box, as its draft.
e rewrites an earlier entry: the new words are a new event that amends
it, and the old ones stay in the log (the cursor starts after them).
Escape keeps a rewrite for later: e on that entry opens it again.
t types physical dice. The bookshelf (the last line of a new journal's
setup) lists the finished journals; Enter reads one. Entries are
text: at most 1000 characters each, control characters removed.

A card's action (the deck's `action` column or key):
- pull; remove (pull and remove); no-pull; king (Kings only); salvation
  (the Ace of Hearts only).
- salvation-5: from this card on, a 5 or 6 on the salvation die removes
  a token (dc-solo-rpg's success-bonus, as its rules play it: its other
  Aces). salvation-4: a 4 or more removes one ("a 4 or more removes a
  token"). The threshold only ever goes down; the die still needs the
  Ace of Hearts out.
- skip-pull: the next card that says pull (or pull and remove) pulls
  nothing (dc-solo-rpg's skip-damage, "skip the next pull").
- return-king: the last King face up goes back into the deck and may
  come up again (dc-solo-rpg's return-king, "shuffle a King back"); with
  no King up it does nothing.
- remove-token, add-token: a token fewer or more at once, once the Ace
  of Hearts is out (before, nothing). The last token removed so wins as
  the die does: after the final pull where the deck asks for one, and
  after the card's entry.
A King keeps to king, pull, remove or no-pull. dc-solo-rpg's words are
read as ours: primary-success (salvation), failure-token (king),
failure-check (pull), success-bonus (salvation-5), skip-damage
(skip-pull), return-king, empty (no effect, as a blank action is); in a
deck that uses them a blank action is no effect, as in dc-solo-rpg. Its
CSV reads in either column order (card, suite, action, description or
card, suit, description, action).
dc-solo-rpg's game file (its type-based Markdown format) names each card
by its type and dicehall places the 52 as dc-solo-rpg does: Primary
Success the Ace of Hearts (salvation), Failure Counter the Kings (king),
Narrative the other Aces (salvation-5, its bonus; with skip-damage
skip-pull, with return-king return-king, at most one each), Challenge
the 3s, 5s, 7s and 9s (pull), Event the 2s, 4s, 6s, 8s, 10s, Jacks and
Queens (no pull). Its salvation ends with a final pull (final_check
pull), as dc-solo-rpg's does; its win- and lose-message close the
journal. Its older game folder is its deck.csv, with config.yml's title,
introduction and the same two messages (its other labels and its
stylesheet are a browser's).
The launcher's journal setup shows a deck's summary before the game:
which cards do what, and its settings.

Choices dicehall makes where the SRD leaves them to each game:
- A card the deck leaves out, or leaves without an action: odd ranks (A,
  3, 5, 7, 9, J) pull, even ranks (2-10, Q) do not; Kings are Kings and
  the Ace of Hearts is salvation. Here dicehall and dc-solo-rpg differ:
  dc-solo-rpg's template makes the Queens a check (a pull) and its other
  Aces a success-bonus; dicehall keeps the SRD's odd and even. A
  dc-solo-rpg deck names every card's action, so it plays as there.
- A King counts toward the Kings whatever its action; a King whose action
  is pull also pulls, unless it is the last King. The Ace of Hearts starts
  salvation whatever its action, and also pulls if its action says so.
- action king belongs to Kings only, salvation to the Ace of Hearts only.
- The salvation die is rolled once at the end of each day from the day
  the Ace of Hearts came up (that day included).
- The deck running out: by default the game ends (the story runs out,
  not a win). A deck may say deck_out = "reshuffle": every drawn card but
  the Kings and the Ace of Hearts goes back, and the day goes on, at most
  3 times (a deck may say fewer: reshuffles = 0-3); the next time the
  deck runs out the game ends, the deck's ending. (A game saved before
  this bound keeps reshuffling as it did.) A reshuffled deck that no
  card could ever end is refused when the game
  starts (by the deck or by the rulings): it needs a card that pulls (a
  chain of double threes fells any tower), as many Kings as end the game,
  or the Ace of Hearts and a card that adds no token (a day of it alone,
  then a 6, takes a token), or so few tokens that the Ace's day and the
  Kings' take them all. A game that can end but rarely does is played.
- After the last token: by default the game is won at once. A deck may
  say final_check = "pull": one last plain pull, and the tower must stand.

When a game starts, the setup screen, the hall's new-game screen, or
--option KEY=VALUE (play, host and sim alike) may rule in the deck's
place on final_check, tokens, kings and deck_out: the deck's own setting
is the default, the player's choice wins, and the save (or the hall
game's log) records it. A value a ruling does not take, or an option the
journal does not have, is refused in one line naming it and the values
it takes, before the deck is read.

A deck's [game] table may set: tokens (1-20, default 10), kings (1-4,
default 4: the King that ends it), tower_start (1-10000, default 100),
final_check ("none" or "pull"), deck_out ("end" or "reshuffle"),
reshuffles (0-3, default 3: how often at most), deck ("full": all 52
cards; "listed": only the cards the file lists).

The odds: "next pull falls" is the Dice Tower's exact chance. "tower ends
it" is the chance that the tower falls before the Kings, salvation or the
deck end the game, from the state now, by simulation (1000 games with a
fixed seed, so the figure repeats; not exact): where every pull to come
is a plain pull, only the deck's part is sampled (how many pulls the
cards, days and tokens call for) and the tower's chance of falling within
that many pulls is exact. The figure and `sim journal` play the rulings
chosen. A reshuffling deck whose cards can no longer end the game (no
pull, no salvation to come, no King to return) would be played for ever
at the table; the simulation counts it as the deck's ending.

Attribution (the Wretched & Alone SRD asks for it, CC BY):
This work is based on The Wretched (found at
http://loottheroom.itch.io/wretched), product of Chris Bissette and Loot
The Room, and licensed for our use under the Creative Commons
Attribution 3.0 Unported license (http://creativecommons.org/licenses/
by/3.0/). The Wretched & Alone SRD is by Matt Sanders (sealedlibrary.com)
in consultation with Chris Bissette. dicehall is not endorsed by either."""


# The rulings offered when a game starts (rulings.RULINGS): a short name for the setup's line and the
# SRD's own words for the rule (the Wretched & Alone SRD), then what dicehall does with each choice.
RULING_WORDS = {
    "final_check": ("Final pull on salvation",
                    "The SRD: \"salvation may come with a final pull\": once the last token is gone, "
                    "some games ask one more pull from the tower. none: the last token wins at once; "
                    "pull: one last plain pull, and the tower must stand."),
    "tokens": ("Tokens",
               "The SRD: when the Ace of Hearts is drawn, place ten tokens; at the end of each day roll a "
               "die, and on a 6 remove one. Removing the last one is salvation. Fewer tokens, a kinder game."),
    "kings": ("The King that ends it",
              "The SRD: the Kings are your failure; when the fourth King is revealed, the game is over. "
              "A deck or a player may end it sooner: at the first, second or third King."),
    "deck_out": ("The deck running out",
                 "The SRD leaves it to each game. end: the story runs out, the game ends (not a win); "
                 "reshuffle: every drawn card but the Kings and the Ace of Hearts goes back and the day goes on, "
                 "at most 3 times (the deck's reshuffles); the next time it runs out, the game ends."),
}
