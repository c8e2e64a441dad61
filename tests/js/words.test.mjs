import { test } from "node:test";
import assert from "node:assert/strict";
import {
  words, seatWord, plural, named, label, slotNote, summary, inWords, valueWords, countedNames, letters,
} from "../../src/cardlab/web/static/lib/words.js";

test("words: every underscore becomes a space", () => {
  assert.equal(words("deal_deck_count"), "deal deck count");
  assert.equal(words("plain"), "plain");
  assert.equal(words("_lead__double_"), " lead  double ");
});

test("seatWord: a seat by number, none for no seat", () => {
  assert.equal(seatWord(0), "Seat 0");
  assert.equal(seatWord(3), "Seat 3");
  assert.equal(seatWord(null), "none");
  assert.equal(seatWord(undefined), "none");
});

test("plural: one, many, and an irregular plural", () => {
  assert.equal(plural(1, "card"), "1 card");
  assert.equal(plural(0, "card"), "0 cards");
  assert.equal(plural(2, "card"), "2 cards");
  assert.equal(plural(1, "Patch", "Patches"), "1 Patch");
  assert.equal(plural(3, "Patch", "Patches"), "3 Patches");
});

test("named: a list by its names, anything else as text", () => {
  assert.equal(named([{ name: "Case" }, "Router", 3, null]), "Case, Router, 3, null");
  assert.equal(named([]), "");
  assert.equal(named("Case"), "Case");
  assert.equal(named(7), "7");
});

test("label: a key as a label, a trailing count or size dropped", () => {
  assert.equal(label("deal_deck_count"), "Deal deck");
  assert.equal(label("hand_size"), "Hand");
  assert.equal(label("four_way_attached"), "Four way attached");
  assert.equal(label("counts"), "Counts");  // no "_count" suffix
  assert.equal(label("count_of_cards"), "Count of cards");  // only at the end
});

test("slotNote: seats named as seats, flags by their name", () => {
  assert.equal(slotNote("seat", 1), "Seat 1");
  assert.equal(slotNote("reserved_by", 2), "reserved by Seat 2");
  assert.equal(slotNote("owner_seat", 0), "owner seat Seat 0");
  assert.equal(slotNote("role", "match"), "match");
  assert.equal(slotNote("face_up", true), "face up");
  assert.equal(slotNote("cost", 3), "cost 3");
  assert.equal(slotNote("cost", 0), "cost 0");
});

test("summary: card names with counts, in first-seen order", () => {
  assert.equal(summary([{ id: "a", name: "Case" }, { id: "b", name: "Router" }, { id: "c", name: "Router" }]), "Case, Router ×2");
  assert.equal(summary([{ card: { id: "a", name: "Deal" } }, { card: null }]), "Deal");  // an empty slot names nothing
  assert.equal(summary([{ hidden: true, name: "?" }, { hidden: true, name: "?" }]), "face-down card ×2");
  assert.equal(summary([]), "none");
  assert.equal(summary([{ x: 1 }]), "none");  // an object with no name
  assert.equal(summary("Case"), "Case");
  assert.equal(summary(3), "3");
});

test("inWords: underscores between letters become spaces, first letter capital", () => {
  assert.equal(inWords("patch_cost"), "Patch cost");
  assert.equal(inWords("end_of_round_bonus"), "End of round bonus");
  assert.equal(inWords("cost_"), "Cost_");  // an underscore at an end stays
  assert.equal(inWords(12), "12");
  assert.equal(inWords(""), "");
});

test("valueWords: yes and no for booleans, words for the rest", () => {
  assert.equal(valueWords(true), "yes");
  assert.equal(valueWords(false), "no");
  assert.equal(valueWords("hype_down"), "hype down");
  assert.equal(valueWords(12), "12");
  assert.equal(valueWords(null), "null");
});

test("countedNames: each name once with its count, in first-seen order", () => {
  assert.equal(countedNames(["Polymer", "Rare-Earth", "Polymer", "CPU"]), "2 Polymer, Rare-Earth, CPU");
  assert.equal(countedNames(["CPU"]), "CPU");
  assert.equal(countedNames([]), "");
});

test("letters: counts code points, as the server does", () => {
  assert.equal(letters("hello"), 5);
  assert.equal(letters("héllo"), 5);
  assert.equal(letters("a👍"), 2);  // "a👍".length is 3
  assert.equal(letters(""), 0);
});
