"""The browser table: a Starlette app where people play cardlab games with
friends and bots. The server owns every true game state; each socket only ever
receives what its seat may know (see `views.py`), and every accepted action is
committed to SQLite before anyone hears of it (see `store.py`)."""
