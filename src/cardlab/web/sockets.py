"""The table socket protocol.

1. The client opens /ws/<table> from a page of this server (Origin checked).
2. Its first message binds the socket, once and for all, to one audience:
   {"type": "hello", "seat": 2, "token": "..."} or
   {"type": "hello", "role": "spectator" | "host", "token": "..."}.
   A seat and the host have one live socket each: a newer hello replaces the older
   socket, which gets a fatal error frame saying why and close code 4409.
3. Then: {"type": "act", "action": 17, "seq": 42}  (seq = the step of the frame whose
   `legal` offered the move; during a simultaneous decision every seat with `legal`
   may send its choice at once, and any frame since the decision began is current),
   {"type": "sync"}, {"type": "replay", "step": 10}, {"type": "reclaim"} (a seat that
   was handed to a bot and may take itself back), {"type": "hand_to_bot", "seat": 1,
   "agent": "greedy"} (the seat itself, or the host).
   The host alone: {"type": "hand_back", "seat": 1} (a bot seat returns to its human),
   {"type": "allow_reclaim", "seat": 1}, {"type": "revoke", "seat": 1} (a new link for
   the seat; the old one stops working at once, its socket told why; answered with
   {"type": "link", "seat": 1, "token": "..."} to the host alone; every frame marks
   the seat in `table.reissued`), {"type": "revoke", "role": "spectator" | "host"}
   (the same for the spectator link or the host's own: every socket of the old link
   but the asker's is closed; {"type": "link", "role": ..., "token": ...}),
   {"type": "mute", "seat": 1,
   "muted": true} (the seat's chat messages are refused until unmuted).
   Around the game (social.py): {"type": "chat", "text": "..."} (a seat or the host;
   at most 200 characters; chat frames {"type": "chat", "messages": [...]} go to every
   socket, sealed per audience), {"type": "undo"} (the seat's own last move, while
   nothing was revealed and nobody acted since; `can_undo` in its frame says when),
   {"type": "rematch"} (a finished table; answered with {"type": "rematch_link",
   "table": ..., "seat": N, "token": ...} to the asker alone).
Every refusal is an {"type": "error"} frame naming the reason; the state is untouched.
A closed table (finished, or closed after standing idle) refuses every message that would
change it with "this table is closed: ..." before anything else (`Table.refusal`).
A socket the server ends gets a fatal error frame and a close code first, always."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab.core.errors import CardlabError
from cardlab.web import security, social
from cardlab.web.feedback import SurveyRefused, answer_survey
from cardlab.web.gate import AllowedHosts
from cardlab.web.hub import Connection, Hub
from cardlab.web.limits import SocketCount
from cardlab.web.table import Refused
from cardlab.web.views import player_view, seal

log = logging.getLogger("cardlab.web")

HELLO_SECONDS = 10.0
FLOOD_CLOSE_AFTER = 500
"""Refused messages after which a flooding socket is closed (code 1008)."""


async def table_socket(
    ws: WebSocket,
    hub: Hub,
    allowed_origins: frozenset[str],
    hosts: AllowedHosts | None = None,
    client: str = "local",
    counts: SocketCount | None = None,
) -> None:
    """Serve one table socket; `client` is its per-client key, counted in `counts`
    (the per-address socket cap) for as long as the socket is open."""
    await ws.accept()
    conn = hub.new_connection(ws.send_text, ws.close)
    writer = asyncio.create_task(conn.writer())
    counted = False
    try:
        if counts is not None:
            counted = counts.take(client)
            if not counted:
                await _refuse(
                    ws,
                    f"too many table connections from your address (limit {counts.cap}); "
                    "close a table tab and try again",
                    4429,
                )
                return
        origin = ws.headers.get("origin")
        if not security.origin_allowed(origin, ws.headers.get("host"), allowed_origins, hosts):
            await _refuse(ws, f"origin {origin!r} may not open table sockets", 4403)
            return
        table = hub.tables.get(ws.path_params.get("table_id", ""))
        if table is None:
            await _refuse(ws, "no such table (tables are created from the lobby)", 4404)
            return
        conn.table = table
        if not await _hello(ws, hub, conn):
            return
        full = hub.attach(conn)
        if full is not None:
            conn.role = "none"
            await _refuse(ws, full, 4429)
            return
        hub.send_view(conn)
        social.send_history(hub, conn)
        await hub.broadcast(table)  # others see this seat connected
        await _serve(ws, hub, conn)
    except WebSocketDisconnect:
        pass
    except Exception:  # never drop a socket without saying why
        log.exception("table socket failed")
        with contextlib.suppress(Exception):
            await _refuse(ws, "the server could not handle that message", 1011)
    finally:
        if counted and counts is not None:
            counts.give(client)
        hub.detach(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(writer), 0.5)  # let a close order finish
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
            asked = msg.get("role")
            if not isinstance(asked, str) or asked not in ("spectator", "host"):
                raise security.BadMessage('hello needs a "seat" or a "role" of spectator/host')
            role = asked
            seat = None
    except TimeoutError:
        await _refuse(ws, "no hello within 10 seconds", 4408)
        return False
    except security.BadMessage as exc:
        await _refuse(ws, str(exc), 4400)
        return False
    if not hub.check_token(table, role, msg.get("token")):
        await _refuse(ws, hub.token_refusal(table, role, msg.get("token")), 4401)
        return False
    conn.seat, conn.role = seat, ("seat" if seat is not None else role)
    return True


async def _serve(ws: WebSocket, hub: Hub, conn: Connection) -> None:
    while True:
        raw = await _receive(ws)
        if conn.closed:  # replaced by a newer socket, revoked, or stuck
            await asyncio.sleep(0.05)
            return
        if not conn.limiter.allow():
            if conn.limiter.refused >= FLOOD_CLOSE_AFTER:
                await _refuse(ws, "too many messages; this socket is closed", 1008)
                return
            hub.send_error(conn, "too many messages: slow down (this one was ignored)")
            continue
        try:
            msg = security.parse_message(raw)
            conn.acting = True
            await _dispatch(hub, conn, msg)
        except (security.BadMessage, Refused, CardlabError) as exc:  # TooMany is one
            # A refused move's view may be stale: refresh it, within the error budget
            # (a refusal the budget leaves unanswered gets no frame at all).
            if isinstance(exc, StaleMove) and conn.error_limiter.ready():
                hub.send_view(conn)
            hub.send_error(conn, str(exc))
        finally:
            conn.acting = False


async def _dispatch(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    table = conn.table
    assert table is not None
    kind = msg["type"]
    closed = table.refusal(kind)  # a closed table refuses every change, with its reason
    if closed is not None:
        raise Refused(closed)
    if "seat" in msg and msg["seat"] != conn.seat and kind not in SEAT_NAMING:
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
        except Refused as exc:
            raise StaleMove(str(exc)) from None
    elif kind in ("sync", "replay"):
        if not conn.sync_limiter.allow():
            raise Refused(f"too many {kind} requests: slow down (this one was ignored)")
        if kind == "sync":
            hub.send_view(conn)
        else:
            _send_replay(table, conn, security.int_field(msg, "step"))
    elif kind == "hand_to_bot":
        await _hand_to_bot(hub, conn, msg)
    elif kind == "reclaim":
        if conn.seat is None or not table.is_bot(conn.seat):
            raise Refused("only a seat that was handed to a bot can be reclaimed")
        if not table.seats[conn.seat].get("reclaim"):
            raise Refused("the host handed this seat to a bot; only the host can hand it back")
        await table.set_seat(conn.seat, HUMAN, expect_bot=True)
    elif kind == "chat":
        await social.chat(hub, conn, msg)
    elif kind == "mute":
        await social.mute(hub, conn, msg)
    elif kind == "rematch":
        social.rematch(hub, conn)
    elif kind == "survey":
        if hub.feedback is None:
            raise Refused("this server keeps no after-game answers")
        try:
            frame = answer_survey(hub.feedback, table, conn.seat, conn.role, msg)
        except SurveyRefused as exc:
            raise Refused(str(exc)) from None
        conn.push(frame, answer=True)
    elif kind == "undo":
        if conn.seat is None:
            raise Refused("only a seat can undo its own move")
        await table.undo(conn.seat)
    elif kind in HOST_ONLY:
        await _host_command(hub, conn, kind, msg)
    elif kind == "hello":
        raise Refused(f"this connection is already bound to {_audience(conn)}")
    elif kind != "ping":
        raise security.BadMessage(f"unknown message type {kind!r}")


class StaleMove(Refused):
    """A refused move: the client's view may be stale, so the refusal comes with a fresh one."""


HUMAN: dict[str, Any] = {"kind": "human", "agent": None, "params": {}, "reclaim": False}
HOST_ONLY = ("hand_back", "allow_reclaim", "revoke")
SEAT_NAMING = ("hand_to_bot", "mute", *HOST_ONLY)
"""Messages whose "seat" names the seat acted on, not the sender."""


async def _host_command(hub: Hub, conn: Connection, kind: str, msg: dict[str, Any]) -> None:
    table = conn.table
    assert table is not None
    if conn.role != "host":
        raise Refused(f"only the host can {kind.replace('_', ' ')}")
    if kind == "revoke" and "seat" not in msg:  # the spectator link or the host's own
        token = hub.revoke_role(table, conn, msg.get("role"))
        conn.push(json.dumps({"type": "link", "role": msg["role"], "token": token}))
        return
    seat = security.int_field(msg, "seat")
    if not 0 <= seat < table.record.players or not table.human_seat(seat):
        raise Refused(f"seat {seat} is not a human's seat at this table")
    if kind == "revoke":
        token = hub.revoke(table, seat)
        conn.push(json.dumps({"type": "link", "seat": seat, "token": token}))
        await hub.broadcast(table)
    elif not table.is_bot(seat):
        raise Refused(f"seat {seat} is not played by a bot")
    elif kind == "hand_back":
        await table.set_seat(seat, HUMAN, expect_bot=True)
    else:
        await table.set_seat(seat, {"reclaim": True}, expect_bot=True)


def _audience(conn: Connection) -> str:
    return f"seat {conn.seat}" if conn.seat is not None else f"the {conn.role}"


def _send_replay(table: Any, conn: Connection, step: int) -> None:
    """A finished game, step by step, as this audience saw it at each step."""
    if not table.state.is_terminal():
        raise Refused("the replay opens when the game is over")
    state = table.state_at(step)
    view = player_view(state, conn.seat, table.public_info(), legal=[])
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
    # A seat that hands itself over may take itself back; one the host hands over
    # stays with the bot until the host hands it back or allows a reclaim.
    by_host = conn.role == "host"
    await table.set_seat(
        seat,
        {"kind": "bot", "agent": agent, "params": {}, "human": True, "reclaim": not by_host},
        expect_bot=False,
    )
