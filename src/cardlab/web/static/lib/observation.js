// Reading an observation for the table's panels (static/views.js draws them): which
// keys are per seat, each seat's facts, a fact's chip or zone, the board a game
// declares, a seat panel's lines. Pure functions (tested in tests/js/).
import { isEmpty, isCard } from "./cards.js";
import { label } from "./words.js";

// Keys drawn elsewhere or not for people: "events" is the structured form of "log"
// (the Game log panel tells it in sentences), never a panel of its own.
export const BASE_KEYS = new Set(["game", "seat", "num_players", "current_player", "decision", "decision_kind",
  "phase", "scores", "log", "events", "hand", "players", "options"]);

// Top-level arrays with one entry per seat (RUNWAY's reputation, footholds...).
// Lists of names or of Build Row slots that happen to have that length are not per seat.
export const NOT_PER_SEAT = new Set(["sectors", "pitch_order", "materials"]);

// Maps keyed by seat (RUNWAY's known_in_hands), drawn in each seat's panel.
export const KEYED_BY_SEAT = new Set(["known_in_hands"]);

export function isPerSeat(obs, key) {
  const v = obs[key];
  if (BASE_KEYS.has(key) || NOT_PER_SEAT.has(key) || !Array.isArray(v) || v.length !== obs.num_players) return false;
  return v.every((x) => typeof x === "number" || typeof x === "boolean" || Array.isArray(x) ||
    (x && typeof x === "object" && !("card" in x) && !isCard(x)));
}

// The per-seat facts: from obs.players[i], the per-seat top-level arrays and
// maps keyed by seat.
export function seatFacts(obs) {
  const n = obs.num_players;
  const facts = Array.from({ length: n }, () => ({}));
  if (Array.isArray(obs.players)) {
    obs.players.forEach((p, i) => { for (const [k, v] of Object.entries(p)) if (k !== "seat") facts[i][k] = v; });
  }
  for (const key of Object.keys(obs)) {
    if (isPerSeat(obs, key)) obs[key].forEach((x, i) => { facts[i][key] = x; });
    if (KEYED_BY_SEAT.has(key) && obs[key] && typeof obs[key] === "object") {
      for (const [s, v] of Object.entries(obs[key])) if (facts[Number(s)]) facts[Number(s)][key] = v;
    }
  }
  return facts;
}

// A value a chip can hold: not an object, or a list of no objects.
export const isScalar = (value) => typeof value !== "object" || (Array.isArray(value) && value.every((x) => typeof x !== "object" || x === null));

// Any fact no game view claimed, into `out` (a Facts: chip, tag, zone): a chip for a
// scalar, a zone for the rest; empties left out.
export function genericFact(out, key, v) {
  if (isEmpty(v)) return;
  if (typeof v === "boolean") out.tag(label(key));
  else if (typeof v === "number" || typeof v === "string") out.chip(label(key), v);
  else if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) out.chip(label(key), v.join(", "));
  else out.zone(label(key), v);
}

// The board from what a game's view hooks declare (`board`, see views.js boardOf);
// a game that declares nothing gets the generic board.
export function boardLayout(board) {
  const declared = board || {};
  return {
    shared: declared.shared || null,
    tableau: declared.tableau || null,
    yours: declared.yours || null,
    tableauAboveHand: !!declared.tableauAboveHand,
    focus: declared.focus || [],
  };
}

// A seat panel's heading, score and status lines.
export function seatTitle(seat, info, you, winner) {
  return `Seat ${seat} · ${info.name}${seat === you ? " (you)" : ""}${winner ? " · winner" : ""}`;
}

export function seatScore(obs, seat, scoreLabel) {
  return `${scoreLabel} ${obs.scores ? obs.scores[seat] : "?"}`;
}

export function seatStatus(info, deciding) {
  const status = info.kind === "bot" ? `bot: ${info.agent}` : info.connected ? "online" : "away";
  return `${status}${deciding ? " · deciding now" : ""}`;
}
