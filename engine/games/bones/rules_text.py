"""The rules of War of Bones as dicehall plays them: `dicehall rules bones` and the `i` key print
this, with dicehall's decisions where the seed and the rulings are silent."""

RULES_TEXT = """\
WAR OF BONES - a wargame for two, played only with dice rolled into a
square area 9 inches on a side. A die is 5/8 inch wide.

Each player has 8 troops, 3 rollers and a supply (0 to 6, starting at 0).
A troop is a die in the area: its face is its firepower. Positions are
the die's centre, recorded to 1/100 inch. A troop rolled into the area
lands at a random point inside it, never closer than one die width to
another die (such a landing is rerolled), with a random face.

Range: a target is in range of a troop with firepower F when the gap
between the two dice (centre distance minus one die width) is at most F
die widths.

Setup: all 16 troops are rolled into the area. The players roll off (ties
roll again); the winner chooses Reengage or First Strike, the other gets
the other. Reengage: pick any number of your own troops and up to the
same number of the opponent's; all picked troops are rolled back in (new
face, new place). Then the First Strike player takes the first turn.

A turn is exactly one action:

Attack: pick one of your troops with firepower F and split F into one or
more attacks whose strengths add up to F, each against an enemy troop in
range (several may aim at the same troop). Each attack rolls a roller:
attack value = roll + strength. For each target troop the defender rolls
one die per attack aimed at it and assigns each die to one of those
attacks. For each pair: margin = attack value - (defence die + the
defender's firepower). A margin at or above the defender's firepower
slays it; above 0 but below it does 1 damage (the face goes down by 1).
All pairs on a troop are judged against the firepower it had when
attacked, then the damage is applied; a troop slain or reduced to 0 is
removed from play. Damaged dice keep their place.

Supply buys rerolls: 1 supply rerolls one of your own attack, defence or
reinforce dice right after it was rolled, before anything is resolved
(the attacker rerolls before the defender rolls).

Reinforce: pick one of your troops in play and roll a roller. If the roll
is higher than the troop's face you may roll that troop back in (new
face, new place). On a 6 you may also roll one of your troops that are
out of play back in, if fewer than 8 are in play.

Resupply: take one of your troops out of play and add its face to your
supply (at most 6; the rest is lost).

Converge: the first converge does nothing by itself. If the opponent's
very next action is also converge, the area shrinks by 2 inches on each
side (9, 7, 5, 3, always centred; at 3 it shrinks no more) and every
troop whose centre is now outside is rolled back in. Any other answer
wastes the first converge.

Victory: at the end of any turn, a player with no troops in the area
loses; if both have none, the game is drawn.

Option no_premeasure (off by default): ranges are not shown and an
attack may aim at any enemy troop; an attack on a target out of range
misses (no dice are rolled for it).

Keys: see ? on the game screen.

On the screen: the map is the area to scale (a column is 1/4 inch, a
row 1/2 inch) in a frame at its current edge. a5 is one of A's troops
showing 5, B5 one of B's (l shows the numbers instead: a#5, B#5). [ ]
marks the chosen troop, dots its range and * an enemy in range; in the
attack builder > < is the target being set and ( ) the other targets;
in Reengage + marks a picked troop; > < also marks a troop that has
just landed.

dicehall's decisions (where the seed and the rulings are silent):
- Troops are named by side and number, A#1..A#8 (first player) and
  B#1..B#8; the number never changes, the face does. On the map a troop
  is drawn as its side and its face (a5: an A troop showing 5; B5: a B
  troop showing 5), so "B#5" is troop number 5 and "B5" a face.
- A landing point is uniform over the area's 1/100 inch grid, edges
  included; only the centre must be inside. "Closer than one die width"
  means a centre distance under 0.625 inch; exactly 0.625 is allowed.
  Rollers are rolled outside the area and are not obstacles.
- Dice rolled in together (setup, Reengage, a converge, a reinforcement
  with its extra troop) land one at a time, each avoiding all dice
  already in the area: A's troops before B's, lower numbers first (in
  Reengage, the reengaging player's troops first). A troop being rolled
  back in is picked up first, so it never blocks itself.
- The 3 rollers do not limit the number of attacks: a split into more
  than 3 attacks rolls rollers again.
- An attack is resolved target by target, in the order of the target's
  number: the attacker rolls the attacks on that troop together (and may
  reroll), then the defender rolls and may reroll, then assigns. When
  every assignment gives the same result (one attack, equal dice or
  equal attack values) the dice are assigned without asking.
- Each reroll costs 1 supply; after a reroll you may reroll again while
  supply lasts, the same die too. With no supply there is no offer.
  Either player rerolls only their own dice; the defender may reroll
  defence dice.
- Reinforce: "higher" is strictly higher: a 6 never rolls a 6 back in.
  Both parts are choices: roll the troop back in, take the extra troop
  (the lowest-numbered troop out of play), both or neither. The troop
  lands first, then the extra one. "Fewer than 8 in play" counts before
  anything is rolled in.
- Resupply may take your last troop: you then lose at the end of the
  turn. Out of play means slain, reduced to 0 or resupplied.
- A converge that answers one completes it and does not start a new
  one. At 3 inches the answer is still a converge, and nothing happens.
  A troop exactly on the new edge is inside.
"""
