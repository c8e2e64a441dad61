"""The lab tests' toy game is the `cardlab new-game` template ("lay one secret
card a round, the highest scores"), scaffolded into a temporary directory. With
its option `may_pass` (PASSING) a seat may pass instead of laying (a turn that
moves no card and changes no score) and the game ends when every seat still to
lay has passed ("all passed") or after its last round ("all rounds played")."""

from __future__ import annotations

from cardlab.newgame import template_game

INFO = template_game("toylab", title="Toy Lab (lab test toy)")
ToyGame = INFO.game_class()
ToyState = type(ToyGame(2).new_initial_state(0))
PASSING = {"may_pass": True}
ALL_PASSED, ALL_ROUNDS = "all passed", "all rounds played"
