// Turning an observation into the table's panels. The generic renderer works
// for any game from the observation alone; GameViews adds what each game needs
// (Hype track, Build Row, computer grids) on top of it.
"use strict";

const BASE_KEYS = new Set(["game", "seat", "num_players", "current_player", "decision", "decision_kind",
  "phase", "scores", "log", "hand", "players", "options"]);

const words = (key) => key.replace(/_/g, " ");

function h(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A value of any shape, drawn readably: cards as cards, grids as grids.
function renderValue(value, opts = {}) {
  if (value === null || value === undefined) return h("span", "muted", "none");
  if (Cards.isCard(value)) return Cards.render(value, opts);
  if (Cards.isCardList(value)) return Cards.row(value, opts);
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && "x" in v && "y" in v && v.card)) {
    return renderGrid(value);
  }
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && Cards.isCard(v.card))) {
    const row = h("div", "card-row");
    for (const slot of value) {
      const box = h("div", "slot");
      box.append(Cards.render(slot.card, opts));
      const notes = Object.entries(slot).filter(([k, v]) => k !== "card" && k !== "slot" && v !== null && v !== false);
      if (notes.length) box.append(h("div", "slot-note", notes.map(([k, v]) => `${words(k)}: ${v}`).join(", ")));
      row.append(box);
    }
    return row;
  }
  if (Array.isArray(value)) {
    if (!value.length) return h("span", "muted", "none");
    if (value.every((v) => typeof v !== "object" || v === null)) return h("span", "", value.join(", "));
    const list = h("div", "stack");
    for (const v of value) list.append(renderValue(v, opts));
    return list;
  }
  if (typeof value === "object") {
    const dl = h("dl", "facts");
    for (const [k, v] of Object.entries(value)) {
      dl.append(h("dt", "", words(k)));
      const dd = h("dd");
      dd.append(renderValue(v, { small: true }));
      dl.append(dd);
    }
    return dl;
  }
  if (typeof value === "boolean") return h("span", value ? "yes" : "no", value ? "yes" : "no");
  return h("span", "", String(value));
}

// Cards placed at (x, y) on a square grid: SUPER COMPUTER's computers. North is
// y - 1 in the engine, so y grows downward as on screen. `targets` are the
// legal placements ({x, y, action, label}), drawn as clickable empty cells.
function renderGrid(cells, targets = []) {
  const all = [...cells, ...targets];
  const xs = all.map((c) => c.x), ys = all.map((c) => c.y);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys);
  const grid = h("div", "grid");
  grid.style.gridTemplateColumns = `repeat(${maxX - minX + 1}, var(--grid-cell))`;
  const place = (node, c) => {
    node.style.gridColumn = String(c.x - minX + 1);
    node.style.gridRow = String(c.y - minY + 1);
  };
  for (const c of cells) {
    const card = Cards.render(c.card, { small: true });
    place(card, c);
    card.title += ` · at (${c.x},${c.y})`;
    grid.append(card);
  }
  for (const t of targets) {
    const b = h("button", "move target", `Place here (${t.x},${t.y})`);
    b.title = t.label;
    b.dataset.action = t.action;
    b.addEventListener("click", () => t.onClick());
    place(b, t);
    grid.append(b);
  }
  return grid;
}

function section(title, content, cls = "") {
  const box = h("div", `panel ${cls}`);
  box.append(h("h3", "", title), content);
  return box;
}

// Top-level arrays with one entry per seat (RUNWAY's reputation, footholds...).
// Lists of names or of Build Row slots that happen to have that length are not per seat.
const NOT_PER_SEAT = new Set(["sectors", "pitch_order", "materials"]);

function isPerSeat(obs, key) {
  const v = obs[key];
  if (BASE_KEYS.has(key) || NOT_PER_SEAT.has(key) || !Array.isArray(v) || v.length !== obs.num_players) return false;
  return v.every((x) => typeof x === "number" || typeof x === "boolean" || Array.isArray(x) ||
    (x && typeof x === "object" && !("card" in x) && !Cards.isCard(x)));
}

// The per-seat facts: from obs.players[i] and from the per-seat top-level arrays.
function seatFacts(obs) {
  const n = obs.num_players;
  const facts = Array.from({ length: n }, () => ({}));
  if (Array.isArray(obs.players)) {
    obs.players.forEach((p, i) => { for (const [k, v] of Object.entries(p)) if (k !== "seat") facts[i][k] = v; });
  }
  for (const key of Object.keys(obs)) {
    if (isPerSeat(obs, key)) obs[key].forEach((x, i) => { facts[i][key] = x; });
  }
  return facts;
}

const GameViews = {
  // Shown above the generic public state, per game.
  runway(obs) {
    const box = h("div", "hype-track");
    box.append(h("span", "label", "Hype"));
    for (let i = 0; i <= 10; i++) {
      const pip = h("span", "pip" + (i <= obs.hype ? " on" : "") + (i === 5 || i === 10 ? " step" : ""), String(i));
      pip.title = i >= 10 ? "+2 to every reward" : i >= 5 ? "+1 to every reward" : "no bonus";
      box.append(pip);
    }
    box.append(h("span", "label", obs.hype_bonus ? ` bonus +${obs.hype_bonus}` : " no bonus yet"));
    return box;
  },
  uptime(obs) {
    if (!obs.auction) return null;
    return section("Auction", renderValue(obs.auction), "auction");
  },
  supercomputer(obs) {
    return h("div", "sc-round", `Round ${obs.round} of 3 · turn ${obs.turn} of 7 · passing ${obs.passing || ""}`);
  },
};

function renderPublic(obs, root) {
  root.replaceChildren();
  const special = GameViews[obs.game] && GameViews[obs.game](obs);
  if (special) root.append(special);
  for (const [key, value] of Object.entries(obs)) {
    if (BASE_KEYS.has(key) || isPerSeat(obs, key) || key.startsWith("hype")) continue;
    if (obs.game === "supercomputer" && ["round", "turn", "passing"].includes(key)) continue;
    root.append(section(words(key), renderValue(value), `key-${key}`));
  }
}

function renderSeatPanel(obs, seat, info, facts, ctx) {
  const box = h("div", "seat-card");
  if (seat === obs.current_player) box.classList.add("to-move");
  if (seat === ctx.you) box.classList.add("me");
  const winner = ctx.final && ctx.final.winners.includes(seat);
  const title = h("h3", "", `Seat ${seat} · ${info.name}${seat === ctx.you ? " (you)" : ""}${winner ? " · winner" : ""}`);
  box.append(title);
  const status = info.kind === "bot" ? `bot: ${info.agent}` : info.connected ? "online" : "away";
  box.append(h("div", "seat-status", `${status}${seat === obs.current_player ? " · deciding now" : ""}`));
  box.append(h("div", "score", `Score ${obs.scores ? obs.scores[seat] : "?"}`));
  const rest = h("div", "seat-facts");
  for (const [k, v] of Object.entries(facts)) {
    if (k === "points" && v && typeof v === "object") { rest.append(section("points", renderValue(v))); continue; }
    if (k === "computer" && Array.isArray(v)) {
      const targets = seat === ctx.you ? (ctx.targets || []) : [];
      const row = h("div", "fact");
      row.append(h("div", "fact-name", "computer:"));
      row.append(v.length || targets.length ? renderGrid(v, targets) : h("span", "muted", "empty"));
      rest.append(row);
      continue;
    }
    const row = h("div", "fact");
    row.append(h("span", "fact-name", words(k) + ": "));
    row.append(renderValue(v, { small: true }));
    rest.append(row);
  }
  box.append(rest);
  return box;
}
