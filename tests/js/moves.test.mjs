import { test } from "node:test";
import assert from "node:assert/strict";
import {
  does, moveIds, payIds, moveCell, myPlacing, cellNeighbours, cellWords, logWords, moveText, placements,
  movesInAll, asksConfirm, forcedMove, stillLegal, movedWithoutUs,
} from "../../src/cardlab/web/static/lib/moves.js";

// A seat's computer: Atom CPU at (0,0), 24 GB GPU right of it at (1,0); seat 1 has none.
const part = (x, y, id, name) => ({ x, y, card: { id, name } });
const OBS = {
  players: [
    { seat: 0, computer: [part(0, 0, "c1", "Atom CPU"), part(1, 0, "c2", "24 GB GPU")], placing: { id: "p1", name: "USB Hub" } },
    { seat: 1, computer: [] },
  ],
  hand: [{ id: "h1", name: "Router" }, { id: "h2", name: "2 TB HDD" }],
};

test("does: the move's description, or a plain action", () => {
  const d = { kind: "play", cards: ["h1"] };
  assert.equal(does({ does: d }), d);
  assert.deepEqual(does({ label: "Pass" }), { kind: "action" });
});

test("moveIds: cards, then alternatives, then targets", () => {
  assert.deepEqual(moveIds({ does: { kind: "swap", cards: ["a"], alternatives: ["b", "c"], targets: ["t"] } }), ["a", "b", "c", "t"]);
  assert.deepEqual(moveIds({ does: { kind: "buy", targets: ["t"] } }), ["t"]);
  assert.deepEqual(moveIds({ does: { kind: "play", cards: ["a", "a"] } }), ["a", "a"]);  // as described
  assert.deepEqual(moveIds({ does: {} }), []);
  assert.deepEqual(moveIds({ label: "Pass" }), []);
});

test("payIds: the cards that can pay, else none", () => {
  assert.deepEqual(payIds({ does: { kind: "requisition", targets: ["r1"], pays_with: ["m1", "m2"] } }), ["m1", "m2"]);
  assert.deepEqual(payIds({ does: { kind: "draw" } }), []);
  assert.deepEqual(payIds({}), []);
});

test("moveCell: the first cell a move places on", () => {
  assert.deepEqual(moveCell({ does: { kind: "place", cells: [[2, -1], [0, 0]] } }), [2, -1]);
  assert.equal(moveCell({ does: { kind: "place", cells: [] } }), null);
  assert.equal(moveCell({ does: { kind: "place", cells: "1,2" } }), null);
  assert.equal(moveCell({ does: { kind: "play" } }), null);
  assert.equal(moveCell({}), null);
});

test("myPlacing: the part a seat is placing, when named", () => {
  assert.deepEqual(myPlacing(OBS, 0), { id: "p1", name: "USB Hub" });
  assert.equal(myPlacing(OBS, 1), null);
  assert.equal(myPlacing(OBS, 5), null);
  assert.equal(myPlacing({ players: [{ placing: { id: "x" } }] }, 0), null);  // no name
  assert.equal(myPlacing({}, 0), null);
});

test("cellNeighbours: the parts a cell touches; y grows downward", () => {
  assert.equal(cellNeighbours(OBS, 0, 1, 1), "below 24 GB GPU");
  assert.equal(cellNeighbours(OBS, 0, 0, -1), "above Atom CPU");
  assert.equal(cellNeighbours(OBS, 0, 2, 0), "right of 24 GB GPU");
  assert.equal(cellNeighbours(OBS, 0, -1, 0), "left of Atom CPU");
  assert.equal(cellNeighbours(OBS, 0, 5, 5), "");
  assert.equal(cellNeighbours(OBS, 1, 0, 0), "");
  assert.equal(cellNeighbours({}, 0, 0, 0), "");
  // beside two parts: above, below, left of, right of, in that order
  const two = { players: [{ computer: [part(0, 0, "a", "A"), part(1, 1, "b", "B")] }] };
  assert.equal(cellNeighbours(two, 0, 1, 0), "above B, right of A");
});

test("cellWords: beside which parts, else a new spot or the first part", () => {
  assert.equal(cellWords(OBS, 0, 1, 1), "below 24 GB GPU");
  assert.equal(cellWords(OBS, 0, 5, 5), "in a new spot");
  assert.equal(cellWords(OBS, 1, 0, 0), "as your first part");
  assert.equal(cellWords({}, 0, 0, 0), "as your first part");
});

test("logWords: cells in a seat's line named by their neighbours", () => {
  assert.equal(logWords(OBS, { seat: 0, text: "Seat 0 placed Core X8 CPU at (2,0)" }), "Seat 0 placed Core X8 CPU right of 24 GB GPU");
  assert.equal(logWords(OBS, { seat: 0, text: "placed Atom CPU at (0, 0)" }), "placed Atom CPU as its first part");
  assert.equal(logWords(OBS, { seat: 0, text: "placed X at (9,9)" }), "placed X at (9,9)");  // no neighbour: kept
  assert.equal(logWords(OBS, { seat: 0, text: "A at (2,0); B at (-1,0)" }), "A right of 24 GB GPU; B left of Atom CPU");
  // a line of no seat, or of a seat the observation does not show, keeps the engine's words
  assert.equal(logWords(OBS, { seat: null, text: "X at (2,0)" }), "X at (2,0)");
  assert.equal(logWords(OBS, { text: "X at (2,0)" }), "X at (2,0)");
  assert.equal(logWords(OBS, { seat: 4, text: "X at (2,0)" }), "X at (2,0)");
  assert.equal(logWords({ hand: [] }, { seat: 0, text: "X at (2,0)" }), "X at (2,0)");
  assert.equal(logWords(OBS, { seat: 0, text: 42 }), "42");
  // the shared pattern keeps no state between lines
  assert.equal(logWords(OBS, { seat: 0, text: "C at (2,0)" }), "C right of 24 GB GPU");
});

test("moveText: a placement in words, every other move as its label", () => {
  const view = { obs: OBS, you: 0 };
  const place = { label: "place USB Hub at (1,1)", does: { kind: "place", cards: ["p1"], cells: [[1, 1]] } };
  assert.equal(moveText(view, place), "Place USB Hub below 24 GB GPU");
  assert.equal(moveText(view, { label: "Pass", does: { kind: "pass" } }), "Pass");
  assert.equal(moveText(view, { label: "Draw" }), "Draw");
  // no part being placed: the card the move names, else no name at all
  const seat1 = { obs: OBS, you: 1 };
  assert.equal(moveText(seat1, { label: "x", does: { kind: "place_part", cards: ["h2"], cells: [[0, 0]] } }), "Place part 2 TB HDD as your first part");
  assert.equal(moveText(seat1, { label: "x", does: { kind: "place", cells: [[0, 0]] } }), "Place as your first part");
  assert.equal(moveText(seat1, { label: "x", does: { kind: "place", cards: ["zz"], cells: [[0, 0]] } }), "Place zz as your first part");
});

test("placements: the cells the legal moves place on, with their words and part", () => {
  const place = { action: 7, label: "place USB Hub at (2,0)", does: { kind: "place", cells: [[2, 0]] } };
  const pass = { action: 8, label: "Pass", does: { kind: "pass" } };
  assert.deepEqual(placements({ obs: OBS, you: 0, legal: [pass, place] }), [
    { x: 2, y: 0, action: 7, label: "Place USB Hub right of 24 GB GPU", part: "USB Hub", move: place },
  ]);
  const bare = { action: 1, label: "x", does: { kind: "place_part", cells: [[0, 0]] } };
  const named = { action: 2, label: "y", does: { kind: "place", cards: ["h1"], cells: [[1, 0]] } };
  const got = placements({ obs: OBS, you: 1, legal: [bare, named] });
  assert.deepEqual(got.map((p) => p.part), ["place part", "Router"]);  // the kind in words when nothing is named
  assert.deepEqual(placements({ obs: OBS, you: 0 }), []);
});

test("movesInAll: the moves every selected card shares, in the first card's order", () => {
  const [a, b, c] = [{ n: "a" }, { n: "b" }, { n: "c" }];
  assert.deepEqual(movesInAll([new Set([a, b, c]), new Set([c, a])]), [a, c]);
  assert.deepEqual(movesInAll([new Set([b, a])]), [b, a]);
  assert.deepEqual(movesInAll([new Set([a]), new Set()]), []);
  assert.deepEqual(movesInAll([]), []);
});

test("asksConfirm: the game's say, else costly, else two different hand cards", () => {
  const costly = { does: { kind: "bid", costly: true } };
  const plain = { does: { kind: "play" } };
  assert.equal(asksConfirm(costly, false, []), false);  // the game said no
  assert.equal(asksConfirm(plain, true, []), true);
  assert.equal(asksConfirm(plain, 1, []), true);
  assert.equal(asksConfirm(costly, null, []), true);
  assert.equal(asksConfirm(costly, undefined, []), true);
  assert.equal(asksConfirm(plain, undefined, ["Polymer", "CPU"]), true);
  assert.equal(asksConfirm(plain, undefined, ["Polymer", "Polymer"]), false);  // one kind of card
  assert.equal(asksConfirm(plain, undefined, ["Polymer"]), false);
  assert.equal(asksConfirm({}, undefined, []), false);
});

test("forcedMove: the single legal move, unless over or already answered", () => {
  const m = { action: 1, label: "Draw" };
  assert.equal(forcedMove({ seq: 4, legal: [m] }, null), m);
  assert.equal(forcedMove({ seq: 4, legal: [m] }, 3), m);
  assert.equal(forcedMove({ seq: 4, legal: [m] }, 4), null);
  assert.equal(forcedMove({ seq: 4, legal: [m], terminal: true }, null), null);
  assert.equal(forcedMove({ seq: 4, legal: [m, { action: 2 }] }, null), null);
  assert.equal(forcedMove({ seq: 4, legal: [] }, null), null);
  assert.equal(forcedMove({ seq: 4 }, null), null);
});

test("stillLegal: the same step and the move still offered", () => {
  const view = { seq: 5, legal: [{ action: 3 }, { action: 9 }] };
  assert.equal(stillLegal(view, { seq: 5, action: 9 }), true);
  assert.equal(stillLegal(view, { seq: 4, action: 9 }), false);
  assert.equal(stillLegal(view, { seq: 5, action: 4 }), false);
});

test("movedWithoutUs: our decision passed without this page's move", () => {
  const before = { seq: 3, you: 1, current_player: 1, legal: [{ action: 0 }] };
  assert.equal(movedWithoutUs(before, { seq: 4 }, null), true);
  assert.equal(movedWithoutUs(before, { seq: 4 }, 2), true);
  assert.equal(movedWithoutUs(before, { seq: 4 }, 3), false);  // we moved
  assert.equal(movedWithoutUs(before, { seq: 3 }, null), false);  // not moved on
  assert.equal(movedWithoutUs({ ...before, current_player: 0 }, { seq: 4 }, null), false);  // not ours
  assert.equal(movedWithoutUs({ ...before, legal: [] }, { seq: 4 }, null), false);
  assert.equal(movedWithoutUs({ seq: 3, you: 1, current_player: 1 }, { seq: 4 }, null), false);
});
