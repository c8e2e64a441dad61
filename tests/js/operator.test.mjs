import { test } from "node:test";
import assert from "node:assert/strict";
import { OPERATOR_KEY, operatorFragment, authHeaders } from "../../src/cardlab/web/static/lib/operator.js";

test("OPERATOR_KEY: the one sessionStorage key every page reads", () => {
  assert.equal(OPERATOR_KEY, "cardlab-operator");
});

test("operatorFragment: the operator token of the link's fragment, still encoded", () => {
  assert.equal(operatorFragment("#operator=abc"), "abc");
  assert.equal(operatorFragment("#seat=1&operator=a%20b&x=2"), "a%20b");
  assert.equal(operatorFragment("#operator=abc&x=1"), "abc");
  assert.equal(operatorFragment("#operator="), null);
  assert.equal(operatorFragment("#notoperator=abc"), null);
  assert.equal(operatorFragment("operator=abc"), null);  // a fragment starts with #
  assert.equal(operatorFragment(""), null);
});

test("authHeaders: a bearer token, or no header at all", () => {
  assert.deepEqual(authHeaders("t0k"), { authorization: "Bearer t0k" });
  assert.deepEqual(authHeaders(null), {});
  assert.deepEqual(authHeaders(""), {});
  assert.deepEqual(authHeaders(undefined), {});
});
