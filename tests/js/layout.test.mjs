import { test } from "node:test";
import assert from "node:assert/strict";
import { gridFrame, decisionScroll } from "../../src/cardlab/web/static/lib/layout.js";

test("gridFrame: columns and rows counted from 1 at the top left", () => {
  const f = gridFrame([{ x: -1, y: 2 }, { x: 1, y: 0 }, { x: 0, y: 1 }]);
  assert.equal(f.columns, 3);
  assert.equal(f.column({ x: -1, y: 2 }), 1);
  assert.equal(f.column({ x: 1, y: 0 }), 3);
  assert.equal(f.row({ x: 1, y: 0 }), 1);  // the smallest y is the top row
  assert.equal(f.row({ x: -1, y: 2 }), 3);
  assert.equal(f.where({ x: 0, y: 1 }), "row 2, column 2");
  const one = gridFrame([{ x: 4, y: -3 }]);
  assert.equal(one.columns, 1);
  assert.equal(one.where({ x: 4, y: -3 }), "row 1, column 1");
  assert.equal(gridFrame([]).columns, 0);  // no cells yet: no columns, never -Infinity
});

test("decisionScroll: none in view, the least that shows it, else its top", () => {
  assert.equal(decisionScroll(10, 500, 600), null);
  assert.equal(decisionScroll(0, 600, 600), null);  // exactly in view
  assert.equal(decisionScroll(100, 700, 600), 104);  // below: fits, scroll down to show its bottom
  assert.equal(decisionScroll(-50, 200, 600), -54);  // above: scroll up to its top
  assert.equal(decisionScroll(-100, 700, 600), -104);  // taller than the room: its top
  assert.equal(decisionScroll(50, 900, 600), 46);
});
