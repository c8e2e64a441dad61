"""The UPTIME terminal screen, drawn only from `state.observation(seat)` so it
can never show what that seat may not know; and the final score table."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from cardlab.games.uptime.view import final_table, points_phrase


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _card(c: dict[str, Any]) -> str:
    name = escape(c["name"])
    kind = c["kind"]
    if kind == "component":
        return f"[cyan]{name}[/cyan] ({'+'.join(c['cost'])})"
    if kind == "computer":
        return f"[bold green]{name}[/bold green] ({c['ability']}, {c['points']} pts)"
    if kind == "network":
        per = " per Computer" if c.get("per_computer") else ""
        return f"[magenta]{name}[/magenta] (cost {c['cost']}, {c['points']} pts{per})"
    if kind == "contract":
        return f"[yellow]{name}[/yellow] (Contract, value {c['value']})"
    if kind == "patch":
        return f"[bold]{name}[/bold] (wild)"
    return name


def render_text(state: Any, seat: int) -> str:
    obs = state.observation(seat)
    lines = [
        f"[bold]UPTIME[/bold] round {obs['round']}, {obs['num_players']} players, "
        f"you are Seat {seat}. Supply Deck: {obs['supply_deck_count']}, "
        f"Build Deck: {obs['build_deck_count']}, supply discard: {len(obs['supply_discard'])}"
    ]
    if obs["end_triggered"]:
        lines.append(f"[red]Final round: the end was triggered ({obs['end_triggered']}).[/red]")
    if obs["supply_shortage_pending"]:
        lines.append("[red]Supply Shortage pending: the next claim is not refilled.[/red]")
    lines.append("")
    lines.append("[bold]Build Row[/bold]")
    for slot in obs["build_row"]:
        card = _card(slot["card"]) if slot["card"] else "[dim](empty)[/dim]"
        mark = (
            f"  [red][reserved by Seat {slot['reserved_by']}][/red]"
            if slot["reserved_by"] is not None
            else ""
        )
        lines.append(f"  {slot['slot'] + 1}. {card}{mark}")
    lines.append("")
    hand = ", ".join(_card(c) for c in obs["hand"]) or "(empty)"
    lines.append(f"[bold]Your hand:[/bold] {hand}")
    lines.append("")
    lines.append("[bold]Tableaus[/bold]")
    for pl in obs["players"]:
        who = "You" if pl["seat"] == seat else f"Seat {pl['seat']}"
        first = " (first player)" if pl["seat"] == obs["first_player"] else ""
        lines.append(
            f"  {who}{first}: [bold]{escape(points_phrase(pl['points']))}[/bold]; "
            f"hand {_count(pl['hand_materials'], 'material')} + "
            f"{_count(pl['hand_patches'], 'Patch', 'Patches')}; "
            f"{_count(pl['computers'], 'Computer')}; Draw/Pass actions {pl['draw_pass_actions']}"
            + ("; Tower discount ready" if pl["tower_discount"] else "")
        )
        cards = ", ".join(_card(c) for c in pl["tableau"]) or "(nothing built)"
        lines.append(f"      {cards}")
    if obs["auction"]:
        a = obs["auction"]
        lines.append("")
        lines.append(
            f"[bold]Auction[/bold] for {_card(a['contract'])}: high bid {a['high_bid']} "
            f"by Seat {a['high_bidder']}; still to answer: {a['still_to_answer']}"
        )
    lines.append("")
    lines.append(escape(obs["decision"]))
    return "\n".join(lines)


def render_final(state: Any) -> str:
    """Final score table from the public view: points by source (they add up to the total),
    the tie-break facts, and the line that decided (U17)."""
    obs = state.public_observation()
    table = final_table(obs)
    players = obs["players"]
    reason = obs["end_triggered"] or ""
    lines = [f"[bold]UPTIME final scores[/bold] (game ended: {escape(reason)})", ""]
    head = "".join(f"{c:>11}" for c in table.columns)
    lines.append(f"{'Seat':<8}{head}{'Total':>7}{'Computers built':>17}{'Contracts won':>15}")
    lines[-1] += f"{'Draw/Pass':>11}"
    for row in sorted(table.rows, key=lambda r: (r.seat not in table.winners, -r.total)):
        pl = players[row.seat]
        parts = "".join(f"{int(p):>11}" for p in row.parts)
        mark = "  [bold green]winner[/bold green]" if row.seat in table.winners else ""
        lines.append(
            f"{row.name:<8}{parts}{int(row.total):>7}{pl['computers']:>17}{pl['contracts']:>15}"
            f"{pl['draw_pass_actions']:>11}{mark}"
        )
    lines.append("")
    lines.append(escape(table.decided_by) + ".")
    lines.extend(escape(note) for note in table.notes)
    return "\n".join(lines)
