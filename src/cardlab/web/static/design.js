// The designer's page (/design/GAME, web/design.py): the game's card sheet and rule
// levers, edited in place and checked as you type; "Save as version" keeps a named,
// dated version with its difference from the one before; each version can be played
// at a new table (you and bots) or printed, or compared with another design (a paired
// A/B played by bots in the background: a progress bar, then the two designs' claims
// and experience side by side and a link to the lab's comparison report). Each version
// lists its latest comparison's claim verdicts (kept by the server) and what players at
// its tables said beside those tables' bots. For the
// server's operator: requests carry the operator token the lobby keeps (the operator
// link's fragment).
"use strict";

// The page's pure functions (lib/design.js, lib/operator.js, lib/lobby.js; published by lib/boot.js).
const {
  AS_WRITTEN, armValue, designOptions, playersWords, progressWords, changedWords, verdictWords, claimText,
  claimMoved, experienceCell, versionLabel, OPERATOR_KEY, operatorFragment, authHeaders,
} = CardLab;

const D = { game: location.pathname.split("/").pop(), sheet: null, options: {}, specs: [], timer: null, versions: [], poll: null };

function el(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

function token() {
  const raw = operatorFragment(location.hash);
  if (raw !== null) { try { sessionStorage.setItem(OPERATOR_KEY, decodeURIComponent(raw)); } catch (e) { /* private mode */ } history.replaceState(null, "", location.pathname); }
  try { return sessionStorage.getItem(OPERATOR_KEY); } catch (e) { return null; }
}

async function api(path, body) {
  const t = token();
  const headers = { "content-type": "application/json", ...authHeaders(t) };
  const resp = await fetch(path, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
  const data = await resp.json().catch(() => ({}));
  if (resp.status === 401) {
    const box = document.getElementById("design-auth");
    box.hidden = false;
    box.textContent = "The design page is for this server's operator: open the operator link `cardlab serve` printed, then this page again.";
  }
  return { ok: resp.ok, status: resp.status, data };
}

function rows() {
  const out = [];
  for (const tr of document.querySelectorAll("#design-sheet tbody tr")) {
    const row = {};
    for (const input of tr.querySelectorAll("input")) row[input.dataset.column] = input.value;
    out.push(row);
  }
  return out;
}

function options() {
  const fields = [...document.querySelectorAll("#design-options [data-option]")].map((input) => [input.dataset.option, input.value]);
  return designOptions(fields, D.specs);
}

function design(name) { return { rows: rows(), options: options(), ...(name ? { name } : {}) }; }

function drawSheet(sheet) {
  const table = document.getElementById("design-sheet");
  const head = el("thead"), tr = el("tr");
  for (const c of sheet.columns) tr.append(el("th", "", c));
  head.append(tr);
  const body = el("tbody");
  sheet.rows.forEach((row, i) => {
    const r = el("tr");
    r.dataset.row = String(i + 2);  // the sheet's row number (1 is the header)
    for (const c of sheet.columns) {
      const td = el("td");
      const input = document.createElement("input");
      input.value = row[c] ?? "";
      input.dataset.column = c;
      input.setAttribute("aria-label", `${row.name || row.section} ${c}`);
      input.addEventListener("input", () => { clearTimeout(D.timer); D.timer = setTimeout(check, 300); });
      td.append(input);
      r.append(td);
    }
    body.append(r);
  });
  table.replaceChildren(head, body);
}

function drawOptions(specs, chosen) {
  const box = document.getElementById("design-options");
  box.replaceChildren();
  for (const s of specs) {
    const label = el("label", "design-option", `${s.name} `);
    let input;
    if (Array.isArray(s.range) && s.range.length === 2) {
      input = document.createElement("input");
      Object.assign(input, { type: "number", min: s.range[0], max: s.range[1] });
    } else if (Array.isArray(s.allowed) && s.allowed.length) {
      input = document.createElement("select");
      for (const v of s.allowed) { const o = el("option", "", String(v)); o.value = String(v); input.append(o); }
    } else {
      input = document.createElement("input");
    }
    input.dataset.option = s.name;
    input.value = String(chosen[s.name] ?? s.default);
    input.addEventListener("change", check);
    label.append(input, el("small", "muted", ` ${s.about || ""} (as written: ${s.default})`));
    box.append(label);
  }
}

function mark(problems) {
  for (const i of document.querySelectorAll("#design-sheet input.bad")) { i.classList.remove("bad"); i.removeAttribute("aria-invalid"); }
  for (const p of problems || []) {
    if (!p.row) continue;
    const input = document.querySelector(`#design-sheet tr[data-row="${p.row}"] input[data-column="${CSS.escape(p.column)}"]`);
    if (input) { input.classList.add("bad"); input.setAttribute("aria-invalid", "true"); }
  }
}

async function check() {
  const out = document.getElementById("design-check");
  const { ok, data } = await api(`/api/design/${D.game}/check`, design());
  mark(ok ? [] : data.problems);
  out.className = `design-check ${ok ? "good" : "bad"}`;
  out.textContent = ok ? "These cards and rules are a valid game at every player count." : (data.error || "Not valid.");
  return ok;
}

function drawVersions(versions) {
  const list = document.getElementById("design-versions");
  list.replaceChildren();
  for (const v of versions) {
    const li = el("li", "design-version");
    li.dataset.version = v.id;
    li.append(el("strong", "", v.name), el("span", "muted", ` · ${v.created_text} · cards ${v.cards_sha256.slice(0, 12)}`));
    // the latest comparison's verdicts of this version's claims (kept in the database)
    const verdicts = el("p", `design-verdicts${v.verdicts ? "" : " muted"}`, v.verdicts_text || "not yet compared");
    if (v.verdicts) {
      verdicts.dataset.job = v.verdicts.job;
      verdicts.title = `against ${v.verdicts.against}`;
      if (v.verdicts.report) {
        const link = el("a", "design-verdicts-report", "the comparison");
        Object.assign(link, { href: v.verdicts.report, target: "_blank", rel: "noopener" });
        verdicts.append(" · ", link);
      }
    }
    li.append(verdicts, playersLine(v.players));
    const diff = el("ul", "design-diff");
    for (const d of v.diff.length ? v.diff : ["no change from the one before"]) diff.append(el("li", "", d));
    const play = el("button", "primary design-play", "Play this version");
    play.type = "button";
    play.addEventListener("click", async () => {
      const { ok, data } = await api(`/api/design/${D.game}/versions/${v.id}/play`, {});
      if (ok && data.table) location.href = `/t/${data.table}#seat=0&token=${encodeURIComponent(data.tokens.seat0)}`;
      else li.append(el("p", "error", data.error || "could not open a table"));
    });
    const print = el("a", "design-print", "Print this version (PDF)");
    print.href = `/api/design/${D.game}/versions/${v.id}/print.pdf`;
    print.addEventListener("click", async (ev) => {  // the PDF needs the operator token too
      ev.preventDefault();
      const t = token();
      const resp = await fetch(print.href, { headers: authHeaders(t) });
      if (!resp.ok) { li.append(el("p", "error", `printing failed (${resp.status})`)); return; }
      const url = URL.createObjectURL(await resp.blob());
      const a = el("a");
      a.href = url; a.download = `${D.game}-${v.id}.pdf`; document.body.append(a); a.click(); a.remove();
      li.dataset.printed = "1";
    });
    const compare = el("button", "design-compare-with", "Compare with…");
    compare.type = "button";
    compare.addEventListener("click", () => {
      const form = document.getElementById("design-compare");
      form.b.value = String(v.id);
      if (form.a.value === String(v.id)) form.a.value = AS_WRITTEN;
      form.scrollIntoView({ block: "center" });
      form.querySelector("button").focus();
    });
    li.append(diff, play, print, " ", compare);
    list.append(li);
  }
  fillCompare(versions);
}

// what players at this version's tables said (the survey), beside those tables' bots
function playersLine(p) {
  const told = playersWords(p);
  if (!told) return el("p", "design-players muted", "players: no survey answers yet");
  const line = el("p", "design-players", told.text);
  if (told.said.length) line.title = told.said.join("\n");
  return line;
}

// --- compare two designs ------------------------------------------------------
function designOption(value, text) { const o = el("option", "", text); o.value = value; return o; }

function fillCompare(versions) {
  D.versions = versions;
  const form = document.getElementById("design-compare");
  const keep = { a: form.a.value, b: form.b.value };
  form.a.replaceChildren(designOption(AS_WRITTEN, "the cards as written"), ...versions.map((v) => designOption(String(v.id), versionLabel(v))));
  form.b.replaceChildren(...versions.map((v) => designOption(String(v.id), versionLabel(v))), designOption(AS_WRITTEN, "the cards as written"));
  if (keep.a && [...form.a.options].some((o) => o.value === keep.a)) form.a.value = keep.a;
  if (keep.b && [...form.b.options].some((o) => o.value === keep.b)) form.b.value = keep.b;
  form.querySelector("button").disabled = !versions.length;
  if (!versions.length) compareWords("Save a version to compare it with the cards as written.", "muted");
}

function compareWords(text, cls = "") {
  const words = document.getElementById("compare-words");
  words.className = cls;
  words.textContent = text;
}

function showProgress(st) {
  const bar = document.getElementById("compare-progress");
  bar.hidden = false;
  bar.max = Math.max(1, st.total);
  bar.value = Math.min(st.done, bar.max);
  bar.dataset.done = String(st.done);
  bar.dataset.state = st.state;
  compareWords(...progressWords(st));
}

async function pollCompare(id) {
  clearTimeout(D.poll);
  const { ok, data } = await api(`/api/design/${D.game}/compare/${encodeURIComponent(id)}`);
  if (!ok) { compareWords(data.error || "the comparison is gone", "error"); return; }
  showProgress(data);
  const button = document.querySelector("#design-compare button");
  if (data.state === "running") { button.disabled = true; D.poll = setTimeout(() => pollCompare(id), 500); return; }
  button.disabled = !D.versions.length;
  if (data.state === "done") {
    drawResult(data);
    const page = await api(`/api/design/${D.game}`);  // the versions now carry its verdicts
    if (page.ok) drawVersions(page.data.versions || []);
  }
}

function cellsRow(cells, cls = "") {
  const tr = el("tr", cls);
  for (const c of cells) tr.append(typeof c === "string" ? el("td", "", c) : c);
  return tr;
}

function headRow(cells) {
  const tr = el("tr");
  for (const c of cells) tr.append(el("th", "", c));
  return tr;
}

function drawResult(st) {
  const box = document.getElementById("compare-result");
  const r = st.result;
  box.replaceChildren();
  if (!r) { box.append(el("p", "error", "The comparison finished but its result cannot be read.")); return; }
  box.dataset.job = st.id;
  const [a, b] = r.labels;
  box.append(el("p", "", ""));
  box.lastChild.append(el("strong", "compare-title", `${a} against ${b}`));
  box.append(el("p", "", changedWords(r)));
  for (const line of r.primary || []) box.append(el("p", "compare-primary", line));
  const link = el("a", "compare-report", "Open the comparison report (both arms side by side, with every plot)");
  link.href = st.report;
  link.target = "_blank";
  link.rel = "noopener";
  box.append(el("p", "", ""));
  box.lastChild.append(link);

  box.append(el("h4", "", "Claims, each design's verdict"));
  const claims = el("table", "gate compare-claims");
  claims.append(headRow(["claim", a, b]));
  for (const c of r.claims) {
    const tr = cellsRow([claimText(c)], claimMoved(c) ? "v-fails compare-changed" : "");
    for (const arm of c.arms) {
      const td = el("td", "verdict", verdictWords(arm));
      if (arm && arm.note) td.title = arm.note;
      tr.append(td);
    }
    claims.append(tr);
  }
  box.append(claims);
  const moved = r.claims.filter(claimMoved).length;
  box.append(el("p", "muted", moved ? `${moved} claim(s) read differently (highlighted).` : "Every claim reads the same under both."));

  if ((r.experience || []).length) {
    box.append(el("h4", "", "Experience against the reference bands"));
    const exp = el("table", "gate compare-experience");
    exp.append(headRow(["metric", "band", a, b]));
    for (const m of r.experience) {
      const cells = [m.title, m.band];
      for (const x of m.arms) cells.push(experienceCell(x, m.unit));
      const differ = m.arms.length === 2 && m.arms[0] && m.arms[1] && m.arms[0].reading !== m.arms[1].reading;
      exp.append(cellsRow(cells, differ ? "v-fails compare-changed" : ""));
    }
    box.append(exp);
  }
  const titles = { compare: "minutes and first-seat advantage, each design", minutes: "estimated minutes per game, each design" };
  for (const [name, uri] of Object.entries(r.plots || {})) {
    if (!uri.startsWith("data:image/png;base64,")) continue;
    const img = el("img", "compare-plot");
    img.src = uri;
    img.alt = titles[name] || name;
    img.width = 560;
    box.append(el("p", "", ""));
    box.lastChild.append(img);
  }
}

async function loadCompares() {
  const { ok, data } = await api(`/api/design/${D.game}/compare`);
  if (!ok) return;
  const form = document.getElementById("design-compare");
  if (data.games) Object.assign(form.games, { min: data.games.min, max: data.games.max });
  const running = data.jobs.find((j) => j.state === "running");
  const last = running || data.jobs.find((j) => j.state === "done");
  if (last) pollCompare(last.id);
}

document.getElementById("design-compare").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const body = { a: armValue(form.a.value), b: armValue(form.b.value), games: Number(form.games.value) };
  form.querySelector("button").disabled = true;
  document.getElementById("compare-result").replaceChildren();
  const { ok, data } = await api(`/api/design/${D.game}/compare`, body);
  if (!ok) { form.querySelector("button").disabled = false; compareWords(data.error || "the comparison did not start", "error"); return; }
  showProgress(data);
  pollCompare(data.id);
});

async function load() {
  const { ok, data } = await api(`/api/design/${D.game}`);
  if (!ok) return;
  document.getElementById("game-title").textContent = data.title || D.game;
  document.getElementById("design-from").textContent = data.from ? `(from version “${data.from.name}”)` : "(the packaged cards)";
  D.specs = data.option_specs || [];
  drawSheet(data.sheet);
  drawOptions(D.specs, data.options || {});
  drawVersions(data.versions || []);
  check();
  loadCompares();
}

document.getElementById("design-save").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = new FormData(ev.target).get("name");
  const out = document.getElementById("design-saved");
  const { ok, data } = await api(`/api/design/${D.game}/versions`, design(String(name || "")));
  out.className = ok ? "good" : "error";
  out.textContent = ok ? `Saved version “${data.name}”: ${data.diff.length} change(s).` : (data.error || "not saved");
  if (ok) { drawVersions((await api(`/api/design/${D.game}`)).data.versions || []); mark([]); } else mark(data.problems);
});

load();
