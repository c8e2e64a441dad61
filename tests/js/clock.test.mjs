import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, timeRanOut, secondsLeft, rematchCountdown } from "../../src/cardlab/web/static/lib/clock.js";

test("clockText: whole seconds left, never below zero", () => {
  assert.equal(clockText(12000), " · time left 12 s");
  assert.equal(clockText(12499), " · time left 12 s");
  assert.equal(clockText(12500), " · time left 13 s");
  assert.equal(clockText(400), " · time left 0 s");
  assert.equal(clockText(0), " · time left 0 s");
  assert.equal(clockText(-3000), " · time left 0 s");
});

test("timeRanOut: at or within 1.5 s of the timer's end; never without a timer", () => {
  assert.equal(timeRanOut(null, 1e9), false);
  assert.equal(timeRanOut(10000, 8499), false);
  assert.equal(timeRanOut(10000, 8500), true);
  assert.equal(timeRanOut(10000, 12000), true);
});

test("secondsLeft: rounded up, never below zero", () => {
  assert.equal(secondsLeft(5000), 5);
  assert.equal(secondsLeft(4001), 5);
  assert.equal(secondsLeft(1), 1);
  assert.equal(secondsLeft(0), 0);
  assert.equal(secondsLeft(-700), 0);
});

test("rematchCountdown: who started it and when this page follows", () => {
  assert.equal(rematchCountdown("Ada", 3), "Ada started a rematch (same seats, a new deal). Joining in 3 s…");
  assert.equal(rematchCountdown(null, 0), "A player started a rematch (same seats, a new deal). Joining in 0 s…");
});
