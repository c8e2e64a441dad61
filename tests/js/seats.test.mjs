import { test } from "node:test";
import assert from "node:assert/strict";
import {
  seatName, playerName, winnersLine, awaitWords, titleLine, scoreRows, scoreNote, endWords, reissuedText,
} from "../../src/cardlab/web/static/lib/seats.js";

const SEATS = [
  { name: "Ada", kind: "human" }, { name: "Seat 1", kind: "bot" }, { name: "Bo", kind: "human" }, { name: "greedy bot", kind: "bot" },
];
const view = (more = {}) => ({ you: 0, seq: 4, obs: { decision: "Pick a card" }, table: { title: "TOY", seats: SEATS }, ...more });

test("seatName: a seat with its player's name, when it has one of its own", () => {
  assert.equal(seatName(view(), 0), "Seat 0 (Ada)");
  assert.equal(seatName(view(), 1), "Seat 1");  // named after its seat
  assert.equal(seatName(view(), 9), "Seat 9");
});

test("playerName: you, the player's name, or the seat", () => {
  assert.equal(playerName(view(), 0), "You");
  assert.equal(playerName(view(), 2), "Bo");
  assert.equal(playerName(view({ you: null }), 0), "Ada");
  assert.equal(playerName(view(), 9), "Seat 9");
});

test("winnersLine: each winner named once", () => {
  assert.equal(winnersLine(view()), "Nobody wins.");
  assert.equal(winnersLine(view({ final: { winners: [] } })), "Nobody wins.");
  assert.equal(winnersLine(view({ final: { winners: [0] } })), "You win!");
  assert.equal(winnersLine(view({ final: { winners: [2] } })), "Bo wins!");
  assert.equal(winnersLine(view({ final: { winners: [3] } })), "Greedy bot wins!");
  assert.equal(winnersLine(view({ final: { winners: [2, 0] } })), "Bo and You share the win.");
  assert.equal(winnersLine(view({ final: { winners: [0, 1, 2] } })), "You, Seat 1 and Bo share the win.");
  // a breakdown's winners come first
  assert.equal(winnersLine(view({ final: { winners: [0], breakdown: { winners: [2] } } })), "Bo wins!");
});

test("awaitWords: whose decision it is, and whether it is this page's", () => {
  assert.deepEqual(awaitWords(view({ terminal: true, final: { winners: [2] } })), { text: "Game over. Bo wins!", mine: false });
  assert.deepEqual(awaitWords(view({ current_player: 0 })), { text: "Your decision: Pick a card", mine: true });
  assert.deepEqual(awaitWords(view({ current_player: 0, obs: {} })), { text: "Your decision: ", mine: true });
  assert.deepEqual(awaitWords(view({ current_player: 2, legal: [{ action: 1 }] })),
    { text: "Your choice: everyone chooses at the same time, in secret.", mine: true });
  assert.deepEqual(awaitWords(view({ current_player: 2, legal: [], chosen: { label: "pick Router" } })),
    { text: "You chose: pick Router. Waiting for the others to choose.", mine: false });
  assert.deepEqual(awaitWords(view({ current_player: 1, legal: [] })), { text: "Seat 1: bot is thinking. Pick a card", mine: false });
  assert.deepEqual(awaitWords(view({ current_player: 2 })), { text: "Seat 2 (Bo): waiting. Pick a card", mine: false });
  assert.deepEqual(awaitWords(view({ current_player: 7 })), { text: "Seat 7: waiting. Pick a card", mine: false });
});

test("titleLine: the game, its variant once, the step and who this page is", () => {
  assert.equal(titleLine(view(), "seat 0"), "TOY · step 4 · you are seat 0");
  assert.equal(titleLine(view({ table: { title: "TOY", variant: "TOY, quick rules" } }), "host"), "TOY, quick rules · step 4 · you are host");
  assert.equal(titleLine(view({ table: { title: "TOY", variant: "lab" } }), "spectator"), "TOY (lab) · step 4 · you are spectator");
});

test("scoreRows: winners first, then by points", () => {
  const breakdown = {
    winners: [2], columns: ["a", "b"],
    rows: [{ seat: 0, parts: [1, 2], total: 9, extra: 1 }, { seat: 1, parts: [0, 0], total: 12 }, { seat: 2, parts: [3, 3], total: 6 }],
  };
  assert.deepEqual(scoreRows({ breakdown }), [
    { seat: 2, parts: [3, 3], total: 6 }, { seat: 1, parts: [0, 0], total: 12 }, { seat: 0, parts: [1, 2], total: 9 },
  ]);
  assert.deepEqual(scoreRows({ breakdown, score_direction: "lowest" }).map((r) => r.seat), [2, 0, 1]);
  assert.deepEqual(scoreRows({ winners: [0], returns: [1, 3, 2] }), [
    { seat: 0, parts: [], total: 1 }, { seat: 1, parts: [], total: 3 }, { seat: 2, parts: [], total: 2 },
  ]);
  assert.deepEqual(scoreRows({ winners: [], returns: [] }), []);
});

test("scoreNote: the winner, and an engine's own points in words", () => {
  const legacy = { winners: [0], info: { points: [{ computers: 3, builds: 0, total: 7 }, { computers: 0, total: 0 }] } };
  assert.equal(scoreNote(legacy, 0), "Winner. computers 3, total 7");
  assert.equal(scoreNote(legacy, 1), "total 0");  // zero parts left out, the total kept
  assert.equal(scoreNote(legacy, 2), "");
  assert.equal(scoreNote({ winners: [1], info: {} }, 1), "Winner");
  const broken = { winners: [9], breakdown: { winners: [0] }, info: { points: [{ total: 7 }] } };
  assert.equal(scoreNote(broken, 0), "Winner");  // a breakdown: its winners, no points line
});

test("endWords: how the game ended and its tie-break", () => {
  assert.equal(endWords({ end_reason: "deck_empty", tiebreak: "most_computers" }), "Game ended: deck empty. Tie-break: most computers.");
  assert.equal(endWords({}), "Game ended: over. Tie-break: not needed.");
  assert.equal(endWords({ tiebreak_level: 2 }), "Game ended: over. Tie-break: 2.");
  assert.equal(endWords({ tie_break: "coin_flip" }), "Game ended: over. Tie-break: coin flip.");
  assert.equal(endWords({ tiebreak: null, tie_break: "x" }), "Game ended: over. Tie-break: x.");
});

test("reissuedText: one seat or several", () => {
  assert.equal(reissuedText(view(), [1]),
    "Seat 1: link reissued by the host. Whoever plays it now may be the host, who then sees that seat's cards.");
  assert.equal(reissuedText(view(), [0, 2]),
    "Seat 0 (Ada), Seat 2 (Bo): links reissued by the host. Whoever plays them now may be the host, who then sees that seat's cards.");
});
