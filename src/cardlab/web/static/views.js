// Turning an observation into the table's panels. The generic renderer works
// for any game from the observation alone; GameViews adds what each game needs
// (Hype track, Build Row, computer grids) on top of it.
"use strict";

// The pure helpers live in lib/ (ES modules, tested by node: tests/js/); lib/boot.js
// publishes them as CardLab before this script runs. These names are also what a game's
// view script may call (docs/plugins.md): they stay global bindings for it.
const {
  words, cardName, plural, seatWord, named, label, slotNote, summary, isEmpty, holdsCards,
  BASE_KEYS, KEYED_BY_SEAT, isPerSeat, seatFacts, genericFact, isScalar, boardLayout, gridFrame,
  seatTitle, seatScore, seatStatus,
} = CardLab;

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
  // Slots holding a card or nothing: UPTIME's Build Row, RUNWAY's pitched cards.
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && "card" in v && (v.card === null || Cards.isCard(v.card)))) {
    const row = h("div", "card-row");
    value.forEach((slot, k) => {
      const box = h("div", "slot");
      box.dataset.slot = String(k + 1);  // labels count slots from 1 ("from slot 4")
      box.append(slot.card ? Cards.render(slot.card, opts) : h("div", "card empty-slot" + (opts.small ? " small" : ""), "empty slot"));
      const notes = Object.entries(slot).filter(([key, v]) => key !== "card" && key !== "slot" && v !== null && v !== false);
      if (notes.length) box.append(h("div", "slot-note", notes.map(([key, v]) => slotNote(key, v)).join(" · ")));
      row.append(box);
    });
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
function renderGrid(cells, targets = [], hints = []) {
  // Positions in words (row 1 is the top row, column 1 the left one), never the
  // engine's coordinates.
  const { columns, column, row, where } = gridFrame([...cells, ...targets, ...hints]);
  const grid = h("div", "grid");
  // Cells shrink (down to --grid-min) to fit the panel; a grid wider still scrolls in its .grid-wrap.
  grid.style.gridTemplateColumns = `repeat(${columns}, minmax(var(--grid-min), var(--grid-cell)))`;
  grid.dataset.columns = String(columns);
  const place = (node, c) => {
    node.style.gridColumn = String(column(c));
    node.style.gridRow = String(row(c));
  };
  for (const c of cells) {
    const card = Cards.render(c.card, { small: true });
    place(card, c);
    card.title += ` · ${where(c)}`;
    grid.append(card);
  }
  for (const t of targets) {
    const b = h("button", "move target", "Place here");  // the part is named in its label and under Placing
    b.setAttribute("aria-label", `Place here: ${t.label}`);  // the visible words first (WCAG 2.5.3)
    b.title = t.label;
    b.dataset.action = t.action;
    b.addEventListener("click", () => t.onClick());
    place(b, t);
    grid.append(b);
  }
  // Cells a hand card could take (marks only, never a move: the card is not yours to
  // place yet), from the game's `hints` hook while a hand card is under the finger.
  const taken = new Set([...cells, ...targets].map((c) => `${c.x},${c.y}`));
  for (const t of hints) {
    if (taken.has(`${t.x},${t.y}`)) continue;
    const mark = h("div", "hint", "fits here");
    mark.setAttribute("aria-label", `${t.name || "this part"} could go here, ${where(t)}`);
    place(mark, t);
    grid.append(mark);
  }
  return grid;
}

function section(title, content, cls = "", key = "") {
  const box = h("div", `panel ${cls}`);
  if (key) box.dataset.key = key;
  box.append(h("h3", "", title), content);
  return box;
}

// One fact as a chip: "Label value" (the value bold), or a bare tag when it has none.
function chipNode(label, value, cls = "") {
  const chip = h("span", `chip ${cls}`.trim());
  if (value === undefined) chip.textContent = label;
  else chip.append(h("span", "chip-label", label), " ", h("b", "", String(value)));
  return chip;
}

// Short labelled facts ("chips") and labelled card zones, built per seat or for the table.
class Facts {
  constructor() { this.chips = []; this.zones = []; this.leads = []; }
  // a zone drawn before the seat's computer (what is being placed on it)
  lead(label, value) { if (!isEmpty(value)) this.leads.push([label, value]); return this; }
  chip(label, value, cls = "") { this.chips.push([label, value, cls]); return this; }
  tag(text, cls = "") { this.chips.push([text, undefined, cls]); return this; }
  zone(label, value) { if (!isEmpty(value)) this.zones.push([label, value]); return this; }
  // An opponent's compact panel: the chips, then each zone in words ("Tableau: Case,
  // Router ×2") rather than as cards (its "Show cards" button draws them whole).
  drawCompact(root, extra = []) {
    const line = h("div", "chips");
    for (const [label, value, cls] of this.chips) line.append(chipNode(label, value, cls));
    for (const [label, value] of [...extra, ...this.leads, ...this.zones]) {
      const chip = h("span", "chip zone-chip");
      chip.append(h("span", "chip-label", label), " ", h("b", "", summary(value)));
      line.append(chip);
    }
    if (line.childElementCount) root.append(line);
  }
  // The chips, then `middle` (a seat's computer), then the card zones.
  draw(root, middle = null) {
    if (this.chips.length) {
      const line = h("div", "chips");
      for (const [label, value, cls] of this.chips) line.append(chipNode(label, value, cls));
      root.append(line);
    }
    if (middle) {
      for (const [label, value] of this.leads) {
        const box = h("div", "zone-mini lead");
        box.append(h("div", "zone-label", label), renderValue(value, { small: true }));
        root.append(box);
      }
      root.append(middle);
    }
    for (const [label, value] of middle ? this.zones : [...this.leads, ...this.zones]) {
      const box = h("div", "zone-mini");
      box.append(h("div", "zone-label", label), renderValue(value, { small: true }));
      root.append(box);
    }
  }
}

// Per game (the game's own view script, served from its package at
// /games/<game>/view.js and loaded on demand): a game registers hooks
// that draw what it knows better than the generic renderer:
//   seat(f, out, obs, seat, ctx)  takes the seat facts it understands out of `f` into
//                            `out` (ctx.chosen: the seats whose secret choice is made)
//   showsChosen              the seat hook tells "has chosen" itself
//   table(obs, out, used)    table-strip chips; adds the keys it drew to `used`
//   banner(obs)              a node shown above the table (Hype track, auction...)
//   mine(you)                the seat's private zone `obs.you`, if the game keeps one
//   scoreLabel               what a seat's score is called ("Reputation")
//   upfront                  observation keys drawn above your hand (what a decision is about)
//   moveSteps(legal, view)   a long list of moves split in two steps (see table.js drawMoves),
//                            read from each move's description (`move.does`), never its label
//   board                    the board layout (see `boardOf`): which observation keys are the
//                            shared centre, which seat facts are a seat's tableau, where yours goes
//   shared(obs, ctx)         an extra node for the shared centre (SUPER COMPUTER's picks this turn)
//   confirm(move, view)      true/false when a move chosen by touching cards needs a confirm
//                            step other than the engine's `move.does.costly` says (null: no say)
//   hints(card, view)        for a hand card under your finger: the cells it could take
//                            ([{x, y}]) on your computer, drawn as marks (SUPER COMPUTER)
//   handBadge(card, view)    a short note on a hand card ("fits 2 spots")
//   barNote(view)            a line always shown in the decision bar ({text, names}: SUPER
//                            COMPUTER's build cards in words, in view while you pick)
// Nothing here names a game: a game without a file gets the generic view.
const GameViews = {
  hooks: {},
  register(name, hooks) { this.hooks[name] = hooks; },
  of(obs) { return this.hooks[obs.game] || {}; },
  // Load the game's view script once; resolves either way (no file means generic).
  load(game) {
    if (!/^[a-z0-9_]+$/.test(String(game)) || this.hooks[game]) return Promise.resolve();
    return new Promise((resolve) => {
      const s = document.createElement("script");
      s.src = `/games/${game}/view.js`;
      s.onload = () => resolve();
      s.onerror = () => resolve();
      document.head.append(s);
    });
  },
};

// The board: the shared centre (what every seat plays on), opponents as compact panels,
// your hand and your tableau at the bottom, the rest under "More of the table". A game
// declares it in its view hooks (`board`); a game that declares nothing gets the generic
// board: every top-level key holding cards is shared, every seat zone of cards a tableau.
//   shared            top-level observation keys drawn at the centre, in this order
//   tableau           seat facts that are a seat's tableau (drawn whole for you, summed up
//                     in an opponent's compact panel until opened)
//   yours             keys of `obs.you` drawn with your seat (the rest of `you` too)
//   tableauAboveHand  your seat panel above your hand (SUPER COMPUTER: computer and build
//                     card in view while you pick from the hand)
//   focus             shared keys every decision of yours is about (RUNWAY: the Deal in play
//                     and its pitched cards), kept in view with the cards the moves name
function boardOf(obs) {
  return boardLayout(GameViews.of(obs).board);
}

// A game may keep your private cards under `you` (SUPER COMPUTER does): the
// hand is drawn as "Your hand" (table.js), the rest as one panel of your cards.
function renderYou(you, board = null) {
  const out = new Facts();
  out.zone("Your secret pick", you.pending_pick);
  out.zone("Builds offered", you.build_offer);
  out.zone("Your builds", you.builds);
  out.zone("Returned build", you.returned_build);
  const drawn = new Set(["hand", "pending_pick", "build_offer", "builds", "returned_build", ...((board && board.yours) || [])]);
  for (const [k, v] of Object.entries(you)) if (!drawn.has(k)) genericFact(out, k, v);
  if (!out.chips.length && !out.zones.length) return null;
  const box = h("div", "you-zones");
  out.draw(box);
  return section("Your cards", box, "key-you");
}

// The table's public state. The shared centre (`front`, when given: the board's shared
// keys, the game's banner and the table's facts) is what a decision is played on; every
// other panel goes to `root` ("More of the table"). Your private zone (`obs.you`) is drawn
// with your seat (table.js), or here when there is no seat panel (the replay).
function renderPublic(obs, root, front = null, ctx = {}) {
  root.replaceChildren();
  if (front) front.replaceChildren();
  const centre = front || root;
  const hooks = GameViews.of(obs);
  const board = boardOf(obs);
  const special = hooks.banner && hooks.banner(obs);
  if (special) centre.append(special);
  const strip = new Facts();
  const used = new Set();
  if (hooks.table) hooks.table(obs, strip, used);
  const shared = [], more = [];
  for (const [key, value] of Object.entries(obs)) {
    if (BASE_KEYS.has(key) || isPerSeat(obs, key) || key.startsWith("hype") || used.has(key) || KEYED_BY_SEAT.has(key)) continue;
    if (key === "you") continue;
    if (isEmpty(value)) continue;
    if (isScalar(value)) { genericFact(strip, key, value); continue; }
    const isShared = board.shared ? board.shared.includes(key) || (hooks.upfront || []).includes(key) : holdsCards(value);
    const panel = section(words(key), renderValue(value), `key-${key}`, key);
    if (isShared) shared.push([board.shared ? board.shared.indexOf(key) : 0, panel]);
    else more.push(panel);
  }
  if (strip.chips.length) {
    const box = h("div", "panel table-facts");
    strip.draw(box);
    centre.append(box);
  }
  const extra = hooks.shared && hooks.shared(obs, ctx);
  if (extra) centre.append(extra);
  shared.sort((a, b) => a[0] - b[0]);
  const row = h("div", "shared-row");
  row.append(...shared.map(([, p]) => p));
  if (shared.length) centre.append(row);
  if (!front && obs.you && typeof obs.you === "object" && !Array.isArray(obs.you)) {
    const you = renderYou(obs.you, board);
    if (you) root.append(you);
  }
  if (front) front.hidden = !front.childElementCount;
  // (drawn open, not folded away: a folded card would have no size on the page)
  if (more.length && front) root.append(h("h2", "more-title", "More of the table"));
  root.append(...more);
}

function renderSeatPanel(obs, seat, info, facts, ctx) {
  const box = h("div", "seat-card");
  if (seat === obs.current_player) box.classList.add("to-move");
  if (seat === ctx.you) box.classList.add("me");
  const winner = ctx.final && ctx.final.winners.includes(seat);
  const head = h("div", "seat-head");
  head.append(h("h3", "", seatTitle(seat, info, ctx.you, winner)));
  head.append(h("span", "score", seatScore(obs, seat, GameViews.of(obs).scoreLabel || "Score")));
  box.append(head);
  box.append(h("div", "seat-status", seatStatus(info, seat === obs.current_player)));
  const f = { ...facts };
  const computer = f.computer;
  delete f.computer;
  const out = new Facts();
  const hooks = GameViews.of(obs);
  const chosen = (ctx.chosen || []).includes(seat);
  if (hooks.seat) hooks.seat(f, out, obs, seat, { ...ctx, chosen });
  if (chosen && !hooks.showsChosen) out.tag("has chosen", "good");
  for (const [k, v] of Object.entries(f)) genericFact(out, k, v);
  let zone = null;
  if (Array.isArray(computer)) {
    const targets = seat === ctx.you ? (ctx.targets || []) : [];
    zone = h("div", "zone-mini computer");
    zone.append(h("div", "zone-label", "Computer"));
    if (computer.length || targets.length || (seat === ctx.you && ctx.hints && ctx.hints.length)) {
      const wrap = h("div", "grid-wrap");
      wrap.append(renderGrid(computer, targets, seat === ctx.you ? (ctx.hints || []) : []));
      zone.append(wrap);
    } else {
      zone.append(h("span", "muted", "no parts yet"));
    }
  }
  const rest = h("div", "seat-facts");
  if (ctx.compact && !(ctx.open && ctx.open.has(seat))) {
    box.classList.add("compact");
    const extra = Array.isArray(computer) ? [["Computer", computer.length ? computer : "no parts yet"]] : [];
    // the seat's tableau (the board's declaration) first: what a glance at an opponent is for
    const tableau = (boardOf(obs).tableau || []).map(label);
    out.zones.sort((a, b) => tableau.includes(b[0]) - tableau.includes(a[0]));
    out.drawCompact(rest, extra);
    if (out.zones.length || (Array.isArray(computer) && computer.length)) rest.append(toggleButton(seat, ctx, "Show all"));
  } else {
    out.draw(rest, zone);
    if (ctx.compact) rest.append(toggleButton(seat, ctx, "Show less"));
  }
  box.append(rest);
  return box;
}

// An opponent's panel opens to its cards and folds back to words.
function toggleButton(seat, ctx, text) {
  const b = h("button", "quiet seat-toggle", text);
  b.setAttribute("aria-expanded", String(!!(ctx.open && ctx.open.has(seat))));
  b.addEventListener("click", () => ctx.onToggle && ctx.onToggle(seat));
  return b;
}
