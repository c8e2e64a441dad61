// Legal moves as the engine describes them (`move.does`: {kind, cards, alternatives,
// targets, cells, slot, amount, costly, pays_with}): the cards a move names and can
// pay with, the cell it places on, a move and a log line in words, the touch rules.
// The table reads the description, never the label. Pure functions (tests/js/).
import { cardName } from "./cards.js";
import { words } from "./words.js";

// What a legal move does; a move without a description is a plain action.
export const does = (move) => move.does || { kind: "action" };

// The ids of the cards a move plays or spends (`cards`, or `alternatives` when any one
// of several equal cards will do) and of the cards it acts on (`targets`).
export function moveIds(move) {
  const d = does(move);
  return [...(d.cards || []), ...(d.alternatives || []), ...(d.targets || [])];
}

// The mover's cards that can pay what a move costs, paid in the decisions after it (a
// Requisition's materials): shown with the decision and lit with the move, never touched
// to choose it.
export const payIds = (move) => does(move).pays_with || [];

// The grid cell [x, y] a move places on, or null.
export function moveCell(move) {
  const cells = does(move).cells;
  return Array.isArray(cells) && cells.length ? cells[0] : null;
}

// The part a seat is placing now, when its game says so (obs.players[seat].placing).
export function myPlacing(obs, seat) {
  const p = Array.isArray(obs.players) ? obs.players[seat] : null;
  return p && p.placing && p.placing.name ? p.placing : null;
}

// Which parts a cell touches ("left of 2 TB HDD, below 24 GB GPU"); y grows downward.
export function cellNeighbours(obs, seat, x, y) {
  const p = Array.isArray(obs.players) ? obs.players[seat] : null;
  if (!p || !Array.isArray(p.computer)) return "";
  const at = new Map(p.computer.map((c) => [`${c.x},${c.y}`, c.card && c.card.name]));
  const sides = [[x, y + 1, "above"], [x, y - 1, "below"], [x + 1, y, "left of"], [x - 1, y, "right of"]];
  return sides.filter(([a, b]) => at.get(`${a},${b}`)).map(([a, b, w]) => `${w} ${at.get(`${a},${b}`)}`).join(", ");
}

// Where a cell is, in words: beside which parts, else "as your first part".
export function cellWords(obs, seat, x, y) {
  const near = cellNeighbours(obs, seat, x, y);
  if (near) return near;
  const p = Array.isArray(obs.players) ? obs.players[seat] : null;
  return p && Array.isArray(p.computer) && p.computer.length ? "in a new spot" : "as your first part";
}

// A log line that names grid cells ("... Core X8 CPU at (1,0)") names them by the
// parts beside them in that seat's computer as it stands now ("right of Atom CPU"),
// (0,0) as its first part; a line of no seat keeps the engine's words.
export const CELLS = /\bat \((-?\d+),\s*(-?\d+)\)/g;
export function logWords(obs, line) {
  const text = String(line.text);
  const seat = line.seat;
  if (seat === null || seat === undefined || !Array.isArray(obs.players) || !obs.players[seat]) return text;
  return text.replace(CELLS, (all, x, y) => {
    if (Number(x) === 0 && Number(y) === 0) return "as its first part";
    return cellNeighbours(obs, seat, Number(x), Number(y)) || all;
  });
}

// A move that places on a grid cell (its description's `cells`), read in words instead
// of coordinates: "Place USB Hub below 24 GB GPU" (the cell's neighbours), "... as your
// first part" on an empty computer. The label itself (the button's title) stays the
// engine's; every other move reads as its label.
export function moveText(view, move) {
  const cell = moveCell(move);
  if (!cell) return move.label;
  const placing = myPlacing(view.obs, view.you);
  const ids = moveIds(move);
  const name = placing ? placing.name : ids.length ? cardName(view.obs, ids[0]) : "";
  const verb = words(move.does.kind);
  return `${verb.charAt(0).toUpperCase()}${verb.slice(1)}${name ? ` ${name}` : ""} ${cellWords(view.obs, view.you, cell[0], cell[1])}`;
}

// Legal moves that name a grid cell become cells on your computer: where, the move's
// action, its words and the part it places ({x, y, action, label, part, move}).
export function placements(view) {
  const out = [];
  const placing = myPlacing(view.obs, view.you);
  for (const move of view.legal || []) {
    const cell = moveCell(move);
    const ids = moveIds(move);
    if (cell) out.push({ x: cell[0], y: cell[1], action: move.action, label: moveText(view, move),
      part: placing ? placing.name : ids.length ? cardName(view.obs, ids[0]) : words(does(move).kind), move });
  }
  return out;
}

// The moves in every one of the given sets of moves (those of each selected card), in
// the first set's order: what the selected cards can still become together.
export function movesInAll(sets) {
  let out = null;
  for (const ms of sets) out = out === null ? [...ms] : out.filter((m) => ms.has(m));
  return out || [];
}

// Whether a move chosen by touching cards asks to be confirmed: the game's `confirm`
// hook decides when it says true or false (`said`); else the engine's `costly` mark (a
// bid, a Requisition), else whether it spends two or more different cards of your hand
// (`handNames`: the names of the hand cards it names).
export function asksConfirm(move, said, handNames) {
  if (said !== undefined && said !== null) return !!said;
  if (does(move).costly) return true;
  return new Set(handNames).size >= 2;
}

// A decision with a single legal move is no decision: that move, for the page to take
// (none once the game is over or this page already moved at this step).
export function forcedMove(view, clicked) {
  if (view.terminal || !view.legal || view.legal.length !== 1 || clicked === view.seq) return null;
  return view.legal[0];
}

// A move clicked while offline ({action, seq}) may still be sent: the table is at the
// same step and the move is still legal.
export function stillLegal(view, pending) {
  return view.seq === pending.seq && view.legal.some((m) => m.action === pending.action);
}

// The table moved on from a decision of ours that this page never answered (`clicked`:
// the step this page last sent a move at): the turn timer may have played it.
export function movedWithoutUs(before, now, clicked) {
  const mine = before.legal && before.legal.length && before.current_player === before.you;
  return !(!mine || now.seq <= before.seq || clicked === before.seq);
}
