import { test } from "node:test";
import assert from "node:assert/strict";
import {
  helloMessage, REFUSALS, refusalText, logLines, replayLines, newLink, rematchPath, isMyTurn, TURN_PREFIX, turnTitle,
  surveyAnswer,
} from "../../src/cardlab/web/static/lib/frames.js";

const params = (fragment) => new URLSearchParams(fragment);

test("helloMessage: a seat by number, else a role (a spectator by default)", () => {
  assert.deepEqual(helloMessage(params("seat=2&token=abc")), { type: "hello", seat: 2, token: "abc" });
  assert.deepEqual(helloMessage(params("seat=0&role=host&token=k")), { type: "hello", seat: 0, token: "k" });
  assert.deepEqual(helloMessage(params("role=host&token=k")), { type: "hello", role: "host", token: "k" });
  assert.deepEqual(helloMessage(params("token=k")), { type: "hello", role: "spectator", token: "k" });
  assert.deepEqual(helloMessage(params("")), { type: "hello", role: "spectator", token: null });
});

test("refusalText: the known cause, the server's reason, or both", () => {
  assert.equal(refusalText(4401, ""), REFUSALS[4401]);
  assert.match(REFUSALS[4401], /does not open this seat/);
  assert.equal(refusalText(4404, "gone"), `${REFUSALS[4404]} The table refused this page: gone.`);
  assert.equal(refusalText(0, "the host revoked this link"), "The table refused this page: the host revoked this link.");
  assert.equal(refusalText(4999, ""), "The table refused this page.");
  assert.equal(refusalText(0, undefined), "The table refused this page.");
});

test("logLines: the narrative, else the raw log in words", () => {
  const narrative = [{ index: 0, group: "Deal 1", text: "Ada pitched" }];
  assert.equal(logLines({ narrative, obs: { log: ["ignored"] } }), narrative);
  assert.deepEqual(logLines({ obs: { log: ["a", { text: "b" }, { kind: "x" }] } }), [
    { index: 0, group: "", text: "a" }, { index: 1, group: "", text: "b" }, { index: 2, group: "", text: '{"kind":"x"}' },
  ]);
  assert.deepEqual(logLines({ obs: {} }), []);
});

test("replayLines: the story's last four lines under their headings", () => {
  const narrative = ["one", "two", "three", "four", "five"].map((text, i) => ({ text, group: i === 4 ? "Round 2" : "" }));
  assert.deepEqual(replayLines({ narrative, obs: {} }), ["two", "three", "four", "Round 2: five"]);
  assert.deepEqual(replayLines({ obs: { log: ["a", { text: "b" }] } }), ["a", "b"]);
  assert.deepEqual(replayLines({ obs: {} }), []);
});

test("newLink: a replaced link and whose it is", () => {
  assert.deepEqual(newLink("https://x.test", "t1", { seat: 0, token: "k" }), { url: "https://x.test/t/t1#seat=0&token=k", who: "seat 0" });
  assert.deepEqual(newLink("http://h", "t2", { role: "host", token: "z" }), { url: "http://h/t/t2#role=host&token=z", who: "the host" });
});

test("rematchPath: the new table's page, its parts escaped", () => {
  assert.equal(rematchPath({ table: "a b", seat: 1, token: "t/k" }), "/t/a%20b#seat=1&token=t%2Fk");
  assert.equal(rematchPath({ table: "t", role: "spectator", token: "k" }), "/t/t#role=spectator&token=k");
  assert.equal(rematchPath({ table: "t", token: "k" }), "/t/t#role=host&token=k");
});

test("isMyTurn: a live game, a seat, and legal moves", () => {
  assert.equal(isMyTurn({ you: 0, legal: [{ action: 1 }] }), true);
  assert.equal(isMyTurn({ you: 0, legal: [{ action: 1 }], terminal: true }), false);
  assert.equal(isMyTurn({ you: null, legal: [{ action: 1 }] }), false);
  assert.equal(isMyTurn({ legal: [{ action: 1 }] }), false);
  assert.equal(isMyTurn({ you: 1, legal: [] }), false);
  assert.equal(isMyTurn({ you: 1 }), false);
});

test("turnTitle: the prefix on your turn only, never twice", () => {
  assert.equal(TURN_PREFIX, "● Your turn — ");
  assert.equal(turnTitle("TOY · cardlab", true), "● Your turn — TOY · cardlab");
  assert.equal(turnTitle("● Your turn — TOY · cardlab", true), "● Your turn — TOY · cardlab");
  assert.equal(turnTitle("● Your turn — TOY · cardlab", false), "TOY · cardlab");
  assert.equal(turnTitle("TOY · cardlab", false), "TOY · cardlab");
});

test("surveyAnswer: what was given, trimmed; the rest left out", () => {
  assert.deepEqual(surveyAnswer(null, null, "", "   "), { type: "survey" });
  assert.deepEqual(surveyAnswer("4", "too_long", "  the pass rule ", "fun"),
    { type: "survey", fun: 4, length: "too_long", confusing: "the pass rule", text: "fun" });
  assert.deepEqual(surveyAnswer("1", null, "", ""), { type: "survey", fun: 1 });
});
