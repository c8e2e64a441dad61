"""Adapters that put cardlab games behind the interfaces RL and game-AI
researchers already use: PettingZoo (`cardlab.adapters.pettingzoo`),
Gymnasium (`cardlab.adapters.gymnasium`) and OpenSpiel
(`cardlab.adapters.openspiel`).

They need the optional extra ``cardlab[rl]``; this package itself imports none
of them, so the core stays light. All adapters share one observation encoding
per game (`cardlab.adapters.encoding`), built only from ``observation(p)``.
"""
