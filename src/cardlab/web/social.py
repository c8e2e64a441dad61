"""What players do around the game: chat, the host's mute, and the rematch.

Chat: seats and the host write, spectators read. A message is cleaned like a
seat name (`security.clean_name`: no control or format characters, whitespace
runs as one space), at most `CHAT_LIMIT` characters, rate-limited per socket,
stored (the latest `store.CHAT_KEEP` per table) and sent to each socket through
`views.seal` for that socket's audience, so a card id hidden from a reader is
redacted from what it reads (a player typing out their own hand is theirs to
do; the seal still runs). The client draws it as text, never as HTML.

Rematch: at a finished table any seat or the host asks; the first ask makes a
new table with the same seats (humans stay humans, a seat handed to a bot is a
human's again, bots keep their kind and strength), the same options and
variant, and a new secret seed, counted against the limits of whoever made the
first table. Each asker gets its own new link, on its own socket only: a seat
proves itself with its old link, and asking again gives a fresh link for the
same seat (the earlier one stops working, and a socket opened with it is closed),
so a player who was away still gets in. Nobody else's link is ever sent. A seat the
host took over (reissued its link) is marked so at the rematch when it asks."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from cardlab.web import security
from cardlab.web.offers import stored_variant
from cardlab.web.store import TableRecord
from cardlab.web.table import Refused, Table
from cardlab.web.views import seal

if TYPE_CHECKING:
    from cardlab.web.hub import Connection, Hub

CHAT_LIMIT = 200
"""Longest chat message, in characters, after cleaning."""

CHAT_HISTORY = 50
"""Messages a socket gets when it joins."""


def speaker(table: Table, conn: Connection) -> str:
    if conn.seat is None:
        return "Host"
    name = table.seats[conn.seat].get("name") or f"Seat {conn.seat}"
    return security.clean_name(name) or f"Seat {conn.seat}"


def clean_chat(raw: Any) -> str:
    """The text of a chat message, cleaned; BadMessage if it is empty or too long."""
    if not isinstance(raw, str):
        raise security.BadMessage('"text" must be a string')
    text = security.clean_name(raw, limit=CHAT_LIMIT * 2)
    if not text:
        raise security.BadMessage("an empty chat message was not sent")
    if len(text) > CHAT_LIMIT:
        raise security.BadMessage(
            f"chat messages are at most {CHAT_LIMIT} characters (this one has {len(text)})"
        )
    return text


def reissued(table: Table) -> list[int]:
    """Seats whose link the host replaced (`Hub.revoke`): whoever plays them may be the host."""
    return sorted(int(s) for s in table.record.settings.get("reissued", []))


def muted(table: Table) -> list[int]:
    return sorted(int(s) for s in table.record.settings.get("muted", []))


def chat_frame(table: Table, seat: int | None, messages: list[dict[str, Any]]) -> str:
    """Chat lines for one audience, sealed against the cards hidden from it now."""
    payload = {"type": "chat", "messages": messages, "muted": muted(table)}
    return seal(table.state, seat, payload)


def send_history(hub: Hub, conn: Connection) -> None:
    """A joining socket gets the latest messages (nothing at a table without chat)."""
    table = conn.table
    assert table is not None
    history = hub.store.load_chat(table.id, CHAT_HISTORY)
    if history or muted(table):
        conn.push(chat_frame(table, conn.seat, history))


async def chat(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    table = conn.table
    assert table is not None
    if conn.role not in ("seat", "host"):
        raise Refused("spectators read the chat but cannot write in it")
    if conn.seat is not None and conn.seat in muted(table):
        raise Refused("the host has muted your seat in this table's chat")
    text = clean_chat(msg.get("text"))
    if not conn.chat_limiter.allow():
        raise Refused("too many chat messages: wait a moment (this one was not sent)")
    line = hub.store.add_chat(table.id, conn.seat, speaker(table, conn), text)
    frames: dict[int | None, str] = {}
    for other in list(hub.sockets.get(table.id, ())):
        if other.seat not in frames:
            frames[other.seat] = chat_frame(table, other.seat, [line])
        other.push(frames[other.seat])


async def mute(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    """The host mutes (or, with "muted": false, unmutes) a seat in the chat."""
    table = conn.table
    assert table is not None
    if conn.role != "host":
        raise Refused("only the host can mute a seat")
    seat = security.int_field(msg, "seat")
    if not 0 <= seat < table.record.players:
        raise Refused(f"this table has seats 0..{table.record.players - 1}")
    on = msg.get("muted", True)
    if not isinstance(on, bool):
        raise security.BadMessage('"muted" must be true or false')
    now = set(muted(table))
    now = now | {seat} if on else now - {seat}
    table.record.settings["muted"] = sorted(now)
    hub.store.update_settings(table.id, table.record.settings)
    for other in list(hub.sockets.get(table.id, ())):
        other.push(chat_frame(table, other.seat, []))
    await hub.broadcast(table)


def rematch(hub: Hub, conn: Connection) -> None:
    """Make (once) the finished table's rematch and send the asker its own link."""
    table = conn.table
    assert table is not None
    if conn.role not in ("seat", "host"):
        raise Refused("a rematch is offered by a seat or the host, not a spectator")
    if not table.state.is_terminal():
        raise Refused("a rematch can be offered once the game is over")
    if conn.seat is not None and not table.human_seat(conn.seat):
        raise Refused("this seat is a bot's")
    made = table.record.settings.get("rematch")
    fresh = not isinstance(made, str)
    new_id = made if isinstance(made, str) else make_rematch(hub, table)
    if fresh:
        table.record.settings["rematch"] = new_id
        hub.store.update_settings(table.id, table.record.settings)
    role = f"seat{conn.seat}" if conn.seat is not None else "host"
    token = security.new_token()
    hub.store.replace_token(new_id, role, security.hash_token(token))
    new = hub.tables.get(new_id)
    if new is not None:
        # The earlier link of this seat (or host) at the new table stops working now:
        # a socket opened with it (another device, or a host who reissued the seat) is
        # told and closed.
        hub.drop_sockets(
            new, role, "a newer rematch link for this seat was asked for; this one is closed"
        )
        if conn.seat is not None and conn.seat in reissued(table):
            # A seat the host took over here is marked at the rematch too.
            marked = set(reissued(new)) | {conn.seat}
            new.record.settings["reissued"] = sorted(marked)
            hub.store.update_settings(new.id, new.record.settings)
    link: dict[str, Any] = {"type": "rematch_link", "table": new_id, "token": token}
    if conn.seat is not None:
        link["seat"] = conn.seat
    else:
        link["role"] = "host"
    conn.push(json.dumps(link))
    if fresh:  # everyone sees that a rematch is on offer (never its links)
        offer = json.dumps({"type": "rematch_offered", "by": speaker(table, conn)})
        for other in list(hub.sockets.get(table.id, ())):
            if other is not conn:
                other.push(offer)


def rematch_seats(table: Table) -> list[dict[str, Any]]:
    seats = []
    for i, s in enumerate(table.seats):
        if table.human_seat(i):
            seats.append({"kind": "human", "name": s.get("name") or f"Player {i}"})
        else:
            seats.append(
                {
                    "kind": "bot",
                    "agent": s.get("agent"),
                    "params": dict(s.get("params") or {}),
                    "name": s.get("name"),
                }
            )
    return seats


def make_rematch(hub: Hub, table: Table) -> str:
    """A new live table like `table` with a new seed; the creator's limits apply."""
    old = table.record
    client = old.client or old.id
    hub.check_room(client)
    # Links and marks belong to one table: none of them is carried to the rematch.
    settings = {
        k: v
        for k, v in old.settings.items()
        if k not in ("rematch", "muted", "revoked", "reissued")
    }
    settings["rematch_of"] = old.id
    game = hub.offers.make(
        old.game,
        old.players,
        old.options,
        stored_variant(settings),
        cards=hub.store.table_cards(old),
    )
    rec = TableRecord(
        id=security.new_table_id(),
        game=old.game,
        players=game.num_players,
        options=game.options,
        seed=security.new_seed(),
        seats=rematch_seats(table),
        settings=settings,
        created=time.time(),
        client=client,
    )
    # Seats' links are made when each asks (`rematch`); spectators' and host's now.
    tokens = {"spectator": security.new_token(), "host": security.new_token()}
    hub.add_table(rec, {role: security.hash_token(t) for role, t in tokens.items()})
    return rec.id
