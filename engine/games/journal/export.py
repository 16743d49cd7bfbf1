"""A journal game as Markdown (`dicehall export SAVE --markdown`): the deck's title and intro, a
heading per day, each card with its prompt, its pulls and its entry, the salvation rolls, how it
ended, the last words and the deck's licence. Read through the session's public API (its events
and the states between them); every text in it was cleaned when it was written."""
from __future__ import annotations

from dicehall.engine.games import dicetower
from dicehall.engine.games.dicetower import DiceRolled
from dicehall.engine.games.journal.cards import card_name
from dicehall.engine.games.journal.moves import CardDrawn, SalvationRolled
from dicehall.engine.games.journal.rules import card_words, outcome


def _quoted(text: str) -> list[str]:
    return ["> " + line if line else ">" for line in text.splitlines()] or [">"]


def markdown(session) -> str:
    """The whole journal of `session` as one Markdown document."""
    events = list(session.events)
    final = session.state
    deck = final.deck
    # what happened to each card (its pulls) and each day (its salvation rolls), from the log
    pulls: dict[int, list[str]] = {}
    salvation: dict[int, list[str]] = {}
    final_pull: list[str] = []
    page = 0
    state = session.state_at(0)
    for index, event in enumerate(events):
        kind = type(event)
        if kind is CardDrawn:
            page = len(state.pages) + 1
        elif kind is DiceRolled:
            line = dicetower.describe(state.tower, event)
            (final_pull if state.phase == "final-pulling" else pulls.setdefault(page, [])).append(line)
        elif kind is SalvationRolled:
            removes = event.face >= state.salvation_from  # a 6, or less after a card's salvation-5 or -4
            removed = "a token removed" if removes else "no token removed"
            salvation.setdefault(state.day, []).append(f"salvation die {event.face}: {removed}, "
                                                       f"{state.tokens - removes} left")
        state = session.state_at(index + 1)
    lines = [f"# {deck.title}", ""]
    if deck.author:
        lines += [f"*by {deck.author}*", ""]
    if deck.intro:
        lines += [deck.intro, ""]
    day = None
    for number, card in enumerate(final.pages, start=1):
        if card.day != day:
            if day is not None and day in salvation:
                lines += [f"*{line}*" for line in salvation[day]] + [""]
            day = card.day
            lines += [f"## Day {day}", ""]
        lines += [f"### {number}. {card_words(final, card.card)}", ""]
        prompt = deck.prompt(card.card)
        if prompt:
            lines += _quoted(prompt) + [""]
        for pull in pulls.get(number, []):
            lines.append(f"- tower: {pull}")
        if number in pulls:
            lines.append("")
        if card.entry:
            lines += [card.entry, ""]
        elif card.skipped:
            lines += ["*(skipped)*", ""]
        else:
            lines += ["*(not written yet)*", ""]
        if card.amended:
            lines += [f"*(amended {card.amended} time{'s' if card.amended > 1 else ''})*", ""]
    if day is not None and day in salvation:
        lines += [f"*{line}*" for line in salvation[day]] + [""]
    result = outcome(final)
    lines += ["## The end" if result else "## To be continued", ""]
    for pull in final_pull:
        lines.append(f"- final pull: {pull}")
    if final_pull:
        lines.append("")
    kings = ", ".join(card_name(king) for king in final.kings) or "none"
    summary = result.summary[:1].upper() + result.summary[1:] + "." if result else f"Day {final.day}: the game goes on."
    lines += [summary, "", f"Tower {final.tower.countdown} of {final.tower.start} after "
              f"{final.tower.pulls} pull{'s' if final.tower.pulls != 1 else ''}; Kings: {kings}"
              + (f"; tokens {final.tokens} of {deck.settings['tokens']}" if final.salvation else "") + ".", ""]
    if final.last_words:
        lines += ["### Last words", "", final.last_words, ""]
    if deck.licence:
        lines += ["---", "", deck.licence, ""]
    return "\n".join(lines)
