import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AS_WRITTEN, armValue, designOptions, percent, playersWords, progressWords, changedWords, MARKS, verdictWords, claimText,
  claimMoved, figure, experienceCell,
} from "../../src/cardlab/web/static/lib/design.js";

test("armValue: the cards as written, else a version's number", () => {
  assert.equal(armValue(AS_WRITTEN), "as written");
  assert.equal(armValue("3"), 3);
  assert.ok(Number.isNaN(armValue("x")));
});

test("designOptions: only the levers changed from their default, each in its type", () => {
  const specs = [
    { name: "cap", type: "integer", default: 5 }, { name: "on", type: "boolean", default: false },
    { name: "off", type: "boolean", default: true }, { name: "mode", type: "string", default: "a" },
    { name: "rate", type: "float", default: 0.5 },
  ];
  assert.deepEqual(designOptions([["cap", "7"], ["on", "true"], ["off", "false"], ["mode", "b"], ["rate", "0.25"]], specs),
    { cap: 7, on: true, off: false, mode: "b", rate: 0.25 });
  assert.deepEqual(designOptions([["cap", "5"], ["on", "false"], ["mode", ""], ["ghost", "1"]], specs), {});
  assert.deepEqual(designOptions([], specs), {});
});

test("percent: a share as a whole percentage", () => {
  assert.equal(percent(0.456), "46%");
  assert.equal(percent(0), "0%");
  assert.equal(percent(1), "100%");
  assert.equal(percent(null), "–");
  assert.equal(percent("0.5"), "–");
});

test("playersWords: the survey's answers at a version's tables, beside the bots", () => {
  const p = {
    answers: 2, fun: { mean: 4.5, answered: 2 }, length: { too_short: 0, right: 1, too_long: 1 },
    play: { games: 3, humans: { win_share: 0.5, mean_points: 12 }, bots: { win_share: 0.25, mean_points: null } },
    confusing: ["the pass"], comments: ["fun!"],
  };
  assert.deepEqual(playersWords(p), {
    text: "players: 2 answer(s), fun 4.5/5 (2 answered), length: 1 right, 1 too long · in 3 game(s): humans won 50% of their seats (mean points 12), bots 25% (–)",
    said: ["confusing: the pass", "fun!"],
  });
  const quiet = { ...p, fun: { mean: null, answered: 0 }, length: { too_short: 0, right: 0, too_long: 0 }, confusing: [], comments: [] };
  assert.deepEqual(playersWords(quiet), {
    text: "players: 2 answer(s), no fun score · in 3 game(s): humans won 50% of their seats (mean points 12), bots 25% (–)",
    said: [],
  });
  assert.equal(playersWords(null), null);
  assert.equal(playersWords({ answers: 0 }), null);
  const words = playersWords({ ...p, length: { a_bit_too_long: 2 } }).text;
  assert.ok(words.includes("length: 2 a bit too long"), words);  // every underscore a space
});

test("progressWords: a comparison running, done or failed, with its class", () => {
  const st = { state: "running", labels: ["as written", "version 2"], done: 40, total: 400, stage: "playing", estimated: true };
  assert.deepEqual(progressWords(st), ["as written against version 2: 40 of about 400 games · playing", ""]);
  assert.deepEqual(progressWords({ ...st, estimated: false, run: "arm b", run_done: 10, run_total: 200 }),
    ["as written against version 2: 40 of 400 games · playing · arm b: 10/200", ""]);
  assert.deepEqual(progressWords({ state: "done", done: 400, elapsed_s: 31.5, estimated: true }), ["Done: 400 games in 31.5 s.", "good"]);
  assert.deepEqual(progressWords({ state: "failed", error: "no engine" }), ["The comparison failed: no engine", "error"]);
  assert.deepEqual(progressWords({ state: "failed" }), ["The comparison failed: unknown error", "error"]);
});

test("changedWords: what a comparison changed and how it was played", () => {
  const r = { games: 200, games_played: 400, elapsed_s: 12 };
  assert.equal(changedWords({ ...r, what: "cards" }),
    "What changed: the cards. 200 games an arm on the same seeds; 400 games played in all (12 s).");
  assert.equal(changedWords({ ...r, what: "cap", values: [1, 2] }),
    "What changed: the rule option cap (1 against 2). 200 games an arm on the same seeds; 400 games played in all (12 s).");
});

test("verdictWords, claimText, claimMoved: the claims' table", () => {
  assert.equal(verdictWords({ verdict: "holds" }), MARKS.holds);
  assert.equal(verdictWords({ verdict: "fails" }), "✘ fails");
  assert.equal(verdictWords({ verdict: "needs_data" }), "… needs data");
  assert.equal(verdictWords({ verdict: "odd" }), "odd");
  assert.equal(verdictWords(null), "–");
  assert.equal(claimText({ text: "No seat wins 60%", kind: "invariant" }), "No seat wins 60% (engine invariant)");
  assert.equal(claimText({ text: "Games end", kind: "claim" }), "Games end");
  assert.equal(claimMoved({ arms: [{ verdict: "holds" }, { verdict: "fails" }] }), true);
  assert.equal(claimMoved({ arms: [{ verdict: "holds" }, { verdict: "holds" }] }), false);
  assert.equal(claimMoved({ arms: [null, { verdict: "holds" }] }), true);  // missing in one arm
});

test("figure and experienceCell: a metric in its unit, with its interval and reading", () => {
  assert.equal(figure(0.1234, "share"), "12.3%");
  assert.equal(figure(3.14159, "minutes"), "3.14");
  assert.equal(figure(2), "2");
  assert.equal(figure(null, "share"), "–");
  assert.equal(experienceCell({ value: 0.5, interval: [0.4, 0.6], reading: "in band" }, "share"), "50% (40% – 60%) in band");
  assert.equal(experienceCell({ value: 3 }, "minutes"), "3 ");
  assert.equal(experienceCell(null, "share"), "–");
});
