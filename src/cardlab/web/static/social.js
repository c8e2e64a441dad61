// Around the game: the table's chat (with the host's mute), the
// Undo and Rematch buttons, your-turn alerts (tab title, an optional beep, a
// notification while the tab is hidden) and a short animation of cards arriving.
//
// It hooks into the table page at two points only, so the page's layout can change
// under it: table.js dispatches every server frame as a "cardlab:frame" event, and
// this file sends through table.js's global send() (the page's one socket: a seat
// has one live socket, a second would replace the first). Everything a player typed
// is drawn with textContent, never as HTML; no inline script or style (the page's
// CSP allows neither).
"use strict";

(() => {
  // the pure helpers (lib/frames.js, lib/clock.js, lib/words.js; published by lib/boot.js)
  const { letters, isMyTurn, turnTitle, rematchPath, secondsLeft, rematchCountdown } = CardLab;
  const CHAT_LIMIT = 200;           // social.CHAT_LIMIT on the server (it counts again)
  const KEEP = 200;                 // chat lines kept on the page (store.CHAT_KEEP)
  const FOLLOW_SECONDS = 5;         // a rematch someone else started: we follow after this
  const SOUND_KEY = "cardlab.sound";
  const NOTIFY_KEY = "cardlab.notify";

  const hash = new URLSearchParams(location.hash.slice(1));
  const role = hash.has("seat") ? "seat" : hash.get("role") || "spectator";
  const tableId = location.pathname.split("/").pop();

  const S = {
    view: null,          // the latest state frame
    seen: new Set(),     // chat message numbers already drawn (history comes again on reconnect)
    muted: [],           // seats the host muted
    myTurn: false,
    frames: 0,           // state frames seen (no alert for the position the page opened on)
    asked: false,        // this page asked for its rematch link
    offeredBy: null,     // who started the rematch (someone else)
    follow: null,        // {timer, end}: following the rematch soon
    stayed: false,       // the player chose to stay at the finished table
    audio: null,         // the AudioContext, made on the first click that needs it
    cards: null,         // card id -> {zone, name, x, y} as last drawn (for the animation)
    animated: 0,         // animations started (read by the browser tests)
  };
  window.CardlabSocial = S;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function send(msg) {
    if (typeof window.send !== "function") { console.error("social.js: the table page has no send()"); return false; }
    return window.send(msg);
  }

  function isState(msg) { return msg && msg.type === "state"; }
  function you() { return S.view && S.view.you !== undefined ? S.view.you : null; }

  // -- the panel in the side column ---------------------------------------------------
  const panel = (() => {
    let root = document.getElementById("social");
    if (!root) {  // the page has no container for us: put one in the side column
      root = el("section");
      root.id = "social";
      (document.querySelector(".side") || document.body).append(root);
    }
    root.classList.add("social");
    root.setAttribute("aria-label", "Chat and alerts");
    const list = el("ol", "chat-list");
    list.setAttribute("aria-live", "polite");
    list.setAttribute("aria-label", "Chat messages");
    list.tabIndex = 0;  // scrollable: reachable from the keyboard
    const empty = el("li", "chat-empty muted", "No messages yet.");
    list.append(empty);
    const form = el("form", "chat-form");
    const label = el("label", "visually-hidden", "Chat message");
    label.htmlFor = "chat-text";
    const input = el("input", "chat-text");
    Object.assign(input, { id: "chat-text", type: "text", maxLength: CHAT_LIMIT, autocomplete: "off", placeholder: "Message the table…" });
    const sendButton = el("button", "chat-send", "Send");
    sendButton.type = "submit";
    const count = el("span", "chat-count muted", `0 / ${CHAT_LIMIT}`);
    count.setAttribute("aria-live", "off");
    form.append(label, input, sendButton, count);
    const note = el("p", "chat-note muted");
    note.hidden = true;
    const host = el("div", "chat-host");
    host.hidden = true;
    const alerts = el("div", "alerts");
    root.replaceChildren(el("h2", "", "Chat"), list, note, form, host, alerts);
    return { root, list, empty, form, input, sendButton, count, note, host, alerts };
  })();

  panel.input.addEventListener("input", () => {
    const n = letters(panel.input.value);
    panel.count.textContent = `${n} / ${CHAT_LIMIT}`;
    panel.count.classList.toggle("full", n >= CHAT_LIMIT);
  });

  panel.form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = panel.input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) {
      panel.input.value = "";
      panel.input.dispatchEvent(new Event("input"));
    }
  });

  function drawChat(messages) {
    const list = panel.list;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    for (const m of messages) {
      if (S.seen.has(m.n)) continue;
      S.seen.add(m.n);
      panel.empty.remove();
      const li = el("li", "chat-line");
      const fromHost = m.seat === null || m.seat === undefined;
      li.dataset.seat = fromHost ? "host" : String(m.seat);
      if (fromHost) li.classList.add("from-host");
      const who = el("span", "who", m.who);
      const text = el("span", "text", m.text);  // text, never HTML
      if (m.at) li.title = new Date(m.at * 1000).toLocaleTimeString();
      li.append(who, text);
      list.append(li);
    }
    while (list.children.length > KEEP) list.firstElementChild.remove();
    markMine();
    if (atBottom || messages.length) list.scrollTop = list.scrollHeight;
  }

  // Your own lines are marked (again when a state frame says which seat this page is:
  // the history may arrive before it).
  function markMine() {
    const me = role === "host" ? "host" : you() === null ? null : String(you());
    for (const li of panel.list.querySelectorAll(".chat-line")) li.classList.toggle("mine", me !== null && li.dataset.seat === me);
  }

  // Who may write, whether this seat is muted, and the host's mute buttons.
  function drawChatRights() {
    const view = S.view;
    const mutedMe = role === "seat" && S.muted.includes(you());
    const reader = role === "spectator";
    panel.form.hidden = reader;
    panel.input.disabled = mutedMe;
    panel.sendButton.disabled = mutedMe;
    panel.note.hidden = !(reader || mutedMe);
    panel.note.textContent = reader ? "Spectators read the chat; the players and the host write in it."
      : mutedMe ? "The host has muted you in this table's chat." : "";
    panel.host.hidden = role !== "host" || !view;
    if (panel.host.hidden) return;
    const buttons = [];
    view.table.seats.forEach((s, seat) => {
      if (s.kind !== "human" && !S.muted.includes(seat)) return;
      const on = S.muted.includes(seat);
      const b = el("button", on ? "mute on" : "mute", `${on ? "Unmute" : "Mute"} ${s.name || `Seat ${seat}`}`);
      b.type = "button";
      b.dataset.seat = seat;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.addEventListener("click", () => send({ type: "mute", seat, muted: !on }));
      buttons.push(b);
    });
    panel.host.replaceChildren(el("h3", "", "Host: mute a seat in the chat"), ...buttons);
  }

  // -- alerts -------------------------------------------------------------------------
  function stored(key) { try { return localStorage.getItem(key) === "on"; } catch (e) { return false; } }
  function store(key, on) { try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* private mode */ } }

  const alerts = (() => {
    const box = panel.alerts;
    const sound = el("input");
    Object.assign(sound, { type: "checkbox", id: "alert-sound", checked: stored(SOUND_KEY) });
    const soundLabel = el("label", "alert-sound", " Beep on my turn");
    soundLabel.prepend(sound);
    const notify = el("button", "notify quiet");
    notify.type = "button";
    const status = el("span", "notify-status muted");
    box.replaceChildren(el("h3", "", "Your-turn alerts"), soundLabel, notify, status);
    return { sound, notify, status };
  })();

  function ensureAudio() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!S.audio) S.audio = new Ctx();
    if (S.audio.state === "suspended") S.audio.resume().catch(() => {});
    return S.audio;
  }

  function beep() {
    const ctx = ensureAudio();
    if (!ctx || ctx.state !== "running") return;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t = ctx.currentTime;
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, t);
    osc.frequency.setValueAtTime(880, t + 0.09);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.12, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.22);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.24);
  }

  alerts.sound.addEventListener("change", () => {
    store(SOUND_KEY, alerts.sound.checked);
    if (alerts.sound.checked) { ensureAudio(); setTimeout(beep, 50); }  // a click: audio may start
  });
  // A page opened with the sound on may play only after a gesture: the first one wakes it.
  document.addEventListener("pointerdown", () => { if (alerts.sound.checked) ensureAudio(); }, { once: true });

  function notifyState() {
    if (!("Notification" in window)) return "unsupported";
    if (Notification.permission === "denied") return "denied";
    if (Notification.permission === "granted" && stored(NOTIFY_KEY)) return "on";
    return "off";
  }

  function drawNotify() {
    const state = notifyState();
    alerts.notify.hidden = state === "unsupported" || state === "denied";
    alerts.notify.textContent = state === "on" ? "Stop notifications" : "Notify me when it's my turn";
    alerts.notify.setAttribute("aria-pressed", state === "on" ? "true" : "false");
    alerts.status.textContent = {
      unsupported: "This browser has no notifications.",
      denied: "Notifications are blocked for this site in the browser's settings.",
      on: "A notification comes when it is your turn and this tab is hidden.",
      off: "",
    }[state];
  }

  // Permission is asked only here, after the player's own click.
  alerts.notify.addEventListener("click", async () => {
    if (notifyState() === "on") { store(NOTIFY_KEY, false); drawNotify(); return; }
    let answer = Notification.permission;
    if (answer !== "granted") answer = await Notification.requestPermission();
    store(NOTIFY_KEY, answer === "granted");
    drawNotify();
  });
  drawNotify();

  function gameTitle() {
    return (S.view && S.view.table && S.view.table.title) || "cardlab";
  }

  function turnAlert() {
    if (alerts.sound.checked) beep();
    if (notifyState() === "on" && document.hidden) {
      const n = new Notification(`Your turn — ${gameTitle()}`, {
        body: (S.view.obs && S.view.obs.decision) || "The table is waiting for your move.",
        tag: `cardlab-${tableId}`,
      });
      n.addEventListener("click", () => { window.focus(); n.close(); });
    }
  }

  // The tab title says "● Your turn — …" on your turn. table.js sets the title on every
  // redraw, so the prefix is put back whenever the title changes.
  function applyTitle() {
    const now = document.title;
    const want = turnTitle(now, S.myTurn);
    if (now !== want) document.title = want;
  }
  let titleNode = document.querySelector("title");
  if (!titleNode) { titleNode = el("title", "", document.title); document.head.append(titleNode); }
  new MutationObserver(applyTitle).observe(titleNode, { childList: true, characterData: true, subtree: true });

  // -- Undo and Rematch: a bar at the bottom of the screen, in view at any width ------
  const bar = (() => {
    const box = el("div", "social-bar");
    box.id = "social-bar";
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Undo and rematch");
    box.hidden = true;
    document.body.append(box);
    return box;
  })();

  function setBar(children) {
    bar.replaceChildren(...children);
    bar.hidden = !children.length;
    document.body.classList.toggle("social-bar-on", !bar.hidden);
    liftBar();
  }

  // The table's own decision tray may stick to the bottom of the screen: the bar then
  // sits just above it, never over its buttons.
  let lifting = false;
  function liftBar() {
    if (lifting) return;
    lifting = true;
    requestAnimationFrame(() => {
      lifting = false;
      if (bar.hidden) return;
      let lift = 0;
      for (const tray of document.querySelectorAll(".tray")) {
        if (tray.hidden || !tray.offsetParent) continue;
        const r = tray.getBoundingClientRect();
        if (r.top < innerHeight && r.bottom > innerHeight - bar.offsetHeight - 16) lift = Math.max(lift, innerHeight - r.top);
      }
      bar.classList.toggle("lifted", lift > 0);
      bar.style.setProperty("--lift", `${Math.round(lift)}px`);
    });
  }
  addEventListener("scroll", liftBar, { passive: true });
  addEventListener("resize", liftBar);
  // The tray also changes without a frame or a scroll: a touched card makes it taller
  // (its options), a click hides it, card art loading moves it. Watch its size and the
  // page's (a resize of the page moves a sticky tray) so the bar never sits on it.
  if (typeof ResizeObserver === "function") {
    const watch = new ResizeObserver(liftBar);
    watch.observe(document.body);
    for (const tray of document.querySelectorAll(".tray")) watch.observe(tray);
  }
  for (const tray of document.querySelectorAll(".tray")) {
    new MutationObserver(liftBar).observe(tray, { attributes: true, attributeFilter: ["hidden"], childList: true });
  }

  function barButton(text, cls, onClick) {
    const b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function askRematch() {
    S.asked = true;
    stopFollow();
    if (!send({ type: "rematch" })) S.asked = false;
    drawBar();
  }

  function stopFollow() {
    if (S.follow) clearInterval(S.follow.timer);
    S.follow = null;
  }

  function startFollow() {
    if (S.follow || S.asked || S.stayed || role === "spectator") return;
    const end = performance.now() + FOLLOW_SECONDS * 1000;
    const timer = setInterval(() => {
      if (performance.now() >= end) { askRematch(); return; }
      // only the count changes: the buttons stay put under the pointer
      const count = bar.querySelector(".bar-text.countdown");
      if (count) count.textContent = followText();
      else drawBar();
    }, 250);
    S.follow = { timer, end };
  }

  function drawBar() {
    const view = S.view;
    bar.classList.remove("undo-only");
    if (!view) return setBar([]);
    if (!view.terminal) {
      if (role === "seat" && view.can_undo) {
        const b = barButton("↶ Undo my last move", "undo", () => { b.disabled = true; send({ type: "undo" }); });
        bar.classList.add("undo-only");
        return setBar([el("span", "bar-text", "You can still take that back:"), b]);
      }
      return setBar([]);
    }
    const made = view.table.rematch || S.offeredBy !== null;
    if (role === "spectator") {
      return setBar(made ? [el("span", "bar-text", "The players started a rematch at a new table.")] : []);
    }
    if (S.asked) return setBar([el("span", "bar-text", "Opening the rematch…")]);
    if (S.follow) {
      return setBar([
        el("span", "bar-text countdown", followText()),
        barButton("Join now", "primary rematch", askRematch),
        barButton("Stay here", "quiet stay", () => { S.stayed = true; stopFollow(); drawBar(); }),
      ]);
    }
    const text = made ? "A rematch of this game has started at a new table." : "Play again with the same seats and a new deal?";
    return setBar([el("span", "bar-text", text), barButton(made ? "Join the rematch" : "Rematch", "primary rematch", askRematch)]);
  }

  function followText() {
    return rematchCountdown(S.offeredBy, S.follow ? secondsLeft(S.follow.end - performance.now()) : 0);
  }

  function followLink(link) {
    location.assign(rematchPath(link));
  }

  // -- card movement ------------------------------------------------------------------
  // After each redraw, a card that moved to another zone slides there from where it was
  // (FLIP) and a card new to the board fades in; nothing moves when the player asked
  // for reduced motion. Cards in the zoom, the replay and this panel are left alone.
  const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  const SKIP = "#zoom, #replay, #social, .social-bar";

  function zoneOf(card) {
    const z = card.parentElement && card.parentElement.closest("[id], [data-seat]");
    return z ? (z.id || `seat-${z.dataset.seat}`) : "";
  }

  function trackCards() {
    const now = new Map();
    const names = new Set();
    const nodes = [...document.querySelectorAll(".card[data-id]")].filter((c) => !c.closest(SKIP) && c.isConnected);
    for (const card of nodes) {
      const r = card.getBoundingClientRect();
      const zone = zoneOf(card);
      now.set(card.dataset.id, { zone, name: card.dataset.name, x: r.left + scrollX, y: r.top + scrollY, node: card });
      names.add(`${zone}|${card.dataset.name}`);
    }
    const before = S.cards;
    S.cards = now;
    if (!before || reduced.matches) return;
    const hadName = new Set([...before.values()].map((c) => `${c.zone}|${c.name}`));
    for (const [id, c] of now) {
      const was = before.get(id);
      if (was && was.node === c.node) continue;  // not redrawn
      if (was && was.zone !== c.zone && c.node.animate) {
        const dx = was.x - c.x, dy = was.y - c.y;
        if (Math.abs(dx) + Math.abs(dy) < 4) continue;
        c.node.classList.add("cl-move");
        S.animated += 1;
        const anim = c.node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
          { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
        anim.finished.catch(() => {}).then(() => c.node.classList.remove("cl-move"));
      } else if (!was && !hadName.has(`${c.zone}|${c.name}`)) {
        c.node.classList.add("cl-enter");
        S.animated += 1;
        c.node.addEventListener("animationend", () => c.node.classList.remove("cl-enter"), { once: true });
      }
    }
  }

  let tracking = false;
  new MutationObserver((records) => {
    if (tracking) return;
    // only redraws that added cards matter (a class change or a chat line does not)
    const added = records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 &&
      (n.matches(".card[data-id]") || n.querySelector(".card[data-id]"))));
    if (!added) return;
    tracking = true;
    try { trackCards(); } finally { tracking = false; }
  }).observe(document.body, { childList: true, subtree: true });

  // -- frames -------------------------------------------------------------------------
  document.addEventListener("cardlab:frame", (ev) => {
    const msg = ev.detail;
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "chat") {
      if (Array.isArray(msg.muted)) S.muted = msg.muted;
      drawChat(Array.isArray(msg.messages) ? msg.messages : []);
      drawChatRights();
      return;
    }
    if (msg.type === "rematch_link") { S.asked = true; stopFollow(); drawBar(); followLink(msg); return; }
    if (msg.type === "rematch_offered") {
      S.offeredBy = msg.by || "A player";
      drawBar();
      startFollow();
      drawBar();
      return;
    }
    if (msg.type === "error" && S.asked) { S.asked = false; drawBar(); return; }  // the rematch was refused
    if (!isState(msg)) return;
    S.view = msg;
    S.frames += 1;
    if (Array.isArray(msg.table && msg.table.muted)) S.muted = msg.table.muted;
    const mine = isMyTurn(msg);
    const began = mine && !S.myTurn;
    S.myTurn = mine;
    applyTitle();
    if (began && S.frames > 1) turnAlert();
    markMine();
    drawChatRights();
    drawBar();
    setTimeout(liftBar, 50);  // after the table's redraw (the tray may have come or gone)
  });
})();
