"""The table socket protocol.

1. The client opens /ws/<table> from a page of this server (Origin checked).
2. Its first message binds the socket, once and for all, to one audience:
   {"type": "hello", "seat": 2, "token": "..."} or
   {"type": "hello", "role": "spectator" | "host", "token": "..."}.
3. Then: {"type": "act", "action": 17, "seq": 42}  (seq = steps the client has seen),
   {"type": "sync"}, {"type": "replay", "step": 10}, {"type": "hand_to_bot", "seat": 1,
   "agent": "greedy"}, {"type": "reclaim"}.
Every refusal is an {"type": "error"} frame naming the reason; the state is untouched."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab.core.errors import CardlabError
from cardlab.web import security
from cardlab.web.hub import Connection, Hub
from cardlab.web.table import Refused
from cardlab.web.views import player_view, seal

log = logging.getLogger("cardlab.web")

HELLO_SECONDS = 10.0
FLOOD_CLOSE_AFTER = 500
"""Refused messages after which a flooding socket is closed (code 1008)."""


async def table_socket(ws: WebSocket, hub: Hub, allowed_origins: frozenset[str]) -> None:
    await ws.accept()
    conn = Connection(send_text=ws.send_text, limiter=hub.new_limiter())
    writer = asyncio.create_task(conn.writer())
    try:
        origin = ws.headers.get("origin")
        if not security.origin_allowed(origin, ws.headers.get("host"), allowed_origins):
            await _refuse(ws, f"origin {origin!r} may not open table sockets", 4403)
            return
        table = hub.tables.get(ws.path_params.get("table_id", ""))
        if table is None:
            await _refuse(ws, "no such table (tables are created from the lobby)", 4404)
            return
        conn.table = table
        if not await _hello(ws, hub, conn):
            return
        hub.attach(conn)
        hub.send_view(conn)
        await hub.broadcast(table)  # others see this seat connected
        await _serve(ws, hub, conn)
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        conn.push(None)  # type: ignore[arg-type]
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if conn.table is not None and conn.role != "none":
            with contextlib.suppress(Exception):
                await hub.broadcast(conn.table)


async def _refuse(ws: WebSocket, message: str, code: int) -> None:
    await ws.send_text(json.dumps({"type": "error", "error": message, "fatal": True}))
    await ws.close(code)


async def _receive(ws: WebSocket) -> str | bytes | None:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    return msg.get("text") if msg.get("text") is not None else msg.get("bytes")


async def _hello(ws: WebSocket, hub: Hub, conn: Connection) -> bool:
    """Bind the socket to the audience its token proves, or refuse and close."""
    table = conn.table
    assert table is not None
    try:
        raw = await asyncio.wait_for(_receive(ws), HELLO_SECONDS)
        msg = security.parse_message(raw)
        if msg["type"] != "hello":
            raise security.BadMessage('the first message must be {"type": "hello", ...}')
        if "seat" in msg:
            seat = security.int_field(msg, "seat")
            if not 0 <= seat < table.record.players:
                raise security.BadMessage(f"this table has seats 0..{table.record.players - 1}")
            role = f"seat{seat}"
        else:
            role = msg.get("role")
            if role not in ("spectator", "host"):
                raise security.BadMessage('hello needs a "seat" or a "role" of spectator/host')
            seat = None
    except TimeoutError:
        await _refuse(ws, "no hello within 10 seconds", 4408)
        return False
    except security.BadMessage as exc:
        await _refuse(ws, str(exc), 4400)
        return False
    if not hub.check_token(table, role, msg.get("token")):
        await _refuse(ws, "that invitation is not valid for this seat", 4401)
        return False
    conn.seat, conn.role = seat, ("seat" if seat is not None else role)
    return True


async def _serve(ws: WebSocket, hub: Hub, conn: Connection) -> None:
    while True:
        raw = await _receive(ws)
        if not conn.limiter.allow():
            if conn.limiter.refused >= FLOOD_CLOSE_AFTER:
                await ws.close(1008)
                return
            hub.send_error(conn, "too many messages: slow down (this one was ignored)")
            continue
        try:
            msg = security.parse_message(raw)
            await _dispatch(hub, conn, msg)
        except (security.BadMessage, Refused, CardlabError) as exc:
            hub.send_error(conn, str(exc))


async def _dispatch(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    table = conn.table
    assert table is not None
    kind = msg["type"]
    if "seat" in msg and msg["seat"] != conn.seat and kind != "hand_to_bot":
        raise Refused(
            f"this connection belongs to {_audience(conn)}; it cannot speak for seat {msg['seat']!r}"
        )
    if kind == "act":
        if conn.seat is None:
            raise Refused("spectators and hosts cannot make moves")
        action = security.int_field(msg, "action")
        seq = security.int_field(msg, "seq")
        try:
            await table.submit(conn.seat, action, seq, by="human")
        except Refused:
            hub.send_view(conn)  # the client's view may be stale: refresh it
            raise
    elif kind == "sync":
        hub.send_view(conn)
    elif kind == "replay":
        _send_replay(table, conn, security.int_field(msg, "step"))
    elif kind == "hand_to_bot":
        await _hand_to_bot(hub, conn, msg)
    elif kind == "reclaim":
        if conn.seat is None or not table.is_bot(conn.seat):
            raise Refused("only a seat that was handed to a bot can be reclaimed")
        await table.set_seat(conn.seat, {"kind": "human", "agent": None, "params": {}})
    elif kind == "hello":
        raise Refused(f"this connection is already bound to {_audience(conn)}")
    elif kind != "ping":
        raise security.BadMessage(f"unknown message type {kind!r}")


def _audience(conn: Connection) -> str:
    return f"seat {conn.seat}" if conn.seat is not None else f"the {conn.role}"


def _send_replay(table: Any, conn: Connection, step: int) -> None:
    """A finished game, step by step, as this audience saw it at each step."""
    if not table.state.is_terminal():
        raise Refused("the replay opens when the game is over")
    state = table.state_at(step)
    view = player_view(state, conn.seat, table.public_info())
    view.update(type="replay", step=len(state.history()), steps=table.seq)
    conn.push(seal(state, conn.seat, view))


async def _hand_to_bot(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    table = conn.table
    assert table is not None
    seat = security.int_field(msg, "seat")
    if conn.role != "host" and seat != conn.seat:
        raise Refused("only the host or the seat itself can hand a seat to a bot")
    if not 0 <= seat < table.record.players or table.is_bot(seat):
        raise Refused(f"seat {seat} is not a human seat at this table")
    agent = msg.get("agent", "greedy")
    if agent not in ("random", "greedy"):
        raise Refused('a seat can be handed to a "random" or "greedy" bot')
    await table.set_seat(seat, {"kind": "bot", "agent": agent, "params": {}})
