"""The web tests' toy game is the `cardlab new-game` template ("lay one secret
card a round, the highest scores", 2-4 players, option `double_last`),
scaffolded into a temporary directory, so the server is tested on exactly what
a designer starts from and without the real engines."""

from __future__ import annotations

from cardlab.newgame import template_game

INFO = template_game("highcard", title="High Card (test toy)")
HighCard = INFO.game_class()


class HighCardTogether(HighCard):  # type: ignore[misc, valid-type]
    """High Card with its picks simultaneous at the table (as SUPER COMPUTER's): the
    engine still takes them in seat order; the server lets every seat pick at once."""

    name = "highcard_together"
    title = "High Card, picks together (test toy)"
    simultaneous_kinds = frozenset({"decision", "pick", "lay"})


class HighCardInTurn(HighCard):  # type: ignore[misc, valid-type]
    """High Card with picks taken strictly in turn at the table, whatever the
    registry says (another test folder may register the template game in-process)."""

    simultaneous_kinds: frozenset[str] = frozenset()
