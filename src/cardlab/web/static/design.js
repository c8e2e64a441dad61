// The designer's page (/design/GAME, web/design.py): the game's card sheet and rule
// levers, edited in place and checked as you type; "Save as version" keeps a named,
// dated version with its difference from the one before; each version can be played
// at a new table (you and bots) or printed. For the server's operator: requests carry
// the operator token the lobby keeps (the operator link's fragment).
"use strict";

const D = { game: location.pathname.split("/").pop(), sheet: null, options: {}, specs: [], timer: null };
const KEY = "cardlab-operator";

function el(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
}

function token() {
  const m = /(?:^#|&)operator=([^&]+)/.exec(location.hash);
  if (m) { try { sessionStorage.setItem(KEY, decodeURIComponent(m[1])); } catch (e) { /* private mode */ } history.replaceState(null, "", location.pathname); }
  try { return sessionStorage.getItem(KEY); } catch (e) { return null; }
}

async function api(path, body) {
  const t = token();
  const headers = { "content-type": "application/json", ...(t ? { authorization: `Bearer ${t}` } : {}) };
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
  const out = {};
  for (const input of document.querySelectorAll("#design-options [data-option]")) {
    const spec = D.specs.find((s) => s.name === input.dataset.option);
    if (!spec || input.value === "" || input.value === String(spec.default)) continue;
    const v = input.value;
    out[spec.name] = spec.type === "boolean" ? v === "true" : (["integer", "number", "float"].includes(spec.type) ? Number(v) : v);
  }
  return out;
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
      const resp = await fetch(print.href, { headers: t ? { authorization: `Bearer ${t}` } : {} });
      if (!resp.ok) { li.append(el("p", "error", `printing failed (${resp.status})`)); return; }
      const url = URL.createObjectURL(await resp.blob());
      const a = el("a");
      a.href = url; a.download = `${D.game}-${v.id}.pdf`; document.body.append(a); a.click(); a.remove();
      li.dataset.printed = "1";
    });
    li.append(diff, play, print);
    list.append(li);
  }
}

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
