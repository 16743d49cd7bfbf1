"""Statistics as a projection of the saves (`dicehall stats`, the launcher's Stats screen): per game
and variant, and per player, counted from each save's result (saves/results.py).

How the saves are counted (docs/playing.md says it for players):
- a damaged save is listed, never counted; a save copied under another name counts once (the same
  game, seed, start time and players);
- a game of bots only is kept apart (`bots_only`), and a bot's seat is no player: a person's game
  against bots counts for the person;
- finished: won (a person's seat won), lost (no person won: a solo loss, a bot won) or drawn (no
  one won a game of several seats); unfinished games untouched for ABANDONED_DAYS are abandoned,
  the others in progress: neither counts as a loss, and neither breaks a streak;
- win % is of finished games; streaks run over finished games in the order they were last played
  (a draw ends a streak); a win with no assist had no hint, reveal, hindsight and no undo;
- best: the best value of the game's own measure (its catalogue entry's `measure`, each value from
  the game's `result` hook) over the people's seats of finished games."""
from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from dicehall.engine.core import LOWER, Measure
from dicehall.engine.games import CATALOGUE, entry_of
from dicehall.engine.text import clean_text
from dicehall.engine import words
from dicehall.saves.results import SaveResult, paused_gc, results

ABANDONED_DAYS = 14
RECENT = 30  # results drawn in a chart


@dataclass
class Tally:
    """The figures of one row: a game (and variant), for everyone or for one player."""

    game: str
    variant: str = ""
    player: str = ""  # "" for every person
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    abandoned: int = 0
    in_progress: int = 0
    won_no_assist: int = 0
    perfect: int = 0
    best: int | None = None
    sequence: list = field(default_factory=list)  # "W", "L", "D" per finished game, oldest first
    measures: list = field(default_factory=list)  # the measure per finished game, oldest first (None: none)

    def __post_init__(self) -> None:
        self.measure = entry_of(self.game).measure  # asked for every game added: looked up once

    @property
    def finished(self) -> int:
        return self.won + self.lost + self.drawn

    @property
    def win_percent(self) -> float | None:
        return round(100 * self.won / self.finished, 1) if self.finished else None

    def streaks(self) -> dict[str, Any]:
        current, longest = ("", 0), {"W": 0, "L": 0}
        for mark in self.sequence:
            current = (mark, current[1] + 1) if mark == current[0] else (mark, 1)
            if mark in longest:
                longest[mark] = max(longest[mark], current[1])
        kind = {"W": "won", "L": "lost", "D": "drawn"}.get(current[0], "")
        return {"current": {"kind": kind, "length": current[1]}, "longest_won": longest["W"],
                "longest_lost": longest["L"]}

    def add(self, result: SaveResult, seats: list[int], abandoned: bool, judged: tuple | None = None) -> None:
        """Count one save for `seats`; `judged`: judge(result, seats) where the caller has it already."""
        self.played += 1
        if not result.finished:
            if abandoned:
                self.abandoned += 1
            else:
                self.in_progress += 1
            return
        mark, value = judged or judge(result, seats, self.measure)
        if mark == "W":
            self.won += 1
            if not result.assists and not result.undos:
                self.won_no_assist += 1
            if self.measure.perfect and result.summary == self.measure.perfect:
                self.perfect += 1
        elif mark == "D":
            self.drawn += 1
        else:
            self.lost += 1
        self.sequence.append(mark)
        self.measures.append(value)
        self.best = self.measure.best((self.best, value))


    def as_dict(self) -> dict[str, Any]:
        measure = self.measure
        return {"game": self.game, "variant": self.variant, "player": self.player, "played": self.played,
                "finished": self.finished, "won": self.won, "lost": self.lost, "drawn": self.drawn,
                "abandoned": self.abandoned, "in_progress": self.in_progress, "win_percent": self.win_percent,
                "won_no_assist": self.won_no_assist, **self.streaks(),
                "best": {"measure": measure.name, "fewest_best": measure.better == LOWER, "value": self.best},
                **({"perfect": self.perfect} if measure.perfect else {}),
                "recent": "".join(self.sequence[-RECENT:]), "recent_measures": self.measures[-RECENT:]}


def judge(result: SaveResult, seats: list[int], measure: Measure) -> tuple[str, int | None]:
    """A finished game for `seats`: W (one of them won), D (no one won a game of several seats) or L;
    and the best of their measures."""
    winners = result.winners
    mark = "W" if any(seat in winners for seat in seats) else "D" if not winners and len(result.players) > 1 else "L"
    return mark, measure.best(result.measures[seat] for seat in seats)


@dataclass
class Stats:
    games: list[Tally]  # per game and variant, every person together
    players: list[Tally]  # per player, game and variant
    bots_only: dict[str, int]  # games of bots only, by game
    daily: list[dict]  # the daily deals' results, newest first
    damaged: list[dict]  # saves listed but not counted: id and problem
    counted: int  # saves counted (copies once)

    def as_dict(self) -> dict[str, Any]:
        return {"abandoned_after_days": ABANDONED_DAYS, "saves_counted": self.counted,
                "games": [t.as_dict() for t in self.games], "players": [t.as_dict() for t in self.players],
                "bots_only": self.bots_only, "daily": self.daily, "damaged": self.damaged}


def collect(game: str | None = None, player: str | None = None, now: float | None = None,
            found: list[SaveResult] | None = None, warn: Callable[[str], None] | None = None) -> Stats:
    """The statistics of the saves, of one game and of the games one player played where asked (a
    damaged index of them is said through `warn`, in one line)."""
    with paused_gc():
        return _collect(game, player, time.time() if now is None else now, results(warn) if found is None else found)


def _collect(game: str | None, player: str | None, now: float, found: list[SaveResult]) -> Stats:
    damaged = sorted(({"id": r.id, "problem": r.problem} for r in found if r.problem), key=lambda d: d["id"])
    order = {entry.id: n for n, entry in enumerate(CATALOGUE)}
    counted: dict[str, SaveResult] = {}
    for result in found:
        if result.problem is None and (game is None or result.game == game):
            kept = counted.get(result.identity)
            if kept is None or result.last_played > kept.last_played:  # the copy played furthest is the one
                counted[result.identity] = result
    games: dict[tuple, Tally] = {}
    players: dict[tuple, Tally] = {}
    bots_only: dict[str, int] = {}
    daily = []
    for result in sorted(counted.values(), key=lambda r: (r.last_played, r.file)):
        people = result.people
        if not people:
            bots_only[result.game] = bots_only.get(result.game, 0) + 1
            continue
        names: dict[str, list[int]] = {}
        for seat in people:
            names.setdefault(result.players[seat][0], []).append(seat)
        if player is not None and player not in names:
            continue
        abandoned = not result.finished and now - result.last_played > ABANDONED_DAYS * 86400
        key = (result.game, result.variant)
        tally = games.get(key) or games.setdefault(key, Tally(*key))
        judged = judge(result, people, tally.measure) if result.finished else None
        tally.add(result, people, abandoned, judged)
        for name, seats in names.items():  # a name holding two seats counts once for the game
            if player is None or name == player:
                mine = players.get((name, *key)) or players.setdefault((name, *key), Tally(*key, name))
                mine.add(result, seats, abandoned, judged if len(seats) == len(people) else None)
        if result.daily:
            state = ("won" if any(s in result.winners for s in people) else "lost") if result.finished else \
                "abandoned" if abandoned else "in progress"
            measures = [result.measures[s] for s in people if result.measures[s] is not None]
            daily.append({"date": result.daily, "game": result.game, "players": sorted(names), "result": state,
                          "summary": result.summary, "measure": measures[0] if measures else None, "id": result.id})
    daily.sort(key=lambda d: (d["date"], d["game"], d["id"]), reverse=True)
    by_game = sorted(games.values(), key=lambda t: (order.get(t.game, 99), t.variant))
    by_player = sorted(players.values(), key=lambda t: (t.player.casefold(), t.player, order.get(t.game, 99), t.variant))
    return Stats(by_game, by_player, dict(sorted(bots_only.items())), daily, damaged, len(counted))


# ----- in words: `dicehall stats` prints these; the Stats screen draws the same -----
def heading(tally: Tally) -> str:
    title = entry_of(tally.game).title
    return f"{title}, {tally.variant}" if tally.variant else title


def tally_lines(tally: Tally) -> list[str]:
    """A row's figures in a few short lines (each under 76 columns but the variant's words)."""
    measure = tally.measure
    parts = [f"won {tally.won}", f"lost {tally.lost}"]
    parts += [f"drawn {tally.drawn}"] * bool(tally.drawn)
    parts += [f"abandoned {tally.abandoned}"] * bool(tally.abandoned)
    parts += [f"in progress {tally.in_progress}"] * bool(tally.in_progress)
    percent = f"; win {tally.win_percent}% of {tally.finished} finished" if tally.finished else ""
    lines = [f"played {tally.played}: {', '.join(parts)}{percent}"]
    perfect = f"; perfect wins {tally.perfect}" if measure.perfect else ""
    lines.append(f"won with no assist {tally.won_no_assist}{perfect}")
    streaks = tally.streaks()
    now = streaks["current"]
    current = f"now {now['kind']} {now['length']}" if now["length"] else "none yet"
    lines.append(f"streaks: {current}; longest won {streaks['longest_won']}, lost {streaks['longest_lost']}")
    if measure.name:
        best = "none yet" if tally.best is None else f"{tally.best} {measure.name}"
        lines.append(f"best: {best} ({'fewest' if measure.better == LOWER else 'most'} is best)")
    return lines


def sequence_chart(tally: Tally) -> str:
    """The last RECENT results as letters, oldest first: W won, L lost, D drawn (letters, never colour)."""
    recent = tally.sequence[-RECENT:]
    return " ".join(recent) if recent else "(no finished game)"


BARS = ".:=+*#%@"


def measure_chart(tally: Tally) -> str:
    """The measure over the last RECENT finished games, oldest first, one character each, scaled
    from the lowest ('.') to the highest ('@'), '-' where a game has none (a loss has no winning
    total); with its range."""
    values = tally.measures[-RECENT:]
    known = [v for v in values if v is not None]
    if not known:
        return ""
    low, high = min(known), max(known)
    span = max(1, high - low)
    marks = "".join("-" if v is None else BARS[(len(BARS) - 1) * (v - low) // span] for v in values)
    return f"{tally.measure.name} (oldest first): [{marks}] from {low} to {high}"


def stats_lines(stats: Stats, folder: str | None, player: str | None, width: int = 79) -> list[str]:
    """The statistics as lines of at most `width` columns (`dicehall stats`, the Stats screen). With
    no folder (the screen: its help says how the saves are counted) the first line is short."""
    def wrap(text: str, indent: str = "  ") -> list[str]:
        return textwrap.wrap(clean_text(text, 600), width, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_on_hyphens=False) or [indent]

    who = f" of {clean_text(player, 60)}" if player else ""
    if folder is None:
        lines = wrap(f"Counted from {words.counted(stats.counted, 'save')}{who} (? says how)", "")
    else:
        lines = wrap(f"Statistics{who} from {words.counted(stats.counted, 'save')} in {folder} (a copy counts once; a game unfinished "
                     f"and untouched for {ABANDONED_DAYS} days is abandoned, not lost; bots' seats are no players)", "")
    if not stats.games:
        lines.append("no finished or unfinished game of a person to count yet")
    for tally in stats.games:
        lines += ["", *wrap(heading(tally), "")]
        for line in tally_lines(tally):
            lines += wrap(line)
        lines += wrap(f"recent (oldest first): {sequence_chart(tally)}")
        if measure_chart(tally):
            lines += wrap(f"{measure_chart(tally)}")
    if stats.players:
        lines += ["", "PLAYERS (people only)"]
    for tally in stats.players:
        lines += wrap(f"{tally.player}: {heading(tally)}", "")
        for line in tally_lines(tally):
            lines += wrap(line)
    if stats.bots_only:
        lines += ["", *wrap("Games of bots only (not counted above): " + ", ".join(
            f"{game} {count}" for game, count in stats.bots_only.items()), "")]
    if stats.daily:
        lines += ["", "DAILY DEALS"]
        for deal in stats.daily:
            measure = f", {deal['measure']}" if deal["measure"] is not None else ""
            summary = f" ({deal['summary']}{measure})" if deal["summary"] else ""
            lines += wrap(f"{deal['date']}  {deal['game']}  {', '.join(deal['players'])}: {deal['result']}{summary}")
    if stats.damaged:
        lines += ["", "DAMAGED SAVES (listed, not counted)"]
        for damaged in stats.damaged:
            lines += wrap(f"{damaged['id']}: {damaged['problem']}")
    return lines
