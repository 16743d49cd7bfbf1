"""A finished hall game's result in one line, as the public servers' bots announce games ("Ann beat
Bob at Towers, 17 to 6"): the lobby's news line and the archive's rows. The words are the game's
own, from its `final_score(state)` and `result(state, seat)` hooks (engine/contract.py) and its outcome:

- a game for one: "Ann at Dice Tower: 17 pulls", "Ann at Angry Troll versus Magic Bridge: perfect win";
- a game won on a score both sides have (Towers' points, War of Bones' troops left, the wager's
  scores): the score both ways, as players say it: "Ann beat Bob at Towers, 17 to 6", "Ann beat
  Bob, Cy and Di at Dead Man's Wager, 21 to 15, 12 and 9";
- a game won otherwise: the winner's result with its "won" said by "beat" ("Ann beat Bob at Dead
  Man's Wager with 8" when won by Outrageous Fortune);
- a draw: "Ann and Bob drew at Towers: a draw, 9 to 9" (the outcome's words);
- an abandoned game (an idle seat ended it): "Ann v Bob at Towers: abandoned: Bob (seat 2) did
  not move for 30 minutes".
A bot is named as the lobby names it, "Bot 2 (bot)"; a bot that took over an idle person's seat
"Bot 2 (bot, for Bob)". Names are the fold's, cleaned; the line is text, never markup."""
from __future__ import annotations

from dicehall.engine.text import clean_text
from dicehall.saves.hall.fold import HallFold
from dicehall.saves.hall.seats import seat_label

NEWS_LIMIT = 300  # characters of a line: six seats' names and a result


def and_list(names: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def seat_name(fold: HallFold, seat: int) -> str:
    """A seat as the news names it: a person by their name, a bot as a bot (and whose seat it took)."""
    held = fold.seats[seat]
    if held.kind != "bot":
        return clean_text(seat_label(held)[0], 60)
    person = fold.handed.get(seat)
    return f"{clean_text(held.name, 40)} (bot{', for ' + clean_text(person.name, 40) if person else ''})"


def beat_words(words: str) -> str:
    """The winner's result after "X beat Y at GAME": its "won" is the "beat" ("won by 11": " by 11";
    "won, 2 troops lost": ", 2 troops lost"); any other words after a colon."""
    if words.startswith("won "):
        return " " + words[4:]
    if words.startswith("won, "):
        return words[3:]
    return f": {words}" if words and words != "won" else ""


def score_words(fold: HallFold, winners: list[int], losers: list[int]) -> str | None:
    """The score both ways, as players say it (", 17 to 6"; several losers: ", 21 to 15, 12 and 9"),
    from the game's `final_score` hook (what every player sees at the end); None where the game has
    no such score."""
    hook = getattr(fold.module, "final_score", None)
    figures = hook(fold.session.state) if hook is not None and fold.session is not None else None
    if not figures or len(figures) != len(fold.seats) or len(winners) != 1 or not losers:
        return None
    return f", {figures[winners[0]]} to {and_list([str(figures[n]) for n in losers])}"


def announcement(fold: HallFold) -> str:
    """The finished game's result in one line ("" for a game still going on)."""
    session = fold.session
    if session is None or not fold.over:
        return ""
    title = fold.module.TITLE
    names = [seat_name(fold, n) for n in range(len(fold.seats))]
    if fold.abandoned:
        return clean_text(f"{' v '.join(names)} at {title}: {fold.abandoned}", NEWS_LIMIT)
    outcome = session.outcome
    assert outcome is not None  # over and not abandoned
    if len(names) == 1:
        result = fold.module.result(session.state, 0)
        return clean_text(f"{names[0]} at {title}: {result.words if result else outcome.summary}", NEWS_LIMIT)
    winners = [n for n in outcome.winners if 0 <= n < len(names)]
    if not winners:
        return clean_text(f"{and_list(names)} drew at {title}: {outcome.summary}", NEWS_LIMIT)
    losers = [n for n in range(len(names)) if n not in winners]
    beaten = f" beat {and_list([names[n] for n in losers])}" if losers else " won"
    detail = score_words(fold, winners, losers)
    if detail is None:
        result = fold.module.result(session.state, winners[0])
        detail = beat_words(clean_text(result.words, 60)) if result else ""
    return clean_text(f"{and_list([names[n] for n in winners])}{beaten} at {title}{detail}", NEWS_LIMIT)


def latest_news(hall, entries) -> str:
    """The lobby's news line: the result of the game that finished last among a listing's entries
    (HallEntry, as Hall.listing gives them), with when ("" when none has)."""
    from datetime import datetime

    finished = [entry for entry in entries if entry.finished and not entry.problem]
    if not finished:
        return ""
    latest = max(finished, key=lambda entry: entry.last_move)
    fold = hall.listed_fold(latest.id)
    words = announcement(fold) if fold is not None else ""
    if not words:
        return ""
    moment = datetime.fromtimestamp(latest.last_move) if latest.last_move else None
    when = "" if moment is None else moment.strftime(" (%H:%M)" if moment.date() == datetime.now().date() else " (%Y-%m-%d)")
    return f"news: {words}{when}"
