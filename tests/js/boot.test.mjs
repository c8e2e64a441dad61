// The namespace the pages' classic scripts read (lib/boot.js), and the pages that load
// it: a name a script expects that CardLab lacks, a classic script that runs before
// the module, or two scripts of one page declaring the same global would each break a
// page before it draws anything.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { LIB, STATIC, GAMES } from "./support.mjs";
import { MODULES, namespace } from "../../src/cardlab/web/static/lib/boot.js";

const read = (file) => fs.readFileSync(file, "utf8");

test("boot: every lib module is published, each export under its own name", () => {
  const files = fs.readdirSync(LIB).filter((f) => f.endsWith(".js") && f !== "boot.js").map((f) => f.replace(/\.js$/, ""));
  assert.deepEqual(Object.keys(MODULES).sort(), files.sort());
  const ns = globalThis.CardLab;
  assert.ok(Object.isFrozen(ns));
  let count = 0;
  for (const mod of Object.values(MODULES)) {
    for (const [name, value] of Object.entries(mod)) {
      assert.equal(ns[name], value, name);
      count += 1;
    }
  }
  assert.equal(Object.keys(ns).length, count);
});

test("boot: a name two modules export is refused, naming it", () => {
  assert.throws(() => namespace({ a: { same: 1 }, b: { other: 2, same: 3 } }), /lib\/b\.js exports same/);
  assert.deepEqual({ ...namespace({ a: { x: 1 }, b: { y: 2 } }) }, { x: 1, y: 2 });
});

// The scripts a page loads, in order: [{src, module, defer}].
function scriptsOf(page) {
  return [...read(path.join(STATIC, page)).matchAll(/<script\b([^>]*)><\/script>/g)].map(([, attrs]) => ({
    src: /\ssrc="([^"]+)"/.exec(attrs)[1],
    module: /\stype="module"/.test(attrs),
    defer: /\sdefer\b/.test(attrs),
  }));
}

// The globals a classic script declares at its top level (functions, classes, const and
// let, names taken from CardLab), and the CardLab names it reads.
function declared(source) {
  const names = [];
  for (const [, name] of source.matchAll(/^(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm)) names.push(name);
  const taken = [];
  for (const [, body] of source.matchAll(/^const\s*\{([^}]*)\}\s*=\s*CardLab;/gm)) {
    for (const part of body.split(",").map((s) => s.trim()).filter(Boolean)) {
      const [from, as] = part.split(":").map((s) => s.trim());
      names.push(as || from);
      taken.push(from);
    }
  }
  // inside a function (the IIFE scripts) and by dotted use
  for (const [, body] of source.matchAll(/^\s+const\s*\{([^}]*)\}\s*=\s*CardLab;/gm)) {
    for (const part of body.split(",").map((s) => s.trim()).filter(Boolean)) taken.push(part.split(":")[0].trim());
  }
  for (const [, name] of source.matchAll(/\bCardLab\.([A-Za-z_$][\w$]*)/g)) taken.push(name);
  return { names, taken };
}

const PAGES = fs.readdirSync(STATIC).filter((f) => f.endsWith(".html"));

test("pages: the module first, then deferred classic scripts only", () => {
  assert.deepEqual(PAGES.sort(), ["design.html", "lobby.html", "table.html"]);
  for (const page of PAGES) {
    const scripts = scriptsOf(page);
    assert.deepEqual(scripts[0], { src: "/static/lib/boot.js", module: true, defer: false }, page);
    assert.ok(scripts.length > 1, page);
    for (const s of scripts.slice(1)) {
      assert.ok(!s.module && s.defer, `${page}: ${s.src} must be a deferred classic script, to run after lib/boot.js`);
    }
  }
});

test("pages: each name a script reads from CardLab is there, and no page declares a global twice", () => {
  for (const page of PAGES) {
    const seen = new Map();
    for (const s of scriptsOf(page).slice(1)) {
      const file = path.join(STATIC, s.src.replace(/^\/static\//, ""));
      const { names, taken } = declared(read(file));
      for (const name of taken) assert.ok(name in globalThis.CardLab, `${s.src} reads CardLab.${name}, which no lib module exports`);
      for (const name of names) {
        assert.ok(!seen.has(name), `${page}: ${name} is declared by both ${seen.get(name)} and ${s.src}`);
        seen.set(name, s.src);
      }
    }
  }
});

test("pages: the declared-names check finds what it must", () => {
  const { names, taken } = declared("const A = 1;\nfunction b() {}\nasync function c() {}\nclass D {}\n" +
    "const {\n  x, y: z,\n} = CardLab;\n(() => {\n  const { w } = CardLab;\n  CardLab.v();\n})();\n");
  assert.deepEqual(names.sort(), ["A", "D", "b", "c", "x", "z"]);
  assert.deepEqual(taken.sort(), ["v", "w", "x", "y"]);
});

test("game view scripts: the page helpers they call are globals of the table page", () => {
  const page = new Set();
  for (const s of scriptsOf("table.html").slice(1)) {
    for (const name of declared(read(path.join(STATIC, s.src.replace(/^\/static\//, "")))).names) page.add(name);
  }
  // the helpers docs/plugins.md promises a view script
  for (const name of ["h", "plural", "words", "seatWord", "GameViews", "Cards", "Facts", "section"]) assert.ok(page.has(name), name);
  const views = fs.readdirSync(GAMES).map((g) => path.join(GAMES, g, "web", "view.js")).filter((f) => fs.existsSync(f));
  assert.ok(views.length >= 3);
  const keywords = new Set(["if", "for", "while", "switch", "catch", "function", "return", "typeof"]);
  for (const file of views) {
    // the code alone: no comment, no quoted text ("Give ${...}" templates keep their code)
    const source = read(file).replace(/(^|\s)\/\/.*$/gm, "$1").replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
    const own = new Set([...source.matchAll(/\b(?:function|const|let|var)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]));
    const methods = new Set([...source.matchAll(/^\s*([A-Za-z_$][\w$]*)\([^()]*\)\s*\{/gm)].map((m) => m[1]));
    const free = new Set();
    for (const [, name] of source.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)\s*\(/g)) {
      if (!keywords.has(name) && !own.has(name) && !methods.has(name) && !(name in globalThis)) free.add(name);
    }
    // passed along rather than called (`.map(seatWord)`)
    for (const [, name] of source.matchAll(/\.map\(([A-Za-z_$][\w$]*)\)/g)) if (!own.has(name)) free.add(name);
    assert.ok(free.size > 0, file);
    for (const name of free) assert.ok(page.has(name), `${path.relative(GAMES, file)} calls ${name}, which the table page does not declare`);
  }
});
