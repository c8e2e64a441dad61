// The table page: one socket bound to the seat named in the invite link's
// fragment (#seat=N&token=T, never sent in a URL to the server), redrawn from
// every state frame the server sends.
"use strict";

const params = new URLSearchParams(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
const T = { ws: null, view: null, replay: null, retry: 0, timer: null, finalShown: false };

function hello() {
  const token = params.get("token");
  if (params.has("seat")) return { type: "hello", seat: Number(params.get("seat")), token };
  return { type: "hello", role: params.get("role") || "spectator", token };
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  T.ws = ws;
  setConn("connecting…");
  ws.onopen = () => { ws.send(JSON.stringify(hello())); };
  ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (ev.code >= 4400 && ev.code < 4500) { setConn("refused"); return; }
    setConn("reconnecting…");
    T.retry = Math.min(T.retry + 1, 6);
    setTimeout(connect, 300 * T.retry);  // back off; the seat token stays valid across restarts
  };
}

function send(msg) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

function setConn(text) { document.getElementById("conn").textContent = text; }

function notice(text, kind = "error") {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(box._t);
  box._t = setTimeout(() => { box.hidden = true; }, 6000);
}

function onFrame(msg) {
  if (msg.type === "error") { notice(msg.error); if (msg.fatal) setConn("refused"); return; }
  if (msg.type === "state") {
    T.retry = 0;
    setConn("connected");
    T.view = msg;
    // Draw only once the card art index is known, so cards never flip from CSS to art.
    if (!T.ready) T.ready = Cards.load(msg.obs.game);
    T.ready.then(draw);
  }
  if (msg.type === "replay") { T.replay = msg; T.ready.then(() => drawReplayFrame(msg)); }
}

function seatName(view, seat) {
  const info = view.table.seats[seat];
  return info ? `Seat ${seat} (${info.name})` : `Seat ${seat}`;
}

function drawAwait(view) {
  const box = document.getElementById("await");
  box.className = "await";
  if (view.terminal) { box.textContent = "The game is over."; return; }
  const cp = view.current_player;
  const decision = view.obs.decision || "";
  if (cp === view.you) {
    box.classList.add("mine");
    box.textContent = `Your decision: ${decision}`;
  } else {
    const who = seatName(view, cp);
    const kind = view.table.seats[cp] && view.table.seats[cp].kind === "bot" ? "bot is thinking" : "waiting";
    box.textContent = `${who}: ${kind}. ${decision}`;
  }
  if (view.table.turn_left !== null && view.table.turn_left !== undefined) startClock(view.table.turn_left);
  else stopClock();
}

function startClock(seconds) {
  stopClock();
  const end = performance.now() + seconds * 1000;
  const clock = document.createElement("span");
  clock.className = "clock";
  document.getElementById("await").append(clock);
  const tick = () => { clock.textContent = ` ⏱ ${Math.max(0, (end - performance.now()) / 1000).toFixed(0)} s`; };
  tick();
  T.timer = setInterval(tick, 500);
}

function stopClock() { if (T.timer) clearInterval(T.timer); T.timer = null; }

function drawMoves(view) {
  const box = document.getElementById("moves");
  box.replaceChildren();
  if (!view.legal.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(h("h2", "", "Your moves"));
  const list = h("div", "move-list");
  for (const move of view.legal) {
    const b = h("button", "move", move.label);
    b.dataset.action = move.action;
    b.addEventListener("click", () => clickMove(view, move));
    b.addEventListener("mouseenter", () => highlight(move.label, true));
    b.addEventListener("mouseleave", () => highlight(move.label, false));
    list.append(b);
  }
  box.append(list);
}

function clickMove(view, move) {
  document.querySelectorAll("button.move").forEach((x) => { x.disabled = true; });
  send({ type: "act", action: move.action, seq: view.seq });
}

// Hovering a move lights up the cards its label names.
function highlight(label, on) {
  document.querySelectorAll(".card[data-name]").forEach((c) => {
    if (label.includes(c.dataset.name)) c.classList.toggle("lit", on);
  });
}

function drawHand(view, root) {
  root.replaceChildren();
  // SUPER COMPUTER keeps a seat's hand under `you` (with its builds and secret pick).
  const hand = view.obs.hand ?? (view.obs.you ? view.obs.you.hand : undefined);
  root.hidden = view.you === null || view.you === undefined || hand === undefined;
  if (root.hidden) return;
  root.append(h("h2", "", "Your hand"));
  root.append(Array.isArray(hand) && hand.length ? renderValue(hand) : h("p", "muted", "empty"));
}

// Legal moves that name a grid cell ("... at (x,y)") become clickable cells on your computer.
function placementTargets(view) {
  const out = [];
  for (const move of view.legal || []) {
    const m = /at \((-?\d+),\s*(-?\d+)\)/.exec(move.label);
    if (m) out.push({ x: Number(m[1]), y: Number(m[2]), action: move.action, label: move.label,
      onClick: () => clickMove(view, move) });
  }
  return out;
}

function drawSeats(view, root, final) {
  root.replaceChildren();
  const facts = seatFacts(view.obs);
  const targets = final === null ? [] : placementTargets(view);
  view.table.seats.forEach((info, seat) => {
    root.append(renderSeatPanel(view.obs, seat, info, facts[seat], { you: view.you, final, targets }));
  });
}

function drawLog(view) {
  const list = document.getElementById("log");
  const entries = view.obs.log || [];
  list.replaceChildren(...entries.map((e) => h("li", "", typeof e === "string" ? e : e.text || JSON.stringify(e))));
  list.scrollTop = list.scrollHeight;
}

function drawFinal(view) {
  const box = document.getElementById("final");
  if (!view.terminal) { box.hidden = true; return; }
  box.hidden = false;
  const f = view.final;
  const order = f.returns.map((r, s) => s).sort((a, b) => {
    const wa = f.winners.includes(a), wb = f.winners.includes(b);
    return wa !== wb ? (wa ? -1 : 1) : f.returns[b] - f.returns[a];
  });
  const table = h("table", "scores");
  const head = h("tr");
  ["Place", "Seat", "Points", ""].forEach((t) => head.append(h("th", "", t)));
  table.append(head);
  const breakdown = Array.isArray(f.info.points) ? f.info.points : null;
  order.forEach((seat, i) => {
    const row = h("tr", f.winners.includes(seat) ? "winner" : "");
    row.append(h("td", "", String(i + 1)), h("td", "", seatName(view, seat)), h("td", "", String(f.returns[seat])));
    const detail = breakdown && breakdown[seat] ? Object.entries(breakdown[seat])
      .filter(([k, v]) => v || k === "total").map(([k, v]) => `${words(k)} ${v}`).join(", ") : "";
    row.append(h("td", "detail", (f.winners.includes(seat) ? "Winner. " : "") + detail));
    table.append(row);
  });
  const tie = f.info.tiebreak ?? f.info.tiebreak_level ?? f.info.tie_break;
  box.replaceChildren(h("h2", "", "Final scores"), table);
  box.append(h("p", "", `Game ended: ${words(String(f.info.end_reason || "over"))}. Tie-break: ${tie ? words(String(tie)) : "not needed"}.`));
  const replay = h("button", "primary", "Replay the game step by step");
  replay.addEventListener("click", () => openReplay(view.seq));
  if (view.you !== null || params.get("role")) box.append(replay);
}

function openReplay(steps) {
  const box = document.getElementById("replay");
  box.hidden = false;
  box.replaceChildren(h("h2", "", "Replay"));
  const bar = h("div", "replay-bar");
  const slider = h("input");
  Object.assign(slider, { type: "range", min: 0, max: steps, value: 0 });
  slider.setAttribute("aria-label", "Replay step");
  const go = (k) => send({ type: "replay", step: Math.max(0, Math.min(steps, k)) });
  const btn = (label, fn) => { const b = h("button", "", label); b.addEventListener("click", fn); return b; };
  const cur = () => (T.replay ? T.replay.step : 0);
  bar.append(btn("⏮ Start", () => go(0)), btn("◀ Back", () => go(cur() - 1)), btn("Next ▶", () => go(cur() + 1)),
    btn("End ⏭", () => go(steps)), slider, h("span", "replay-step", ""));
  slider.addEventListener("input", () => go(Number(slider.value)));
  box.append(bar, h("div", "replay-body"));
  go(0);
}

function drawReplayFrame(frame) {
  const box = document.getElementById("replay");
  box.querySelector(".replay-step").textContent = `step ${frame.step} of ${frame.steps}`;
  box.querySelector("input[type=range]").value = frame.step;
  const body = box.querySelector(".replay-body");
  body.replaceChildren();
  const lastLog = (frame.obs.log || []).slice(-4);
  body.append(h("p", "await", frame.obs.decision || ""), h("ol", "log short", ""));
  body.querySelector("ol").append(...lastLog.map((e) => h("li", "", typeof e === "string" ? e : JSON.stringify(e))));
  const hand = h("div", "zone");
  drawHand(frame, hand);
  const pub = h("div", "public");
  renderPublic(frame.obs, pub);
  const seats = h("div", "seats-panel");
  drawSeats(frame, seats, null);
  body.append(hand, pub, seats);
}

function drawControls(view) {
  const box = document.getElementById("controls");
  box.replaceChildren();
  const role = params.get("role");
  if (view.terminal) return;
  if (role === "host") {
    box.append(h("h2", "", "Host"));
    view.table.seats.forEach((s, seat) => {
      if (s.kind !== "human") return;
      const b = h("button", "", `Hand seat ${seat} (${s.name}) to a bot`);
      b.addEventListener("click", () => send({ type: "hand_to_bot", seat, agent: "greedy" }));
      box.append(b);
    });
  } else if (view.you !== null && view.you !== undefined) {
    const mine = view.table.seats[view.you];
    if (mine.kind === "bot") {
      const b = h("button", "", "Take my seat back from the bot");
      b.addEventListener("click", () => send({ type: "reclaim" }));
      box.append(b);
    } else {
      const b = h("button", "quiet", "Leave: a bot plays my seat");
      b.addEventListener("click", () => send({ type: "hand_to_bot", seat: view.you, agent: "greedy" }));
      box.append(b);
    }
  }
}

function draw() {
  const view = T.view;
  if (!view) return;
  document.title = `${view.table.title} · cardlab`;
  const who = view.you !== null && view.you !== undefined ? `seat ${view.you}` : params.get("role") || "spectator";
  document.getElementById("title").textContent = `${view.table.title} · step ${view.seq} · you are ${who}`;
  drawAwait(view);
  drawMoves(view);
  drawHand(view, document.getElementById("hand"));
  renderPublic(view.obs, document.getElementById("public"));
  drawSeats(view, document.getElementById("seats"), view.final);
  drawLog(view);
  drawFinal(view);
  drawControls(view);
}

if (!params.get("token")) {
  document.getElementById("await").textContent = "This page needs an invitation link (ask the table's host).";
} else {
  connect();
}
