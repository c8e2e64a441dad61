import { test } from "node:test";
import assert from "node:assert/strict";
import {
  isCard, isCardList, cardMark, cardColour, cardFacts, cardName, cardById, sameFaces, isEmpty, holdsCards,
} from "../../src/cardlab/web/static/lib/cards.js";

test("isCard: a name and an id, or a face-down card", () => {
  assert.ok(isCard({ id: "u1", name: "Router" }));
  assert.ok(isCard({ id: null, name: "Router" }));  // an id key, even null
  assert.ok(isCard({ name: "?", hidden: true }));
  assert.ok(!isCard({ name: "Router" }));
  assert.ok(!isCard({ id: "u1" }));
  assert.ok(!isCard([{ id: "u1", name: "Router" }]));
  assert.ok(!isCard(null));
  assert.ok(!isCard("Router"));
});

test("isCardList: a non-empty list of cards only", () => {
  assert.equal(isCardList([{ id: "a", name: "A" }, { name: "?", hidden: true }]), true);
  assert.equal(isCardList([]), false);
  assert.equal(isCardList([{ id: "a", name: "A" }, { x: 1 }]), false);
  assert.equal(isCardList({ id: "a", name: "A" }), false);
});

test("cardMark: the card's symbol, else two letters of its kind", () => {
  assert.equal(cardMark({ name: "Atom", symbol: "⚡", kind: "cpu" }), "⚡");
  assert.equal(cardMark({ name: "Atom", kind: "cpu" }), "CP");
  assert.equal(cardMark({ name: "Atom", type: "gpu" }), "GP");
  assert.equal(cardMark({ name: "Atom", category: "x" }), "X");
  assert.equal(cardMark({ name: "atom" }), "AT");
  assert.equal(cardMark({}), "?");
  assert.equal(cardMark({ kind: 42 }), "42");
});

test("cardColour: the card's own colour, else a hue from its kind", () => {
  assert.equal(cardColour({ colour: "red", kind: "cpu" }), "red");
  assert.equal(cardColour({ color: "blue" }), "blue");
  // h = (0 * 31 + 97) % 360 for "a"; then (97 * 31 + 98) % 360 for "ab"
  assert.equal(cardColour({ kind: "a" }), "hsl(97 55% 42%)");
  assert.equal(cardColour({ kind: "ab" }), "hsl(225 55% 42%)");
  assert.equal(cardColour({ type: "ab", name: "zz" }), "hsl(225 55% 42%)");
  assert.equal(cardColour({ sector: "ab", name: "zz" }), "hsl(225 55% 42%)");
  assert.equal(cardColour({ name: "ab" }), "hsl(225 55% 42%)");
  // the same kind, the same hue; another kind, another
  assert.equal(cardColour({ kind: "cpu", name: "A" }), cardColour({ kind: "cpu", name: "B" }));
  assert.notEqual(cardColour({ kind: "cpu" }), cardColour({ kind: "gpu" }));
});

test("cardFacts: scalar fields in words, connector colours last", () => {
  const card = {
    id: "c1", name: "Atom", kind: "cpu", number: 3, colour: "red", symbol: "*", line_mark: "x", edges: { N: "red" },
    cost: 3, tower: true, spent: false, note: null, tags: ["a"], rare_earth: 2, green: [1, 2], red: [3],
  };
  assert.deepEqual(cardFacts(card), ["cost 3", "tower", "rare earth 2", "green 1/2", "red 3"]);
  assert.deepEqual(cardFacts({ id: "c2", name: "Plain" }), []);
});

test("cardName: a card's name by its id anywhere in the observation", () => {
  const obs = {
    hand: [{ id: "h1", name: "Router" }],
    players: [{ seat: 0, computer: [{ x: 0, y: 0, card: { id: "p1", name: "Atom CPU" } }] }],
    bench: { slots: [{ card: { id: 7, name: "Seven" } }] },
  };
  assert.equal(cardName(obs, "h1"), "Router");
  assert.equal(cardName(obs, "p1"), "Atom CPU");
  assert.equal(cardName(obs, 7), "Seven");
  assert.equal(cardName(obs, "nope"), "nope");  // the id itself when the view has none
  assert.equal(cardName(obs, 8), "8");
  assert.equal(cardName({ a: { id: "x", name: 5 } }, "x"), "x");  // a name that is no text
  const loop = { id: "top" };
  loop.self = loop;
  loop.list = [loop, { id: "deep", name: "Deep" }];
  assert.equal(cardName(loop, "deep"), "Deep");  // a cycle is walked once
  assert.equal(cardName(null, "x"), "x");
});

test("cardById: the card object itself, or null", () => {
  const router = { id: "h1", name: "Router" };
  const obs = { you: { hand: [router] }, other: [{ id: "h2" }] };
  assert.equal(cardById(obs, "h1"), router);
  assert.equal(cardById(obs, "h2"), null);  // an id without a name is no card
  assert.equal(cardById(obs, "zz"), null);
  assert.equal(cardById("h1", "h1"), null);
  assert.equal(cardById(null, "h1"), null);
});

test("sameFaces: identical cards grouped whatever their ids, in first-seen order", () => {
  const a1 = { id: "m1", name: "Polymer", kind: "material" };
  const b = { id: "m2", name: "CPU", kind: "material" };
  const a2 = { id: "m3", name: "Polymer", kind: "material" };
  const odd = { id: "m4", name: "Polymer", kind: "material", spent: true };
  assert.deepEqual(sameFaces([a1, b, a2, odd]), [[a1, a2], [b], [odd]]);
  assert.deepEqual(sameFaces([]), []);
});

test("isEmpty: nothing worth a line", () => {
  for (const v of [null, undefined, "", false, [], {}]) assert.equal(isEmpty(v), true, JSON.stringify(v));
  for (const v of [0, "x", true, [0], { a: 1 }, { id: "a", name: "A" }]) assert.equal(isEmpty(v), false, JSON.stringify(v));
});

test("holdsCards: a card, a list of cards, or slots", () => {
  assert.equal(holdsCards({ id: "a", name: "A" }), true);
  assert.equal(holdsCards([{ id: "a", name: "A" }]), true);
  assert.equal(holdsCards([{ card: null }, { card: { id: "a", name: "A" } }]), true);
  assert.equal(holdsCards([]), false);
  assert.equal(holdsCards([{ x: 1 }]), false);
  assert.equal(holdsCards(["a", "b"]), false);
  assert.equal(holdsCards(3), false);
});
