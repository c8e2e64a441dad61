import { test } from "node:test";
import assert from "node:assert/strict";
import {
  BASE_KEYS, isPerSeat, seatFacts, isScalar, genericFact, boardLayout, seatTitle, seatScore, seatStatus,
} from "../../src/cardlab/web/static/lib/observation.js";

const OBS = {
  game: "toy", num_players: 2, scores: [1, 2],
  reputation: [5, 6], flags: [true, false], rows: [[1], [2]], per: [{ a: 1 }, { b: 2 }],
  sectors: ["Tech", "Media"], pitch_order: [1, 0], materials: ["x", "y"],
  slots: [{ card: null }, { card: null }], pair: [{ id: "a", name: "A" }, { id: "b", name: "B" }],
  names: ["Ada", "Bo"], short: [1], long: [1, 2, 3],
};

test("isPerSeat: arrays of one entry per seat, not lists that happen to be as long", () => {
  for (const key of ["reputation", "flags", "rows", "per"]) assert.equal(isPerSeat(OBS, key), true, key);
  for (const key of ["scores", "sectors", "pitch_order", "materials", "slots", "pair", "names", "short", "long", "missing", "game"]) {
    assert.equal(isPerSeat(OBS, key), false, key);
  }
  assert.ok(BASE_KEYS.has("scores") && BASE_KEYS.has("events") && !BASE_KEYS.has("reputation"));
});

test("seatFacts: a seat's own facts, the per-seat arrays and the maps keyed by seat", () => {
  const obs = {
    num_players: 2,
    players: [{ seat: 0, hand_size: 3 }, { seat: 1, hand_size: 4, computer: [] }],
    reputation: [5, 6],
    known_in_hands: { 1: ["Router"], 7: ["ghost"] },  // seat 7 is no seat here
  };
  assert.deepEqual(seatFacts(obs), [
    { hand_size: 3, reputation: 5 },
    { hand_size: 4, computer: [], reputation: 6, known_in_hands: ["Router"] },
  ]);
  assert.deepEqual(seatFacts({ num_players: 2 }), [{}, {}]);
  assert.deepEqual(seatFacts({ num_players: 0 }), []);
  assert.deepEqual(seatFacts({ num_players: 1, known_in_hands: null }), [{}]);
});

test("isScalar: a value a chip can hold", () => {
  for (const v of [3, "x", true, undefined, [], [1, "a", null]]) assert.equal(isScalar(v), true, JSON.stringify(v));
  for (const v of [{ a: 1 }, [{}], [[1]], null]) assert.equal(isScalar(v), false, JSON.stringify(v));
});

test("genericFact: a tag, a chip or a zone, empties left out", () => {
  const calls = [];
  const out = {
    tag: (...a) => calls.push(["tag", ...a]),
    chip: (...a) => calls.push(["chip", ...a]),
    zone: (...a) => calls.push(["zone", ...a]),
  };
  genericFact(out, "tower_discount", true);
  genericFact(out, "hand_size", 0);
  genericFact(out, "deal_deck_count", 12);
  genericFact(out, "phase_name", "pick");
  genericFact(out, "sectors", ["Tech", "Media"]);
  genericFact(out, "tableau", [{ id: "a", name: "A" }]);
  genericFact(out, "points", { total: 3 });
  for (const v of [false, null, undefined, "", [], {}]) genericFact(out, "empty", v);
  assert.deepEqual(calls, [
    ["tag", "Tower discount"],
    ["chip", "Hand", 0],
    ["chip", "Deal deck", 12],
    ["chip", "Phase name", "pick"],
    ["chip", "Sectors", "Tech, Media"],
    ["zone", "Tableau", [{ id: "a", name: "A" }]],
    ["zone", "Points", { total: 3 }],
  ]);
});

test("boardLayout: what a game declares, the generic board for the rest", () => {
  assert.deepEqual(boardLayout(undefined), { shared: null, tableau: null, yours: null, tableauAboveHand: false, focus: [] });
  assert.deepEqual(boardLayout({}), { shared: null, tableau: null, yours: null, tableauAboveHand: false, focus: [] });
  assert.deepEqual(boardLayout({ shared: ["race"], tableau: ["computer"], yours: ["builds"], tableauAboveHand: 1, focus: ["race"] }),
    { shared: ["race"], tableau: ["computer"], yours: ["builds"], tableauAboveHand: true, focus: ["race"] });
});

test("seatTitle, seatScore, seatStatus: a seat panel's lines", () => {
  assert.equal(seatTitle(1, { name: "Ada" }, 1, true), "Seat 1 · Ada (you) · winner");
  assert.equal(seatTitle(2, { name: "Bo" }, 1, false), "Seat 2 · Bo");
  assert.equal(seatTitle(0, { name: "Cy" }, null, undefined), "Seat 0 · Cy");
  assert.equal(seatScore({ scores: [3, 5] }, 1, "Reputation"), "Reputation 5");
  assert.equal(seatScore({}, 1, "Score"), "Score ?");
  assert.equal(seatStatus({ kind: "bot", agent: "greedy" }, true), "bot: greedy · deciding now");
  assert.equal(seatStatus({ kind: "human", connected: true }, false), "online");
  assert.equal(seatStatus({ kind: "human", connected: false }, true), "away · deciding now");
});
