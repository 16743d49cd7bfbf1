"""The Dead Man's Wager table: the players with their scores, kinds and last rolls (a warning at two
sixes or two threes in a row) and what the one to act may do; the banner that announces the big
moments; the scoresheet round by round; and the replay viewer's board. Widgets that draw the
session they are given."""
from __future__ import annotations

from bisect import bisect_left

from rich.text import Text

from dicehall.engine.games import wager
from dicehall.engine.words import counted
from dicehall.tui.widgets import Plain, ellipsis, player_kind


def last_rolls(events, seats: int, keep: int = 4) -> list[list[int]]:
    """Each seat's last few faces, oldest first, read from the event log (normal and wager rolls)."""
    rolls: list[list[int]] = [[] for _ in range(seats)]
    for event in events:
        if isinstance(event, wager.DieRolled):
            rolls[event.seat] = (rolls[event.seat] + [event.face])[-keep:]
    return rolls


def draw_board(state, reveal: bool = True) -> Text:
    """The scores and streaks as they stood, for the replay viewer."""
    text = Text(f"ROUND {state.round}\n\n", style="bold")
    for seat, name in enumerate(state.names):
        score = "OUT" if state.out[seat] else str(state.scores[seat])
        marker = ">" if seat == state.seat else " "
        text.append(f"{marker} {ellipsis(name, 14):<14} {score:>4}\n", style="bold" if seat == state.seat else "")
        face, length = state.runs[seat]
        if face in (3, 6) and length >= 2:
            text.append(f"    {face} {face} in a row\n", style="bold")
    if state.bonus:
        text.append("\nthe player to act has the bonus\n")
    return text


def run_warning(run: tuple[int, int]) -> str:
    """A warning at two sixes or two threes in a row (words, not only colour)."""
    face, length = run
    if face == 6 and length >= 2:
        return "! a 6 now: Mark of the Beast"
    if face == 3 and length >= 2:
        return "! a 3 now: Outrageous Fortune"
    return ""


class ScoreTable(Plain):
    """A line per player (> and reverse for the one to act): score or OUT, human or bot style, the
    last rolls and a warning; under it, what the one to act may do now."""

    def draw(self, session) -> None:
        state = session.state
        outcome = session.outcome
        table = Text()
        rolls = last_rolls(session.events, len(session.players))
        table.append(f"  {'player':<16} {'score':>5}  {'plays':<13}last rolls\n", style="dim")
        for seat, player in enumerate(session.players):
            acting = seat == state.seat and outcome is None
            marker = ">" if acting else " "
            who = player_kind(player)
            score = "OUT" if state.out[seat] else f"{state.scores[seat]:>3}"
            table.append(f"{marker} {ellipsis(player.name, 16):<16} {score:>5}  ", style="bold reverse" if acting else "")
            table.append(f"{who:<13}{' '.join(map(str, rolls[seat])):<9}")
            table.append(f"{run_warning(state.runs[seat])}\n", style="bold")
        if outcome is None and session.to_act is not None:
            player = session.players[state.seat]
            who = ellipsis(player.name, 16) + (" (bonus turn)" if state.bonus else "")
            if state.normal_left:
                to_make = counted(state.normal_left, "normal roll")
                table.append(f"{who}: {to_make} to make (r), then wager (w) or not (e)")
            elif state.can_wager:
                table.append(f"{who}: wager (w) or end the turn (e)")
        self.show(table)


class Banner(Plain):
    """The big moments, announced so no one misses them: a Mark of the Beast or an Outrageous
    Fortune in the last few events, and the end of the game; else the last event."""

    def draw(self, session) -> None:
        text = Text()
        for index in range(max(0, len(session.events) - 6), len(session.events)):
            event = session.events[index]
            if isinstance(event, wager.DieRolled):
                before = session.state_at(index)
                verdict = wager.judge(before, event)[2]
                name = before.names[event.seat]
                if verdict == "beast":
                    text.append(f"*** MARK OF THE BEAST: three sixes in a row, {name} is out ***\n", style="bold reverse")
                elif verdict == "fortune":
                    text.append(f"*** OUTRAGEOUS FORTUNE: three threes in a row, {name} wins ***\n", style="bold reverse")
        if session.outcome:
            text.append(f"*** {session.outcome.summary} ***  v reviews the game, q goes back", style="bold reverse")
        elif session.events:
            text.append(session.describe(len(session.events) - 1))
        self.show(text)


class ScoreSheet(Plain):
    """The scoresheet, a row per round and a column per player: the newest rounds that fit."""

    def draw(self, session) -> None:
        room = max(1, (self.size.height or 8) - 1)
        # only the rounds on show are read (from a round before the oldest, found by bisection):
        # the earlier rows stay blank, unseen, so a key costs the same late in a game as early
        total = len(session.events)
        begin = bisect_left(range(total), session.state.round - room - 1, key=lambda i: session.state_at(i).round)
        states = [session.state_at(i) for i in range(begin, total)]
        rows = wager.scoresheet(states, list(session.events[begin:]))
        width = max(8, min(20, 72 // max(1, len(session.players))))  # "round " and every column in 78
        text = Text("round " + "".join(f"{ellipsis(p.name, width - 1):<{width}}" for p in session.players) + "\n", style="bold")
        first = max(0, len(rows) - room)
        for number, row in enumerate(rows[first:], start=first + 1):
            text.append(f"{number:>5} " + "".join(f"{ellipsis(cell, width - 1):<{width}}" for cell in row) + "\n")
        self.show(text)
