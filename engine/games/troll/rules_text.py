"""The rules as dicehall plays them: `dicehall rules troll` prints this, and so does the rules
screen (`i`). Where the seed and the rulings are silent, dicehall's decisions are listed at its end.
"""

RULES_TEXT = """\
ANGRY TROLL VERSUS MAGIC BRIDGE - a solitaire for one player, 52 cards and
one die.

The bridge: two rows (upper and lower) of six positions, numbered 1 to 6
from the left bank to the right bank. Each position holds a stack of cards
(bricks); only its top card is in play, dormant (face down) or awake (face
up). A card under another card waits until it is on top again. On the
screen a * after a stack's height marks a stack with an awake card buried
in it: it still counts as awake for the win.
Cards: A 2 ... 10 J Q K of clubs, diamonds, hearts and spades (AC, 10H,
QS). Clubs and spades are black, diamonds and hearts red. The ace of clubs
(AC) is THE CLUB.

Difficulty (stack heights from position 1 to 6, the same in both rows):
  standard  3 2 1 1 2 3  24 bricks, deck 28, 27 awakenings at least
  sturdy    4 3 2 2 3 4  36 bricks, deck 16, 15 awakenings at least
  tutorial  5 4 3 3 4 5  48 bricks, deck 4, 3 awakenings at least
  custom    option heights: six numbers of 1 or more, at most 25 per
            row (50 bricks: one card must be left to turn up first; 24
            per row with THE CLUB or both aces held from the start);
            preset heights keep the preset's name
(The deck is the deck of awakening.)

Setup: the deck is shuffled and the bridge dealt face down: upper 1 to 6,
then lower 1 to 6, each stack from its bottom card up. The rest is the
deck of awakening. Its top card goes face up onto the lower flight stack:
the lower row has that card's colour, the upper row the other colour. This
first card wakes nothing. Then a die roll puts the troll on that position
of the lower row.

A turn:
1. Awakening phase. If cards were set aside since the last awakening
   phase, each of them, in the order they were set aside, goes onto the
   flight stack of its colour and causes one awakening. Otherwise the
   deck's top card does (one awakening). If both are empty, nothing
   awakens. Cards set aside during this phase wait for the next turn.
   One awakening: the flight stack picks the row, a die roll the position.
   If that position is empty, look toward the nearer bank (1-3 toward 1,
   4-6 toward 6) for the first occupied position; if there is none, look
   the other way from the rolled position; if the row is empty, nothing
   awakens. A dormant top card turns awake (also under the troll). An
   awake top card flies away: it is set aside, and if the troll stands on
   it, the troll flies away too and the game is lost.
2. The troll takes exactly two actions. When no action is possible, the
   remaining ones are lost (the log says so; if none is possible at all,
   the only command is "wait").
   - move up, down, left or right onto an occupied position it has not
     stood on this turn (the position it started the turn on counts as
     stood on);
   - stomp the awake top card it stands on: it turns dormant;
   - pick up an awake top card next to it (up, down, left or right) that
     is not a heart, when its hands are empty: it carries the card awake;
   - use the awake card it carries, which is then set aside:
     club: turns an awake top card next to it dormant;
     diamond: thrown up, down, left or right, it turns dormant the first
       awake top card in that direction (dormant cards and gaps do not
       stop it; thrown off the bridge it hits nothing);
     spade: flips an awake top card next to it into the troll's hands,
     dormant;
   - lay down the dormant card it carries onto any position next to it (on
     top of a stack or into a gap).
   THE CLUB (AC) works as a club but is not set aside; while the troll
   holds it, it picks up nothing else, for the rest of the game.
3. Flight phase: every awake top card on the bridge, except the one the
   troll stands on, moves one position toward its nearer bank (1-3 left,
   4-6 right), unless the troll stands between it and that bank in the
   same row: then it moves toward the other bank. All move at once, from
   where they stood before the phase; two landing on one stack land in
   order of their old positions, left first. Cards move into gaps too. A
   card that moves past position 1 or 6 reaches the bank: it has fled and
   is set aside.
4. Checks. The bridge stands only if occupied positions connect a position
   1 to a position 6 through steps left, right, up or down; otherwise it
   collapses and the game is lost. The troll wins if the deck is empty,
   nothing is set aside, no card on the bridge is awake (covered cards
   included) and the bridge stands. A win with every position occupied is
   perfect. A carried card does not prevent a win.

Score: the cards left in the deck of awakening when the game ends (lower
is better; 0 on a win).

Variants (options, true or false):
- starting_card: the troll starts carrying the deck's top card after
  setup, awake; a heart goes to the bottom of the deck and the next card
  is taken.
- reusable_diamond_ace: the AD works like THE CLUB: it is kept after use,
  and while the troll holds it, it picks up nothing else.
- club_at_start: the troll holds THE CLUB from the start (taken out before
  the deal).
- toys: both aces reusable and both held from the start.
Option deck: the 52 card codes, top card first, dealt in that order
without a shuffle (puzzles, shared deals).
Option winnable (true or false): deal only a deal the hindsight solver
proves winnable, knowing the deck order and the seed's dice. From the
given seed S, the seeds S, S+1, S+2, ... are tried in order and the first
proved within 20,000 positions is played; after 5 seeds without a proof
no game is made. The game is played as usual (the cards stay face down);
the title says "winnable deal". Not with deck.

dicehall's decisions (where the seed and the rulings are silent):
- Cards fleeing in the same flight phase are set aside in bridge order:
  the upper row before the lower row, each from position 1 to 6.
- Quiet turns: a turn in which no card is played onto a flight stack (the
  deck is empty and nothing was set aside). After 10 quiet turns in a row
  without a win, the bridge wins: the game is lost ("the bridge would not
  settle"). Without this, an awake card covered by a dormant one could
  keep a game going forever.
- A dormant card in the troll's hands (after a spade) can only be laid
  down, even the AC: THE CLUB's powers come from holding it awake.
- starting_card cannot go with club_at_start or toys: the troll's hands
  are full. If the deck holds nothing but hearts, the troll starts
  empty-handed.
- The die is rolled for every awakening, even when the row is empty.
- The shuffle: draw i (0 to 50) picks one of the 52 - i cards not yet
  drawn, counted in the order clubs, diamonds, hearts, spades, each from
  ace to king; the drawn cards, in draw order, are the deck from its top;
  the last card left is its bottom card.

Questions from the playtesters:
- Test #4 and #5: the die points at an empty position. Look toward the
  nearer bank for the first card; if there is none that way, look the
  other way; an empty row wakes nothing (Test #6: the troll's actions and
  the flight phase still happen).
- Test #6: the die points at a card that is already awake. It flies away
  and is set aside; nothing else wakes. If the troll stands on it, the
  troll flies away too and the game is lost.
- Test #6 and #5: what happens to cards that fly (flew away, fled to a
  bank, or were used)? They are set aside. In the next awakening phase
  each one, in order, goes onto the flight stack of its colour and causes
  one awakening, instead of the deck's top card. Then the troll takes its
  two actions.
- Test #6: the card the troll carries is not part of the bridge: it does
  not count, does not flee and does not prevent a win.
- Test #7: a dormant card under the troll awakens as usual when its
  position is rolled, also one the troll stomped last turn. Rolled again
  while awake, it flies away and takes the troll with it.
- Test #7: yes, cards flee off both ends of the bridge: each flees toward
  its own nearer bank (the other one when the troll is in the way),
  several can flee in the same turn, and fleeing cards move into empty
  positions on their way.
- Test #5: a diamond flies any distance in a straight line and hits the
  first awake top card; the troll cannot pick up a heart (a spade can flip
  one into its hands).
"""
