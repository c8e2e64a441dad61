"""Per-game personas: bots with distinct, documented strategies. Each module
here registers its kinds with `register_agent`; importing this package loads
them all."""

import importlib
import pkgutil

for _mod in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_mod.name}")
