// The table page: one socket bound to the seat named in the invite link's
// fragment (#seat=N&token=T, never sent in a URL to the server), redrawn from
// every state frame the server sends.
"use strict";

// The page's pure functions (lib/, published by lib/boot.js; views.js holds the ones a
// game's view script may call too).
const {
  moveIds, payIds, moveCell, myPlacing, logWords, moveText, placements, movesInAll, asksConfirm,
  forcedMove, stillLegal, movedWithoutUs, cardById, sameFaces, countedNames, seatName, winnersLine,
  awaitWords, titleLine, scoreRows, scoreNote, endWords, reissuedText, helloMessage, refusalText,
  logLines, replayLines, newLink, clockText, timeRanOut, decisionScroll,
} = CardLab;

// The seat token lives in the link's fragment (never sent to the server in a
// URL). Older links carried it in the query string, where it lands in access
// logs and history: such a link is refused (the server refuses it too) and its
// token is never sent.
const params = new URLSearchParams(location.hash.slice(1));
const queryToken = [...new URLSearchParams(location.search).keys()].some((k) => k.toLowerCase().includes("token"));
if (queryToken) history.replaceState(null, "", location.pathname + location.hash);
const tableId = location.pathname.split("/").pop();
const T = {
  ws: null, view: null, replay: null, retry: 0, timer: null, clockEnd: null,
  pending: null,   // a move clicked while the connection was down: {action, seq, label}
  clicked: null,   // the step at which this page last sent a move
  refused: false,  // the server refused this link: stop reconnecting
};

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  T.ws = ws;
  setConn("connecting…");
  ws.onopen = () => { ws.send(JSON.stringify(helloMessage(params))); };
  ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (T.refused || (ev.code >= 4400 && ev.code < 4500)) {
      T.refused = true;
      setConn("refused");
      explainRefusal(ev.code, ev.reason || T.fatal);  // the server's own words (a revoked link says who and when)
      return;
    }
    setConn("reconnecting…");
    T.retry = Math.min(T.retry + 1, 6);
    setTimeout(connect, 300 * T.retry);  // back off; the seat token stays valid across restarts
  };
}

function online() { return T.ws && T.ws.readyState === WebSocket.OPEN; }

function send(msg) {
  if (!online()) return false;
  T.ws.send(JSON.stringify(msg));
  return true;
}

// Why this page cannot join, and what to do about it.
function explainRefusal(code, reason) {
  const box = document.getElementById("await");
  box.className = "await refused";
  box.replaceChildren(h("p", "", refusalText(code, reason)),
    h("p", "", "Ask the table's host for a fresh invitation link, or "),
  );
  const a = h("a", "", "start a new table in the lobby");
  a.href = "/";
  box.lastChild.append(a, ".");
}

function setConn(text) {
  const conn = document.getElementById("conn");
  conn.textContent = text;
  conn.className = `conn ${text === "connected" ? "ok" : "down"}`;
}

// The turn timer ran out on our decision: the server played the quick bot's move for us.
function noticeTimerMove(before, now) {
  if (!movedWithoutUs(before, now, T.clicked)) return;
  if (timeRanOut(T.clockEnd, performance.now())) {
    notice("Time ran out: the quick bot (greedy) chose your move (see the game log).", "warn");
  }
}

// A move clicked while offline is sent once we are back, if the table has not moved on.
function sendPending(view) {
  const p = T.pending;
  if (!p) return;
  T.pending = null;
  if (stillLegal(view, p) && send({ type: "act", action: p.action, seq: p.seq })) {
    T.clicked = p.seq;
    notice(`Back online: your move "${p.label}" was sent.`, "info");
  } else {
    notice(`Back online, but the table moved on while you were away: "${p.label}" was not sent. Choose again.`, "warn");
  }
}

function notice(text, kind = "error") {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(box._t);
  box._t = setTimeout(() => { box.hidden = true; }, 6000);
}

function onFrame(msg) {
  document.dispatchEvent(new CustomEvent("cardlab:frame", { detail: msg }));  // social.js
  if (msg.type === "error") {
    if (msg.fatal) { T.refused = true; T.fatal = msg.error; setConn("refused"); explainRefusal(0, msg.error); return; }
    notice(msg.error);
    return;
  }
  if (msg.type === "state") {
    T.retry = 0;
    setConn("connected");
    const before = T.view;
    T.view = msg;
    if (before) noticeTimerMove(before, msg);
    // Draw only once the card art index and the game's view hooks are loaded,
    // so cards never flip from CSS to art.
    if (!T.ready) T.ready = Promise.all([Cards.load(msg.obs.game), GameViews.load(msg.obs.game)]);
    T.ready.then(() => { draw(); sendPending(msg); });
  }
  if (msg.type === "replay") { T.replay = msg; T.ready.then(() => drawReplayFrame(msg)); }
  if (msg.type === "link") showLink(msg);
}

function drawAwait(view) {
  const box = document.getElementById("await");
  box.className = "await";
  const said = awaitWords(view);
  if (view.terminal) { stopClock(); box.textContent = said.text; return; }
  if (said.mine) box.classList.add("mine");
  box.textContent = said.text;
  if (view.table.turn_left !== null && view.table.turn_left !== undefined) startClock(view.table.turn_left);
  else stopClock();
}

function startClock(seconds) {
  stopClock();
  const end = performance.now() + seconds * 1000;
  const clock = document.createElement("span");
  clock.className = "clock";
  document.getElementById("await").append(clock);
  T.clockEnd = end;
  const tick = () => { clock.textContent = clockText(end - performance.now()); };
  tick();
  T.timer = setInterval(tick, 500);
}

function stopClock() { if (T.timer) clearInterval(T.timer); T.timer = null; T.clockEnd = null; }

function button(text, cls, onClick) {
  const b = h("button", cls, text);
  b.addEventListener("click", onClick);
  return b;
}

// The moves now. A game may split a long list into two steps (RUNWAY's trade:
// first what you give, then what you take) through its `moveSteps` hook.
function drawMoves(view, step = null) {
  const box = document.getElementById("moves");
  box.replaceChildren();
  if (!view.legal.length) { box.hidden = true; return; }
  box.hidden = false;
  const hooks = GameViews.of(view.obs);
  const steps = hooks.moveSteps ? hooks.moveSteps(view.legal, view) : null;
  const list = h("div", "move-list");
  if (steps && step !== null) {
    const group = steps.groups[step];
    box.append(h("h2", "", `${group.title}: now choose`));
    for (const move of group.moves) list.append(moveButton(view, move, move.short || move.label));
    list.append(button("‹ Back", "quiet back", () => drawMoves(view, null)));
    box.append(list);
    return;
  }
  box.append(h("h2", "", steps ? steps.title : "Your moves"));
  if (steps) {
    steps.groups.forEach((group, k) => list.append(button(group.title, "move step", () => drawMoves(view, k))));
    for (const move of steps.rest) list.append(moveButton(view, move, move.label));
  } else {
    for (const move of view.legal) list.append(moveButton(view, move, moveText(view, move)));
  }
  box.append(list);
}

// A decision with a single legal move is no decision: after a visible moment
// (FORCED_MS, the move shown and lit) the page sends it for the player. A newer frame
// cancels it (draw() runs again); a click first makes it moot.
const FORCED_MS = 800;
function takeForcedMove(view) {
  clearTimeout(T.forced);
  T.forced = null;
  const move = forcedMove(view, T.clicked);
  if (!move) return;
  const box = document.getElementById("moves");
  const b = box.querySelector("button.move");
  if (b) b.classList.add("forced");
  box.append(h("p", "forced-note", `Only one move: ${moveText(view, move)}. Taking it for you…`));
  T.forced = setTimeout(() => {
    T.forced = null;
    if (T.view === view && T.clicked !== view.seq && online()) clickMove(view, move);
  }, FORCED_MS);
}

function moveButton(view, move, text) {
  const b = h("button", "move", text);
  b.dataset.action = move.action;
  b.title = move.label;
  b.addEventListener("click", () => clickMove(view, move));
  b.addEventListener("mouseenter", () => highlight(move, true));
  b.addEventListener("mouseleave", () => highlight(move, false));
  return b;
}

function clickMove(view, move) {
  document.querySelectorAll("button.move").forEach((x) => { x.disabled = true; });
  T.lastMoveLog = (view.obs.log || []).length;  // later log lines are "since your last move"
  if (send({ type: "act", action: move.action, seq: view.seq })) {
    T.clicked = view.seq;
    return;
  }
  T.pending = { action: move.action, seq: view.seq, label: move.label };
  notice(`You are offline (reconnecting): "${move.label}" will be sent as soon as the table is back.`, "warn");
}

// Hovering a move lights up the cards it names (by id, from its description).
function highlight(move, on) {
  const ids = new Set([...moveIds(move), ...payIds(move)]);
  document.querySelectorAll(".card[data-id]").forEach((c) => {
    if (ids.has(c.dataset.id)) c.classList.toggle("lit", on);
  });
}

function drawHand(view, root) {
  root.replaceChildren();
  // SUPER COMPUTER keeps a seat's hand under `you` (with its builds and secret pick).
  const hand = view.obs.hand ?? (view.obs.you ? view.obs.you.hand : undefined);
  root.hidden = view.you === null || view.you === undefined || hand === undefined ||
    (view.terminal && Array.isArray(hand) && !hand.length);
  if (root.hidden) return;
  root.append(h("h2", "", "Your hand"));
  if (!Array.isArray(hand) || !hand.length) { root.append(h("p", "muted", "empty")); return; }
  root.append(Cards.isCardList(hand) ? handRow(hand) : renderValue(hand));
  // A game's note under each hand card (SUPER COMPUTER: how many spots of your computer it fits).
  const hooks = GameViews.of(view.obs);
  if (!hooks.handBadge || !Array.isArray(hand) || view.terminal) return;
  for (const el of root.querySelectorAll(".card[data-id]")) {
    const card = hand.find((c) => c.id === el.dataset.id);
    const badge = card && hooks.handBadge(card, view);
    if (!badge) continue;
    const wrap = h("div", "hand-card");
    const outer = el.closest(".stack") || el;
    outer.replaceWith(wrap);
    wrap.append(outer, h("span", `badge ${badge.cls || ""}`.trim(), badge.text));
  }
}

// Identical cards (same face, different ids: UPTIME's materials) drawn once with a count.
function handRow(hand) {
  const row = h("div", "card-row");
  for (const cards of sameFaces(hand)) {
    const node = Cards.render(cards[0]);
    if (cards.length > 1) {
      // the count sits on the stack's corner, outside the face, so it never covers the
      // card's title or values
      node.classList.add("stacked");
      node.title = `${cards.length} × ${node.title}`;
      const stack = h("div", "stack");
      stack.append(node, h("span", "count", `×${cards.length}`));
      row.append(stack);
      continue;
    }
    row.append(node);
  }
  return row;
}

// Legal moves that name a grid cell ("... at (x,y)") become clickable cells on your computer.
function placementTargets(view) {
  return placements(view).map(({ move, ...cell }) => ({ ...cell, onClick: () => clickMove(view, move) }));
}

// Every seat's panel: the others as compact panels in `root` (their cards in words until
// opened), your own whole in `mine` with your private cards (`obs.you`) beside it.
function drawSeats(view, root, final, mine = null) {
  root.replaceChildren();
  if (mine) mine.replaceChildren();
  const facts = seatFacts(view.obs);
  const targets = final === null ? [] : placementTargets(view);
  const live = mine !== null;  // the table, not the replay
  T.open = T.open || new Set();
  view.table.seats.forEach((info, seat) => {
    const chosen = view.table.chosen_seats || [];  // seats whose secret choice is made (never what)
    const compact = live && seat !== view.you;
    const panel = renderSeatPanel(view.obs, seat, info, facts[seat], {
      you: view.you, final, targets, chosen, compact, open: T.open, hints: T.hints || [],
      onToggle: (s) => { T.open.has(s) ? T.open.delete(s) : T.open.add(s); draw(); },
    });
    (mine && seat === view.you ? mine : root).append(panel);
  });
  if (mine && view.obs.you && typeof view.obs.you === "object" && !Array.isArray(view.obs.you)) {
    const you = renderYou(view.obs.you, boardOf(view.obs));
    if (you) mine.append(you);
  }
  root.hidden = !root.childElementCount;
  if (mine) mine.hidden = !mine.childElementCount;
}

// The game's story (frame.narrative, from this seat's view), under its Deal or
// round headings; lines since this seat's last move are marked new.
function drawLog(view) {
  const list = document.getElementById("log");
  const lines = logLines(view);
  const items = [];
  let group = null;
  for (const line of lines) {
    if (line.group && line.group !== group) items.push(h("li", "log-group", line.group));
    group = line.group;
    const li = h("li", line.index >= (T.lastMoveLog ?? Infinity) ? "new" : "", logWords(view.obs, line));
    if (line.seat !== null && line.seat !== undefined && line.seat === view.you) li.classList.add("mine");
    items.push(li);
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function drawFinal(view) {
  const box = document.getElementById("final");
  if (!view.terminal) { box.hidden = true; return; }
  box.hidden = false;
  const f = view.final;
  const b = f.breakdown;
  const winners = b ? b.winners : f.winners;
  box.replaceChildren(h("h2", "", "Final scores"), h("p", "winner-line", winnersLine(view)));
  const table = h("table", "scores");
  const head = h("tr");
  const columns = b ? b.columns : [];
  ["Place", "Seat", ...columns, b ? "Total" : "Points", b ? "" : ""].forEach((t) => head.append(h("th", "", t)));
  table.append(head);
  scoreRows(f).forEach((r, i) => {
    const row = h("tr", winners.includes(r.seat) ? "winner" : "");
    row.dataset.seat = r.seat;
    const cell = (cls, text, label) => { const td = h("td", cls, text); td.dataset.label = label; return td; };
    row.append(cell("place", String(i + 1), "Place"), cell("who", seatName(view, r.seat), "Seat"));
    r.parts.forEach((p, k) => row.append(cell("part num", String(p), columns[k])));
    row.append(cell("total num", String(r.total), b ? "Total" : "Points"));
    row.append(cell("detail", scoreNote(f, r.seat), ""));
    table.append(row);
  });
  const wrap = h("div", "scores-wrap");
  wrap.append(table);
  box.append(wrap);
  if (b) {
    if (b.decided_by) box.append(h("p", "decided", `Decided by: ${b.decided_by}`));
    for (const n of b.notes || []) box.append(h("p", "muted", n));
  } else {
    box.append(h("p", "decided", endWords(f.info)));
  }
  // The seed is sent only once the game is over (it deals every hidden card).
  if (view.table.seed) {
    const deal = h("p", "muted seed", `Seed ${view.table.seed}. The same deal at the terminal: `);
    deal.append(h("code", "", view.table.replay || ""));
    box.append(deal);
  }
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
  bar.append(btn("« Start", () => go(0)), btn("‹ Back", () => go(cur() - 1)), btn("Next ›", () => go(cur() + 1)),
    btn("End »", () => go(steps)), slider, h("span", "replay-step", ""));
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
  body.append(h("p", "await", frame.obs.decision || ""), h("ol", "log short", ""));
  body.querySelector("ol").append(...replayLines(frame).map((text) => h("li", "", text)));
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
    hostLinkButtons(view, box);
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

// Links the host replaces (revoke): buttons on the host's page; the new link arrives on
// the host's socket alone and is shown there, ready to copy; the host's own new link
// becomes this page's address, so a reconnect uses it.
function hostLinkButtons(view, box) {
  const revoke = (label, msg) => {
    const b = h("button", "quiet", label);
    b.addEventListener("click", () => {
      if (confirm(`${label}? The old link stops working at once.`)) send({ type: "revoke", ...msg });
    });
    box.append(b);
  };
  view.table.seats.forEach((s, seat) => {
    if (s.kind === "human") revoke(`New link for seat ${seat} (${s.name})`, { seat });
  });
  revoke("New spectator link", { role: "spectator" });
  revoke("New host link", { role: "host" });
}

function showLink(msg) {
  const { url, who } = newLink(location.origin, tableId, msg);
  if (msg.role === "host") {
    params.set("token", msg.token);
    history.replaceState(null, "", `#role=host&token=${msg.token}`);
  }
  let box = document.getElementById("new-link");
  if (!box) {
    box = h("div", "new-link");
    box.id = "new-link";
    document.getElementById("controls").after(box);
  }
  const field = h("input");
  field.readOnly = true;
  field.value = url;
  field.setAttribute("aria-label", "the new link");
  box.replaceChildren(h("p", "", `New link for ${who} (the old one no longer works):`), field);
  field.select();
}

// Seats whose link the host replaced: every audience is told whoever plays one may be the host.
function drawReissued(view) {
  const seats = view.table.reissued || [];
  let box = document.getElementById("reissued");
  if (!seats.length) { if (box) box.hidden = true; return; }
  if (!box) {
    box = h("p", "reissued");
    box.id = "reissued";
    box.setAttribute("role", "status");
    document.getElementById("controls").before(box);
  }
  box.hidden = false;
  box.textContent = reissuedText(view, seats);
}

// The Rules pane (the game's rules for players), fetched when first opened.
function wireRules(game) {
  const rules = document.getElementById("rules");
  if (!rules || rules.dataset.wired) return;
  rules.dataset.wired = "1";
  rules.addEventListener("toggle", async () => {
    if (!rules.open || rules.dataset.loaded) return;
    rules.dataset.loaded = "1";
    // Rendered server-side by markdown-it with raw HTML disabled.
    rules.querySelector(".rules-body").innerHTML = await (await fetch(`/api/rules/${encodeURIComponent(game)}`)).text();
  });
}

function draw() {
  const view = T.view;
  wireRules(view.obs.game);
  if (!view) return;
  document.title = `${view.table.title} · cardlab`;
  const who = view.you !== null && view.you !== undefined ? `seat ${view.you}` : params.get("role") || "spectator";
  document.getElementById("title").textContent = titleLine(view, who);
  drawAwait(view);
  drawMoves(view);
  takeForcedMove(view);
  const board = boardOf(view.obs);
  document.getElementById("board").classList.toggle("tableau-first", board.tableauAboveHand);
  drawHand(view, document.getElementById("hand"));
  renderPublic(view.obs, document.getElementById("public"), document.getElementById("upfront"), { view });
  if (T.selSeq !== view.seq) { T.hints = []; }
  drawSeats(view, document.getElementById("seats"), view.final, document.getElementById("mine"));
  drawLog(view);
  drawFinal(view);
  drawControls(view);
  drawReissued(view);
  applyTouch(view);
  fitNames();
  bringDecisionIntoView(view);
}

// When a new decision of yours is asked, the cards it is about (those its moves name,
// the cards of yours that can pay for them, the cells you may place on, the game's focus
// panels) are brought into view above the decision bar: scrolled by the least that shows
// them all, or to the first of them when they cannot all fit one screen.
function decisionNodes(view) {
  const focus = boardOf(view.obs).focus.map((k) => `#upfront .panel[data-key="${k}"]`);
  const sel = [".card.touchable", ".grid .target", ...focus].join(", ");
  const pays = new Set((view.legal || []).flatMap(payIds));
  const payers = pays.size
    ? [...document.querySelectorAll("#hand .card[data-id], #mine .card[data-id]")].filter((e) => pays.has(e.dataset.id))
    : [];
  return [...document.querySelectorAll(sel), ...payers].filter((e) => e.getClientRects().length);
}

function bringDecisionIntoView(view) {
  // the game's end: its final scores, at the top of the board, come into view once
  if (view.terminal && !T.shownFinal) {
    T.shownFinal = true;
    document.getElementById("final").scrollIntoView({ block: "start" });
    return;
  }
  const mine = view.legal && view.legal.length && !view.terminal;
  if (!mine || T.shownDecision === view.seq) return;
  T.shownDecision = view.seq;
  const nodes = decisionNodes(view);
  if (!nodes.length) return;
  const rects = nodes.map((e) => e.getBoundingClientRect());
  const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
  const by = decisionScroll(top, bottom, trayTop());
  if (by !== null) window.scrollBy({ top: by });
  notePayers(view);
}

// Where the decision bar begins (the screen's bottom when it is hidden).
function trayTop() {
  const tray = document.getElementById("tray");
  return window.innerHeight - (tray.hidden ? 0 : tray.getBoundingClientRect().height + 6);
}

// On a small screen the cards a move is asked about and the cards of yours that can pay
// for it may not fit one screen (UPTIME's Build Row above, your hand and tableau below).
// Then the decision bar, which never leaves the screen, names what you can pay with; a
// touch on the line scrolls to those cards.
function notePayers(view) {
  const pays = new Set((view.legal || []).flatMap(payIds));
  const els = pays.size
    ? [...document.querySelectorAll("#hand .card[data-id], #mine .card[data-id]")]
      .filter((e) => pays.has(e.dataset.id) && e.getClientRects().length)
    : [];
  const room = trayTop();
  const off = els.some((e) => { const r = e.getBoundingClientRect(); return r.top < 0 || r.bottom > room; });
  T.payNote = off ? { seq: view.seq, ids: els.map((e) => e.dataset.id), text: `You can pay with: ${countedNames(els.map((e) => e.dataset.name))}` } : null;
  if (T.payNote) drawTray(view);
}

// Tap (or click) a card to see it large, with its values in words; tap again to close.
function wireZoom() {
  const zoom = document.getElementById("zoom");
  document.addEventListener("click", (ev) => {
    if (!zoom.hidden) { zoom.hidden = true; return; }
    const card = ev.target.closest(".card");
    if (!card || ev.target.closest("button") || card.classList.contains("back")) return;
    if (card.classList.contains("touchable")) return;  // a tap chooses it (touchCard)
    openZoom(card);
  });
}

function openZoom(card) {
  const zoom = document.getElementById("zoom");
  {
    const big = card.cloneNode(true);
    big.classList.remove("small", "lit", "touchable", "selected", "target-lit");
    big.querySelectorAll(".badge").forEach((b) => b.remove());
    big.classList.add("zoomed");
    big.style.removeProperty("grid-column");
    big.style.removeProperty("grid-row");
    zoom.replaceChildren(big, h("p", "zoom-facts", card.title || ""), h("p", "muted", "Tap anywhere to close."));
    zoom.hidden = false;
  }
}

// Card names never break inside a word: a name too wide for its card is set
// smaller, down to 9px and never below, whatever size it started at; in a
// computer grid's narrowest cells a word still too wide ends in an ellipsis (tap
// the card for its full name).
function fitNames(root = document) {
  for (const name of root.querySelectorAll(".card .name")) {
    name.style.fontSize = "";
    name.classList.remove("clip");
    let px = parseFloat(getComputedStyle(name).fontSize);
    while (name.scrollWidth > name.clientWidth + 1 && px > 9) {
      px = Math.max(9, px - 0.5);
      name.style.fontSize = `${px}px`;
    }
    if (name.scrollWidth > name.clientWidth + 1 && name.closest(".grid")) name.classList.add("clip");
  }
}

// ---- Play by touching cards ---------------------------------------------------------
// Each legal move carries the engine's description of what it does (`move.does`): the
// ids of the cards it plays or spends (`cards`, or `alternatives` when any one of several
// equal cards will do) and of the cards it acts on (`targets`: a Build Row card, a Bench
// card). The cards of your hand, your seat and the shared centre that a legal move names
// are lit, and touching them chooses it. One touch picks a card; when several moves use
// it, its moves are offered in the decision bar and the other cards they name are lit as
// targets; touching one of those narrows the choice. A move the engine marks `costly`
// (a bid, a Requisition) or that spends several of your cards asks to be confirmed. The
// button list stays below as the accessible fallback. Nothing here names a game or reads
// a label, and nothing is drawn that the frame did not carry.
const TOUCH_SEL = ["#hand", "#upfront", "#mine"].map((z) => `${z} .card[data-id]`).join(", ");

// For each legal move, the card elements it names; for each card element, its moves.
function touchMap(view) {
  // One element per card: a card shown twice (your part being placed, in the round's picks
  // and above your computer) is touched where it is yours (hand, then seat, then centre).
  const rank = (e) => (e.closest("#hand") ? 0 : e.closest("#mine") ? 1 : 2);
  const best = new Map();
  for (const e of document.querySelectorAll(TOUCH_SEL)) {
    if (e.closest(".grid") || e.classList.contains("back")) continue;
    const was = best.get(e.dataset.id);
    if (!was || rank(e) < rank(was)) best.set(e.dataset.id, e);
  }
  const byEl = new Map();
  const cardsOf = view.legal.map((move) => {
    const out = [];
    for (const id of new Set(moveIds(move))) {
      const e = best.get(id);
      if (!e) continue;
      out.push(e);
      if (!byEl.has(e)) byEl.set(e, new Set());
      byEl.get(e).add(move);
    }
    return out;
  });
  return { byEl, cardsOf };
}

// A card's place on the board, stable across redraws of the same decision.
function cardKey(el) {
  const zone = el.closest("#hand, #upfront, #mine");
  const panel = el.closest("[data-key]");
  const slot = el.closest("[data-slot]");
  return [zone ? zone.id : "", panel ? panel.dataset.key : "", slot ? slot.dataset.slot : "", el.dataset.id].join("/");
}

// Whether a move chosen by touch asks to be confirmed: the game says so (a bid), or it
// spends two or more different cards of your hand.
function needsConfirm(view, move) {
  const hooks = GameViews.of(view.obs);
  const said = hooks.confirm ? hooks.confirm(move, view) : undefined;
  const i = view.legal.indexOf(move);
  const hand = ((T.touch && T.touch.cardsOf[i]) || []).filter((e) => e.closest("#hand")).map((e) => e.dataset.name);
  return asksConfirm(move, said, hand);
}

// After every draw: light the cards a move names, put back a selection of this same
// decision, and fill the decision bar.
function applyTouch(view) {
  const mine = !view.terminal && view.legal && view.legal.length && view.you !== null && view.you !== undefined;
  if (!mine) { T.sel = null; T.touch = null; drawTray(view); return; }
  T.touch = touchMap(view);
  for (const el of T.touch.byEl.keys()) {
    el.classList.add("touchable");
    el.setAttribute("aria-description", "tap to choose");
  }
  if (T.sel && T.sel.seq !== view.seq) T.sel = null;
  if (T.sel) {
    const els = [...T.touch.byEl.keys()];
    T.sel.els = T.sel.keys.map((k) => els.find((e) => cardKey(e) === k)).filter(Boolean);
    if (T.sel.els.length !== T.sel.keys.length) T.sel = null;
  }
  markSelection(view);
  drawTray(view);
}

// The moves still open with the selected cards: those naming every one of them.
function candidates(view) {
  if (!T.sel || !T.sel.els.length) return [];
  return movesInAll(T.sel.els.map((el) => T.touch.byEl.get(el) || new Set()));
}

function markSelection(view) {
  document.querySelectorAll(".card.selected, .card.target-lit").forEach((e) => e.classList.remove("selected", "target-lit"));
  if (!T.sel) return;
  for (const el of T.sel.els) el.classList.add("selected");
  for (const move of candidates(view)) {
    for (const el of T.touch.cardsOf[view.legal.indexOf(move)]) if (!T.sel.els.includes(el)) el.classList.add("target-lit");
  }
}

function touchCard(view, el) {
  if (T.clicked === view.seq) return;
  if (T.sel && T.sel.els.length === 1 && T.sel.els[0] === el && !T.sel.confirm) { openZoom(el); return; }
  const moves = T.touch.byEl.get(el) || new Set();
  const narrowed = T.sel && !T.sel.els.includes(el) ? candidates(view).filter((m) => moves.has(m)) : [];
  if (narrowed.length) T.sel = { seq: view.seq, els: [...T.sel.els, el], confirm: null };
  else T.sel = { seq: view.seq, els: [el], confirm: null };
  T.sel.keys = T.sel.els.map(cardKey);
  const open = candidates(view);
  showHints(view, el);  // (SUPER COMPUTER: where the part would fit, while you confirm)
  if (open.length === 1) { chooseByTouch(view, open[0]); return; }
  markSelection(view);
  drawTray(view);
}

// A move chosen on the board: sent at once, or held in the bar for a confirm.
function chooseByTouch(view, move) {
  if (needsConfirm(view, move) && !(T.sel && T.sel.confirm === move)) {
    T.sel = T.sel || { seq: view.seq, els: [], keys: [] };
    T.sel.confirm = move;
    markSelection(view);
    drawTray(view);
    document.querySelector("#tray button.primary")?.focus({ preventScroll: true });
    return;
  }
  T.sel = null;
  T.hints = [];
  clickMove(view, move);
  drawTray(view);
}

function clearSelection(view) {
  T.sel = null;
  if (T.hints && T.hints.length) { T.hints = []; draw(); return; }
  markSelection(view);
  drawTray(view);
}

// SUPER COMPUTER and the like: the cells a hand card could take, marked on your computer
// while it is under the pointer or selected (the game's `hints` hook; none by default).
function showHints(view, el) {
  const hooks = GameViews.of(view.obs);
  if (!hooks.hints) return;
  const card = el && el.closest("#hand") ? cardById(view.obs, el.dataset.id) : null;
  const hints = card ? (hooks.hints(card, view) || []).map((c) => ({ ...c, name: card.name })) : [];
  if (JSON.stringify(hints) === JSON.stringify(T.hints || [])) return;
  T.hints = hints;
  T.selSeq = view.seq;
  drawSeats(view, document.getElementById("seats"), view.final, document.getElementById("mine"));
  applyTouch(view);
  fitNames(document.getElementById("mine"));
}

// The decision bar (sticky at the bottom of the board): what you have chosen and what
// it can still become, the confirm step, and the moves that name no card (Draw, Pass).
function drawTray(view) {
  const tray = document.getElementById("tray");
  tray.replaceChildren();
  const live = T.touch && view.legal && view.legal.length && T.clicked !== view.seq;
  if (!live) { tray.hidden = true; return; }
  const bar = (text, ...buttons) => {
    tray.append(h("p", "tray-text", text));
    const row = h("div", "tray-buttons");
    row.append(...buttons);
    tray.append(row);
  };
  const act = (move, cls = "tray-move") => button(moveText(view, move), cls, () => chooseByTouch(view, move));
  const hooks = GameViews.of(view.obs);
  const note = hooks.barNote && hooks.barNote(view);
  if (note) {
    const p = h("p", "bar-note", note.text);
    p.dataset.names = JSON.stringify(note.names || []);
    tray.append(p);
  }
  if (T.payNote && T.payNote.seq === view.seq) {
    const first = T.payNote.ids[0];
    const p = button(T.payNote.text, "bar-note pay-note", () => {
      const el = [...document.querySelectorAll("#hand .card[data-id], #mine .card[data-id]")].find((e) => e.dataset.id === first);
      if (el) el.scrollIntoView({ block: "center" });
    });
    p.title = "Show these cards";
    tray.append(p);
  }
  if (T.sel && T.sel.confirm) {
    const move = T.sel.confirm;
    bar(`Confirm: ${moveText(view, move)}?`,
      button("Confirm", "primary tray-confirm", () => chooseByTouch(view, move)),
      button("Back", "quiet", () => { T.sel.confirm = null; if (!candidates(view).length || candidates(view).length === 1) T.sel = null; markSelection(view); drawTray(view); }));
  } else if (T.sel) {
    const open = candidates(view);
    const names = T.sel.els.map((e) => e.dataset.name).join(" + ");
    const lit = document.querySelectorAll(".card.target-lit").length;
    bar(`${names}: choose what to do${lit ? ", or touch a lit card" : ""}.`, ...open.map((m) => act(m)),
      // (the page's click-anywhere-to-close would shut the zoom this click opened)
      button("Look closer", "quiet", (ev) => { ev.stopPropagation(); openZoom(T.sel.els[T.sel.els.length - 1]); }),
      button("Cancel", "quiet", () => clearSelection(view)));
  } else {
    const free = view.legal.filter((m, i) => !T.touch.cardsOf[i].length && !moveCell(m));
    const touchable = T.touch.byEl.size;
    const cells = document.querySelectorAll(".grid .target").length;
    if (!touchable && !cells) {
      bar("Choose:", ...free.map((m) => act(m)));  // a decision about no card on the board
    } else {
      const placing = myPlacing(view.obs, view.you);
      const hint = cells ? `${placing ? `Place ${placing.name}: t` : "T"}ouch a marked cell of your computer` : "Touch a lit card to play it";
      bar(free.length ? `${hint}, or:` : `${hint}.`, ...free.map((m) => act(m)));
    }
  }
  tray.hidden = false;
  trayRoom();
}

// The page keeps room below its content as tall as the stuck tray, so the last cards
// above it can scroll clear of it (a long option list scrolls inside the tray instead).
let trayWatch = null;
function trayRoom() {
  const tray = document.getElementById("tray");
  const set = () => {
    const on = !tray.hidden && !!tray.offsetParent;
    document.body.classList.toggle("tray-on", on);
    document.body.style.setProperty("--tray-h", `${on ? Math.ceil(tray.getBoundingClientRect().height) : 0}px`);
  };
  if (!trayWatch && typeof ResizeObserver === "function") {
    trayWatch = new ResizeObserver(set);
    trayWatch.observe(tray);
    new MutationObserver(set).observe(tray, { attributes: true, attributeFilter: ["hidden"] });
  }
  set();
}

function wireTouch() {
  document.addEventListener("click", (ev) => {
    const el = ev.target.closest(".card.touchable");
    if (!el || ev.target.closest("button") || !T.view || !T.touch) return;
    if (!document.getElementById("zoom").hidden) return;
    touchCard(T.view, el);
  });
  // The marks stay when the pointer leaves (until another hand card is pointed at, or
  // the decision changes): clearing them would resize the computer under the pointer.
  document.addEventListener("mouseover", (ev) => {
    const el = ev.target.closest && ev.target.closest("#hand .card.touchable");
    if (!el || !T.view || (T.sel && T.sel.els.length)) return;
    showHints(T.view, el);
  });
}

wireZoom();
wireTouch();
if (queryToken) {
  T.refused = true;
  setConn("old link refused");
  const box = document.getElementById("await");
  box.className = "await refused";
  box.replaceChildren(
    h("p", "", "This link carries its seat token in the address's query string (?token=…), an old form that is no longer accepted: it would be written to server logs and browser history. Nothing was sent."),
    h("p", "", "Ask the host for a current link: it carries the token after '#' (…#seat=…&token=…)."),
  );
} else if (!params.get("token")) {
  T.refused = true;
  setConn("no invitation");
  const box = document.getElementById("await");
  box.className = "await refused";
  box.replaceChildren(
    h("p", "", "This page needs an invitation link: the link the table's host sent you ends with #seat=…&token=… (or #role=spectator&token=…). It looks like that part is missing."),
    h("p", "", "Ask the host to send the link again, or "),
  );
  const a = h("a", "", "start your own table in the lobby");
  a.href = "/";
  box.lastChild.append(a, ".");
} else {
  connect();
}
