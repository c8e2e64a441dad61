import { test } from "node:test";
import assert from "node:assert/strict";
import { fmt, percentTenths, answersLine, playHeading, moveKindsText } from "../../src/cardlab/web/static/lib/feedback.js";

test("fmt and percentTenths: a figure, a share to a tenth, a dash for none", () => {
  assert.equal(fmt(3), "3");
  assert.equal(fmt(0), "0");
  assert.equal(fmt(2.5, " s"), "2.5 s");
  assert.equal(fmt(null), "–");
  assert.equal(fmt(undefined, " s"), "–");
  assert.equal(percentTenths(0.1234), "12.3%");
  assert.equal(percentTenths(0), "0%");
  assert.equal(percentTenths(1), "100%");
  assert.equal(percentTenths(null), "–");
});

test("answersLine: the answers, fun and length in one line", () => {
  const s = { answers: 3, fun: { mean: 4.2, answered: 3, histogram: { 1: 0, 4: 2, 5: 1 } }, length: { too_short: 0, right: 2, too_long: 1 } };
  assert.equal(answersLine(s), "3 answers. Fun 4.2 of 5 (3 rated: 1: 0, 4: 2, 5: 1).  Length: too short 0, about right 2, too long 1.");
  const one = { answers: 1, fun: { mean: null, answered: 0, histogram: {} }, length: { too_short: 1, right: 0, too_long: 0 } };
  assert.equal(answersLine(one), "1 answer. Fun – of 5 (0 rated: ).  Length: too short 1, about right 0, too long 0.");
});

test("playHeading: the games the humans and bots shared", () => {
  assert.equal(playHeading({ games: 1, mean_length: 40 }), "Humans and bots at the same 1 table game (about 40 decisions)");
  assert.equal(playHeading({ games: 5, mean_length: null }), "Humans and bots at the same 5 table games (about – decisions)");
});

test("moveKindsText: the five most played kinds of move, most first", () => {
  const kinds = { draw: 0.1, play_card: 0.4, pass: 0.05, bid: 0.2, swap: 0.15, trade_in: 0.1 };
  assert.equal(moveKindsText(kinds), "play card 40%, bid 20%, swap 15%, draw 10%, trade in 10%");
  assert.equal(moveKindsText({}), "");
  assert.equal(moveKindsText(undefined), "");
});
