"""The UPTIME terminal screen, drawn only from `state.observation(seat)` so it
can never show what that seat may not know; and the final score table."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from cardlab.games.uptime import scoring


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
        pts = pl["points"]
        lines.append(
            f"  {who}{first}: [bold]{pts['total']} pts[/bold] "
            f"(Computers {pts['computers']}, Network {pts['network']}, Contracts {pts['contracts']}, "
            f"leftovers {pts['leftovers']}); hand {pl['hand_materials']} materials + "
            f"{pl['hand_patches']} Patches; Draw/Pass {pl['draw_pass_actions']}"
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
    """Final score table; names the tie-break level when one decided."""
    winner, level = scoring.rank(state)
    info = state.info()
    lines = [f"[bold]UPTIME final scores[/bold] (game ended: {info['end_reason']})", ""]
    lines.append(
        f"{'Seat':<6}{'Total':>6}{'Comp':>6}{'Net':>5}{'Contr':>7}{'Left':>6}"
        f"{'#Comp':>7}{'#Contr':>8}{'Draw/Pass':>11}"
    )
    order = sorted(range(state.n), key=lambda q: (q != winner, -info["points"][q]["total"]))
    for q in order:
        pts = info["points"][q]
        mark = "  [bold green]winner[/bold green]" if q == winner else ""
        lines.append(
            f"{q:<6}{pts['total']:>6}{pts['computers']:>6}{pts['network']:>5}{pts['contracts']:>7}"
            f"{pts['leftovers']:>6}{info['computers'][q]:>7}{info['contracts'][q]:>8}"
            f"{info['draw_pass_actions'][q]:>11}{mark}"
        )
    lines.append("")
    if level is None:
        lines.append(f"Seat {winner} wins on points.")
    else:
        lines.append(
            f"Tie on points; decided by the tie-break: {level.replace('_', ' ')}. Seat {winner} wins."
        )
    return "\n".join(lines)
