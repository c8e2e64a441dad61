"""Play a game at the terminal against bots.

Everything a human is shown comes from their own seat's view: the game's
`render.render_text(state, seat)`, the story of what happened since their last
move (the game's narrative of their observation, grouped by Deal or round),
and at the end the game's final breakdown built from their observation. Other
seats' moves are never printed as action labels: a bot's secret pick or kept
build reaches the screen only when the public log reveals it.

A decision with a single option is played for the human (it appears in the
story); choices are numbered; bad input is asked again.

The game's seed is never printed while the game runs (it deals every hidden card);
after the end it is shown with the command that plays the game again.
Bots' and views' generators come from the seed through `core.rng.derived_seed`, so
nothing a player sees predicts them, yet the same seed replays them exactly."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cardlab import story
from cardlab.agents import Agent, AgentSpec, agent_view
from cardlab.core import Game, GameState
from cardlab.core.narrative import FinalTable, NarrativeLine
from cardlab.core.registry import render_module
from cardlab.core.rng import derived_seed, seeded

InputFn = Callable[[str], str]

_CELL = re.compile(r"\bat \((-?\d+),\s*(-?\d+)\)")


_BOUNDARY = re.compile(r", |  +| \| |; ")
"""Where one card (or item) ends and the next begins in a screen line ("Cash 7, Tech 2",
the double space between Bench cards): a line is broken there first, so a card's name
and numbers stay on one line."""
_SOFT = re.compile(r"(?= (?:(?:for|on|at|with|and|or|then|from|to|under) |\())")
"""Next best: before a linking word ("trade Tech 6 | for Bench Cash 4") or a bracket."""
NBSP = "\u00a0"
"""A render joins with it what must not be broken ("K black", "+3 / -1"); shown as a space."""
_LEAD = re.compile(r"^(\s*(?:\d+\.\s+)?(?:[^:\[\]]{1,12}: )?)")
"""A line's head that continuation lines are indented under: its indent, a choice
number, and a short "Label: " prefix ("Your hand: ", "Bench: ")."""


class QuitGame(Exception):
    """The human asked to leave."""


def screen_width() -> int:
    """The terminal's width in columns ($COLUMNS first, then the terminal, else 80)."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def _last(pattern: re.Pattern[str], plain: str, start: int, limit: int) -> int:
    """The end of the last match of `pattern` in plain[start:limit] after some text, or 0."""
    ends = (
        m.end()
        for m in pattern.finditer(plain, start, limit + 1)
        if plain[start : m.start()].strip()
    )
    return max(ends, default=0)


def _breaks(plain: str, start: int, limit: int) -> int:
    """Where to end the piece of `plain` that starts at `start` and may reach `limit`:
    the last card boundary, else the last linking word, unless that leaves the line
    less than half full; else the last space; else `limit` (a very long word)."""
    half = start + (limit - start) // 2
    for pattern in (_BOUNDARY, _SOFT):
        end = _last(pattern, plain, start, limit)
        if end > half:
            return end
    space = plain.rfind(" ", start + 1, limit + 1)
    if space > start:
        return space + 1
    return _last(_BOUNDARY, plain, start, limit) or limit


def fit_line(markup: str, width: int) -> list[str]:
    """One line of rich markup as lines no wider than `width`, broken at card
    boundaries (", ", double spaces, " | ", "; ") before plain spaces (never at a
    no-break space), continuation lines indented under the line's head
    ("Your hand: ..."), never to column 0."""
    text = Text.from_markup(markup)
    plain = text.plain
    if text.cell_len <= width:
        return [markup.replace(NBSP, " ")]
    head = _LEAD.match(plain)
    indent = len(head.group(1)) if head else 0
    if indent > width // 2:
        indent = len(plain) - len(plain.lstrip()) + 4
    out: list[str] = []
    start, first = 0, True
    while start < len(plain):
        room = width if first else width - indent
        if len(plain) - start <= room:
            end = len(plain)
        else:
            end = _breaks(plain, start, start + room)
        piece = text[start:end]
        piece.rstrip()
        out.append(("" if first else " " * indent) + piece.markup.replace(NBSP, " "))
        start = end
        while start < len(plain) and plain[start] == " ":
            start += 1
        first = False
    return out


def fit_text(markup: str, width: int | None = None) -> str:
    """Every line of `markup` fitted to `width` (the terminal's, by default)."""
    width = width or screen_width()
    return "\n".join(piece for line in markup.split("\n") for piece in fit_line(line, width))


def ask_choice(
    labels: Sequence[str], read: InputFn, console: Console, help_text: str | None = None
) -> int:
    """Ask for a number 1..len(labels) until one is given; 'q' quits; '?' shows
    `help_text` (the game's key) again.

    Words narrow a long list: the choices whose label contains them are shown
    (with their numbers), and a single match is taken."""
    ask = (
        "Your choice (number or words; q quits; ? the key): "
        if help_text
        else "Your choice (number or words; q quits): "
    )
    while True:
        try:
            raw = read(ask)
            raw = raw.strip()
        except EOFError:
            raise QuitGame() from None
        if raw.lower() in ("q", "quit", "exit"):
            raise QuitGame()
        if raw == "?":
            console.print(fit_text(help_text or "No key for this game.", console.width))
            continue
        if raw.isdigit() and 1 <= int(raw) <= len(labels):
            return int(raw) - 1
        if raw and not raw.isdigit():
            found = [i for i, label in enumerate(labels) if raw.lower() in label.lower()]
            if len(found) == 1:
                console.print(fit_text(f"  {escape(labels[found[0]])}", console.width))
                return found[0]
            if found:
                for i in found:
                    line = f"  [bold]{i + 1:>2}[/bold]. {escape(labels[i])}"
                    console.print(fit_text(line, console.width))
                continue
            console.print(f"[red]No choice mentions {escape(raw)!r}.[/red]")
            continue
        console.print(f"[red]Please type a number from 1 to {len(labels)}.[/red]")


def action_kinds(labels: Sequence[str]) -> list[str]:
    """The kinds of move on offer now, by the first word of each label, in order."""
    kinds: list[str] = []
    for label in labels:
        word = label.split(" ", 1)[0].strip(":,") if label else ""
        if word and word not in kinds:
            kinds.append(word)
    return kinds


def one_of(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def print_story(console: Console, lines: Sequence[NarrativeLine], title: str) -> None:
    """Narrative lines under their Deal / round headings."""
    if not lines:
        return
    console.rule(title)
    for group, items in story.grouped(list(lines)):
        if group:
            console.print(fit_text(f"[bold]{escape(group)}[/bold]", console.width))
        for line in items:
            console.print(fit_text(f"  {escape(line.text)}", console.width))


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def placement_map(
    obs: dict[str, Any], seat: int, labels: Sequence[str], width: int | None = None
) -> str | None:
    """A plain grid of the seat's computer with each legal cell shown as its choice number.

    None unless some label names a cell ("... at (x,y)") and the observation
    carries the seat's computer as cells with x, y and a card."""
    targets = {}
    for i, label in enumerate(labels, 1):
        m = _CELL.search(label)
        if m:
            targets[(int(m.group(1)), int(m.group(2)))] = i
    if not targets:
        return None
    players = obs.get("players")
    computer = players[seat].get("computer") if isinstance(players, list) else None
    if not isinstance(computer, list):
        return None
    cells = {(c["x"], c["y"]): c["card"].get("name", "?") for c in computer if "card" in c}
    xs = [x for x, _ in (*cells, *targets)]
    ys = [y for _, y in (*cells, *targets)]
    columns = max(xs) - min(xs) + 1
    cell = max(6, min(12, ((width or screen_width()) - 6) // columns))
    rows = ["      " + "".join(f"{x:^{cell}}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        row = f"{y:>4}  "
        for x in range(min(xs), max(xs) + 1):
            if (x, y) in cells:
                row += f"[{_short(cells[(x, y)], cell - 2):^{cell - 2}}]"
            elif (x, y) in targets:
                row += f"{'<' + str(targets[(x, y)]) + '>':^{cell}}"
            else:
                row += " " * cell
        rows.append(row.rstrip())
    return "\n".join(rows)


def neighbours_phrase(obs: dict[str, Any], seat: int, x: int, y: int) -> str:
    """Which parts a cell touches, for naming a candidate placement ("below 24 GB GPU")."""
    players = obs.get("players")
    computer = players[seat].get("computer") if isinstance(players, list) else None
    if not isinstance(computer, list):
        return ""
    at = {(c["x"], c["y"]): c["card"].get("name", "?") for c in computer if "card" in c}
    sides = [
        ((x, y + 1), "above"),
        ((x, y - 1), "below"),
        ((x + 1, y), "left of"),
        ((x - 1, y), "right of"),
    ]
    near = [f"{word} {at[cell]}" for cell, word in sides if cell in at]
    return ", ".join(near)


def _ranked(final: FinalTable) -> list[Any]:
    return story.ranked_rows(final)  # fewest points first for a penalty-point game


def _seat_label(final: FinalTable, row: Any, you: int | None) -> str:
    mark = (" (you)" if row.seat == you else "") + (
        " ★ winner" if row.seat in final.winners else ""
    )
    return f"{escape(row.name)}{mark}"


def final_rich_table(final: FinalTable, you: int | None = None) -> Table:
    """The final breakdown: one row per seat, its parts, its total; winners starred."""
    table = Table(title="Final scores", show_lines=False)
    table.add_column("Seat", no_wrap=True)
    for column in final.columns:
        table.add_column(column, justify="right")
    table.add_column("Total", justify="right", style="bold")
    for row in _ranked(final):
        table.add_row(_seat_label(final, row, you), *(_num(p) for p in row.parts), _num(row.total))
    return table


def final_rich_table_by_column(final: FinalTable, you: int | None = None) -> Table:
    """The same breakdown turned on its side, one column per seat: for a terminal too
    narrow for one column per part (SUPER COMPUTER's nine at 80 columns would cut every
    heading to "pa…")."""
    rows = _ranked(final)
    table = Table(title="Final scores", show_lines=False)
    table.add_column("", no_wrap=True)
    for row in rows:
        table.add_column(_seat_label(final, row, you), justify="right")
    for i, column in enumerate(final.columns):
        table.add_row(escape(column), *(_num(r.parts[i]) for r in rows))
    table.add_row("[bold]Total[/bold]", *(f"[bold]{_num(r.total)}[/bold]" for r in rows))
    return table


def fitting_final_table(console: Console, final: FinalTable, you: int | None = None) -> Table:
    """One column per part when that fits the console, else one column per seat."""
    wide = final_rich_table(final, you)
    # measured without the console's limit (console.measure clamps to its width)
    natural = Measurement.get(console, console.options.update(max_width=10**6), wide)
    if natural.maximum <= console.width:
        return wide
    return final_rich_table_by_column(final, you)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def print_final(console: Console, state: GameState, seat: int | None) -> None:
    obs = state.public_observation() if seat is None else state.observation(seat)
    final = story.final_table(state.game.name, obs)
    if final is None:
        console.print(render_module(state.game.name).render_final(state))
        return
    console.print(fitting_final_table(console, final, seat))
    won = [
        f"you ({r.name})" if r.seat == seat else r.name
        for r in final.rows
        if r.seat in final.winners
    ]
    names = ", ".join(won) or "nobody"
    console.print(f"[bold]Winner{'s' if len(final.winners) > 1 else ''}: {escape(names)}[/bold]")
    if final.decided_by:
        console.print(f"Decided by: {escape(final.decided_by)}")
    for note in final.notes:
        console.print(fit_text(escape(note), console.width))


class SeatScreen:
    """What one human seat has been shown so far: the log index it has read up to,
    and whether it has been shown the game's key."""

    def __init__(self, game_name: str, seat: int) -> None:
        self.game_name, self.seat, self.seen = game_name, seat, 0
        self.shown_key = False

    def unseen(self, obs: dict[str, Any]) -> list[NarrativeLine]:
        lines = story.since(story.narrate(self.game_name, obs), self.seen)
        self.seen = len(obs.get("log") or [])
        return lines


def game_key(game_name: str) -> str | None:
    """The game's key to its screen (render.legend(), optional), e.g. connector letters."""
    fn = getattr(render_module(game_name), "legend", None)
    return fn() if callable(fn) else None


def choice_lines(
    game_name: str, labels: Sequence[str], extras: Sequence[str], width: int
) -> list[str]:
    """The numbered choices: grouped under headings when the game groups them
    (render.choice_groups, optional: RUNWAY's trade by Bench card and pile), else one
    a line. The number of a choice is its place in `labels` either way."""
    fn = getattr(render_module(game_name), "choice_groups", None)
    groups = fn(list(labels)) if callable(fn) else None
    if groups:
        out = []
        for heading, items in groups:
            out.extend(fit_line(f"  [bold]{escape(heading)}[/bold]:", width))
            cells = "  ".join(f"[bold]{i + 1:>2}[/bold]. {escape(text)}" for i, text in items)
            out.extend(fit_line("    " + cells, width))
        return out
    return [
        piece
        for i, label in enumerate(labels)
        for piece in fit_line(f"  [bold]{i + 1:>2}[/bold]. {escape(label)}{extras[i]}", width)
    ]


def prompt(
    state: GameState, screen: SeatScreen, console: Console, read: InputFn, clear: bool
) -> int:
    """Show the seat its view and the story since its last move; return the chosen action.

    Every line is fitted to the console's width (the terminal's) at card boundaries."""
    seat = screen.seat
    legal = state.legal_actions()
    obs = state.observation(seat)
    width = console.width
    if clear:
        console.clear()
    key = game_key(state.game.name)
    if key and not screen.shown_key:
        console.print(fit_text(key, width))
        screen.shown_key = True
    console.print(fit_text(render_module(state.game.name).render_text(state, seat), width))
    print_story(console, screen.unseen(obs), "Since your last move")
    labels = [state.action_to_string(a) for a in legal]
    console.rule(f"Seat {seat}: your decision ({escape(str(state.decision_kind()))})")
    grid = placement_map(obs, seat, labels, width)
    if grid is not None:
        console.print("Where it can go (numbers are your choices):")
        console.print(escape(grid), highlight=False)
    extras = []
    for label in labels:
        m = _CELL.search(label)
        near = neighbours_phrase(obs, seat, int(m.group(1)), int(m.group(2))) if m else ""
        extras.append(f" [dim]({escape(near)})[/dim]" if near else "")
    for line in choice_lines(state.game.name, labels, extras, width):
        console.print(line)
    kinds = action_kinds([label for label in labels if not _CELL.search(label)])
    if len(kinds) < len(labels) and any(_CELL.search(label) for label in labels):
        kinds.insert(0, "place it on a numbered cell")
    console.print(fit_text(f"You may {escape(one_of(kinds))}.", width))
    return legal[ask_choice(labels, read, console, key)]


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in `seat` of the game dealt by `seed` (a keyed hash of both)."""
    return derived_seed(seed, f"terminal-bot:{seat}")


def make_bots(
    num_players: int, human_seat: int, specs: Sequence[AgentSpec], seed: int
) -> list[Agent | None]:
    """One bot per seat but the human's, from `specs` cycled over the other seats in order."""
    if not specs:
        raise ValueError("make_bots needs at least one agent spec")
    others = [s for s in range(num_players) if s != human_seat]
    return [
        None if s == human_seat else specs[others.index(s) % len(specs)].make(bot_seed(seed, s))
        for s in range(num_players)
    ]


def print_replay(console: Console, seed: int, command: str | None) -> None:
    """After the end: the seed, and the command that deals and plays this game again."""
    console.print(f"This game's seed was {seed}.", highlight=False)
    if command:
        console.print("To play it again (the same moves of yours give the same game):")
        console.print(f"  {escape(command)}", soft_wrap=True, highlight=False)


def play_terminal(
    game: Game,
    human_seats: Sequence[int],
    bots: Sequence[Agent | None],
    seed: int,
    console: Console | None = None,
    read: InputFn = input,
    clear: bool = True,
    replay_command: str | None = None,
) -> GameState:
    """Run one game; `bots[seat]` plays the seats not in `human_seats`.

    The seed is shown only once the game is over (ended or left), with
    `replay_command` when given."""
    console = console or Console()
    state = game.new_initial_state(seed)
    view_rng = seeded(derived_seed(seed, "terminal-views"))
    screens = {seat: SeatScreen(game.name, seat) for seat in human_seats}
    try:
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]  # nothing to decide: the log tells what happened
            elif seat in screens:
                action = prompt(state, screens[seat], console, read, clear)
            else:
                bot = bots[seat]
                assert bot is not None
                action = bot.step(agent_view(state, seat, view_rng))
            state.apply_action(action)
    except QuitGame:
        console.print("Left the game.")
        print_replay(console, seed, replay_command)
        return state
    if clear:
        console.clear()
    viewer = next(iter(screens), None)
    if viewer is not None:
        print_story(console, screens[viewer].unseen(state.observation(viewer)), "The end")
    print_final(console, state, viewer)
    print_replay(console, seed, replay_command)
    return state
