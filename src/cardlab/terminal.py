"""Play a game at the terminal against bots.

Everything a human is shown comes from their own seat's view: the game's
`render.render_text(state, seat)`, the story of what happened since their last
move (the game's narrative of their observation, grouped by Deal or round),
and at the end the game's final breakdown built from their observation. Other
seats' moves are never printed as action labels: a bot's secret pick or kept
build reaches the screen only when the public log reveals it.

A decision with a single option is played for the human (it appears in the
story); choices are numbered; bad input is asked again.

The game's seed is never printed while the game runs (it deals every hidden card,
issue 23); after the end it is shown with the command that plays the game again.
Bots' and views' generators come from the seed through `core.rng.derived_seed`, so
nothing a player sees predicts them, yet the same seed replays them exactly."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from cardlab import story
from cardlab.agents import Agent, AgentSpec, agent_view
from cardlab.core import Game, GameState
from cardlab.core.narrative import FinalTable, NarrativeLine
from cardlab.core.rng import derived_seed, seeded
from cardlab.games import render_module

InputFn = Callable[[str], str]

_CELL = re.compile(r"\bat \((-?\d+),\s*(-?\d+)\)")


class QuitGame(Exception):
    """The human asked to leave."""


def ask_choice(labels: Sequence[str], read: InputFn, console: Console) -> int:
    """Ask for a number 1..len(labels) until one is given; 'q' quits.

    Words narrow a long list: the choices whose label contains them are shown
    (with their numbers), and a single match is taken."""
    while True:
        try:
            raw = read("Your choice (number, or words to narrow the list; q to quit): ").strip()
        except EOFError:
            raise QuitGame() from None
        if raw.lower() in ("q", "quit", "exit"):
            raise QuitGame()
        if raw.isdigit() and 1 <= int(raw) <= len(labels):
            return int(raw) - 1
        if raw and not raw.isdigit():
            found = [i for i, label in enumerate(labels) if raw.lower() in label.lower()]
            if len(found) == 1:
                console.print(f"  {escape(labels[found[0]])}")
                return found[0]
            if found:
                for i in found:
                    console.print(f"  [bold]{i + 1:>2}[/bold]. {escape(labels[i])}")
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
            console.print(f"[bold]{escape(group)}[/bold]")
        for line in items:
            console.print(f"  {escape(line.text)}")


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def placement_map(obs: dict[str, Any], seat: int, labels: Sequence[str]) -> str | None:
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
    width = 12
    rows = ["      " + "".join(f"{x:^{width}}" for x in range(min(xs), max(xs) + 1))]
    for y in range(min(ys), max(ys) + 1):
        row = f"{y:>4}  "
        for x in range(min(xs), max(xs) + 1):
            if (x, y) in cells:
                row += f"[{_short(cells[(x, y)], width - 2):^{width - 2}}]"
            elif (x, y) in targets:
                row += f"{'<' + str(targets[(x, y)]) + '>':^{width}}"
            else:
                row += " " * width
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
    return sorted(final.rows, key=lambda r: (r.seat not in final.winners, -r.total))


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
        console.print(escape(note))


class SeatScreen:
    """What one human seat has been shown so far: the log index it has read up to."""

    def __init__(self, game_name: str, seat: int) -> None:
        self.game_name, self.seat, self.seen = game_name, seat, 0

    def unseen(self, obs: dict[str, Any]) -> list[NarrativeLine]:
        lines = story.since(story.narrate(self.game_name, obs), self.seen)
        self.seen = len(obs.get("log") or [])
        return lines


def prompt(
    state: GameState, screen: SeatScreen, console: Console, read: InputFn, clear: bool
) -> int:
    """Show the seat its view and the story since its last move; return the chosen action."""
    seat = screen.seat
    legal = state.legal_actions()
    obs = state.observation(seat)
    if clear:
        console.clear()
    console.print(render_module(state.game.name).render_text(state, seat))
    print_story(console, screen.unseen(obs), "Since your last move")
    labels = [state.action_to_string(a) for a in legal]
    console.rule(f"Seat {seat}: your decision ({escape(str(state.decision_kind()))})")
    grid = placement_map(obs, seat, labels)
    if grid is not None:
        console.print("Where it can go (numbers are your choices):")
        console.print(escape(grid), highlight=False)
    for i, label in enumerate(labels, 1):
        m = _CELL.search(label)
        near = neighbours_phrase(obs, seat, int(m.group(1)), int(m.group(2))) if m else ""
        extra = f" [dim]({escape(near)})[/dim]" if near else ""
        console.print(f"  [bold]{i:>2}[/bold]. {escape(label)}{extra}")
    kinds = action_kinds([label for label in labels if not _CELL.search(label)])
    if len(kinds) < len(labels) and any(_CELL.search(label) for label in labels):
        kinds.insert(0, "place it on a numbered cell")
    console.print(f"You may {escape(one_of(kinds))}.")
    return legal[ask_choice(labels, read, console)]


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
