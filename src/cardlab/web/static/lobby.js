// The lobby: one panel per game with its pitch, rules and a new-table form.
"use strict";

// The lobby's pure functions (lib/lobby.js, lib/operator.js, lib/words.js; published by lib/boot.js).
const {
  chosenVariant, countOptions, variantOptions, chosenVersion, baseline, recommendedOf, findingText,
  tableRequest, seatOptions, seatDefault, optionValueText, optionHint, cardChangesText, playRequest,
  playNote, countsLine, pitchLine, versionLabel, localTime, verdictsLine, runStatusText, inWords,
  valueWords, OPERATOR_KEY, operatorFragment, authHeaders,
} = CardLab;

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};

function seatRow(index, bots) {
  const kind = el("select", { name: `seat${index}`, "aria-label": `Seat ${index}` });
  for (const [value, text] of seatOptions(index, bots)) kind.append(el("option", { value }, text));
  const first = seatDefault(index, bots);
  if (first !== null) kind.value = first;
  const name = el("input", { name: `name${index}`, type: "text", maxlength: "24", autocomplete: "off",
    placeholder: index === 0 ? "your name" : "their name", "aria-label": `Seat ${index} player name` });
  const showName = () => { name.hidden = kind.value !== "human"; };
  kind.addEventListener("change", showName);
  showName();
  return el("label", { class: "seat" }, `Seat ${index} `, kind, name);
}

function fillSeats(form, game) {
  const box = form.querySelector(".seats");
  box.querySelectorAll("label").forEach((n) => n.remove());
  const n = Number(form.players.value);
  for (let i = 0; i < n; i++) box.append(seatRow(i, game.bots));
}

function optionField(opt) {
  const select = el("select", { name: `opt:${opt.name}` });
  for (const v of opt.allowed) {
    select.append(el("option", { value: JSON.stringify(v) }, optionValueText(opt, v)));
  }
  const hint = optionHint(opt);
  const about = opt.about ? inWords(opt.about) : opt.doc;  // the player rules' words when they have them
  const label = el("label", { class: opt.lever ? "option lever" : "option", title: hint ? `${opt.doc} (${hint})` : opt.doc }, `${inWords(opt.name)}: `, select);
  label.append(el("small", {}, ` ${about}`));
  // a lever says what a designer would try it for, after the plain words
  if (opt.lever && opt.purpose) label.append(el("small", { class: "purpose" }, ` Try it to ${opt.purpose.replace(/_/g, " ")}.`));
  if (hint) label.append(el("small", { class: "hint" }, ` · ${hint}`));
  label.append(el("small", { class: "variant-mark" }, ""));
  return label;
}

// The rules as written, or a variant the server offers (lib/lobby.js chosenVariant).
// Choosing one sets the option fields to the variant's settings (and back to the
// standard ones for "as written"), so what the form shows is what the table plays.
function variantField(form, game) {
  const select = el("select", { name: "variant" });
  const rec = recommendedOf(game);
  const asWritten = el("option", { value: "" }, "as written (the rulebook, with our rulings)");
  if (rec) select.append(el("option", { value: rec.name }, `${rec.title} (recommended)`));
  select.append(asWritten);
  for (const v of game.variants) if (v !== rec) select.append(el("option", { value: v.name }, v.title));
  const about = el("small", {}, "");
  const finding = el("small", { class: "finding" }, "");
  // `keepTouched` (a new player count): a field the player changed keeps its value;
  // the others move to the variant's value at the new count.
  const show = (keepTouched = false) => {
    const v = chosenVariant(form, game);
    about.textContent = v ? ` ${v.about}${cardChangesText(v)}` : "";
    finding.textContent = !v && rec ? ` ${findingText(game, form._report)}` : "";
    const shown = form._shownBaseline || {};
    const set = variantOptions(v, form);
    const atCount = countOptions(v, form);
    for (const opt of game.options) {
      const field = form[`opt:${opt.name}`];
      if (!field) continue;
      const value = JSON.stringify(baseline(form, game, opt));
      if (keepTouched && opt.name in shown && field.value !== shown[opt.name]) continue;
      shown[opt.name] = value;
      // a lever's value from the variant may lie between the suggested ones (12 in 0..20)
      if (![...field.options].some((o) => o.value === value)) field.append(el("option", { value }, valueWords(JSON.parse(value))));
      field.value = value;
      field.closest("label").classList.toggle("from-variant", opt.name in set);
      const mark = field.closest("label").querySelector(".variant-mark");
      const where = opt.name in atCount ? ` for ${form.players.value} players` : "";
      if (mark) mark.textContent = opt.name in set ? ` · set by the variant${where}` : "";
    }
    form._shownBaseline = shown;
  };
  select.addEventListener("change", () => show());
  form._showVariant = show;
  return el("label", { class: "option variant" }, "Rules: ", select, about, finding);
}

// Copy a link (the clipboard API; else select it in its box so the player can copy
// it by hand) and share it (the share sheet where the browser has one, else copy).
async function copyLink(url, field, status) {
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = "Copied.";
  } catch (err) {
    field.hidden = false;
    field.focus();
    field.select();
    status.textContent = "Select and copy the link above.";
  }
}

function linkRow(label, url, short, note = "") {
  // The whole link (its token is in the fragment) is what is copied or shared; the
  // page shows only a short form: the table and seat.
  const field = el("input", { type: "text", readonly: "", value: url, class: "link-field", "aria-label": `${label} link` });
  field.hidden = true;
  const status = el("span", { class: "copy-status", role: "status" }, "");
  const copy = el("button", { type: "button", class: "copy" }, "Copy link");
  copy.addEventListener("click", () => copyLink(url, field, status));
  const row = el("li", {}, `${label}: `, el("code", { class: "short-link" }, short), " ", copy);
  if (navigator.share) {
    const share = el("button", { type: "button", class: "share" }, "Share…");
    share.addEventListener("click", async () => {
      try { await navigator.share({ title: "Join my cardlab table", url }); } catch (err) { if (err && err.name !== "AbortError") copyLink(url, field, status); }
    });
    row.append(" ", share);
  }
  row.append(" ", status, field);
  if (note) row.append(el("small", { class: "muted" }, ` ${note}`));
  return row;
}

function showLinks(box, made, spec) {
  box.hidden = false;
  box.replaceChildren(el("h3", {}, "Your table is ready"));
  const base = `${location.origin}/t/${made.table}#`;
  const list = el("ul", { class: "invites" });
  spec.seats.forEach((seat, i) => {
    if (seat.kind !== "human") return;
    const url = `${base}seat=${i}&token=${made.tokens[`seat${i}`]}`;
    const who = seat.name ? `${seat.name} (seat ${i})` : `Seat ${i}`;
    if (i === 0) {
      list.append(el("li", {}, `${who}: `, el("a", { href: url, class: "sit" }, `Sit at seat 0${seat.name ? ` as ${seat.name}` : ""}`)));
      return;
    }
    list.append(linkRow(who, url, `table ${made.table} · seat ${i}`, "send this link to that player"));
  });
  list.append(linkRow("Spectators", `${base}role=spectator&token=${made.tokens.spectator}`, `table ${made.table} · watch`));
  list.append(linkRow("Host controls (hand a seat to a bot)", `${base}role=host&token=${made.tokens.host}`, `table ${made.table} · host`));
  box.append(list, el("p", { class: "note" }, "Each link is a secret key to its seat: share it only with that player."));
}

// --- Play: one click to a table with good defaults (lib/lobby.js playRequest) -------
function wirePlay(node, game) {
  const spec = playRequest(game);
  const rec = recommendedOf(game);
  node.querySelector(".play-note").textContent = playNote(spec, rec);
  node.querySelector("button.play").addEventListener("click", async (ev) => {
    ev.target.disabled = true;
    const resp = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) });
    const body = await resp.json();
    if (!resp.ok) {
      ev.target.disabled = false;
      node.querySelector(".play-error").textContent = body.error;
      return;
    }
    location.href = `/t/${body.table}#seat=0&token=${body.tokens.seat0}`;
  });
}

function gamePanel(game) {
  const node = document.getElementById("game-tpl").content.firstElementChild.cloneNode(true);
  node.id = `game-${game.name}`;
  node.querySelector(".title").textContent = game.title;
  node.querySelector(".counts").textContent = countsLine(game);
  node.querySelector(".pitch").textContent = pitchLine(game);
  node.querySelector(".finding").textContent = findingText(game, null);
  wirePlay(node, game);
  const rules = node.querySelector(".rules");
  rules.addEventListener("toggle", async () => {
    if (!rules.open || rules.dataset.loaded) return;
    rules.dataset.loaded = "1";
    // Rendered server-side by markdown-it with raw HTML disabled.
    rules.querySelector(".rules-body").innerHTML = await (await fetch(`/api/rules/${game.name}`)).text();
  });
  const form = node.querySelector("form");
  for (let n = game.min_players; n <= game.max_players; n++) form.players.append(el("option", { value: n }, String(n)));
  form.players.value = String(game.default_players);
  const opts = form.querySelector(".options");
  const levers = form.querySelector(".levers");
  if ((game.variants || []).length) form.querySelector(".ruleset").append(variantField(form, game));
  for (const opt of game.options) (opt.lever ? levers : opts).append(optionField(opt));
  if (!game.options.some((o) => !o.lever)) opts.hidden = true;
  if (!game.options.some((o) => o.lever)) levers.closest("details").hidden = true;
  if (!game.options.length) form.querySelector("details.rule-options").hidden = true;
  if (form._showVariant) form._showVariant();  // the recommended rules, shown as chosen
  fillSeats(form, game);
  form.players.addEventListener("change", () => {
    fillSeats(form, game);
    if (form._showVariant) form._showVariant(true);  // a variant may set other values at this count
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const spec = tableRequest(form, game);
    const version = chosenVersion(form);
    // a design version's table is the operator's (its cards are kept on this server)
    const url = version ? `/api/design/${encodeURIComponent(game.name)}/versions/${version.id}/table` : "/api/tables";
    const headers = { "content-type": "application/json", ...(version ? operatorHeaders() : {}) };
    const resp = await fetch(url, { method: "POST", headers, body: JSON.stringify(spec) });
    const body = await resp.json();
    const box = node.querySelector(".links");
    if (!resp.ok) { box.hidden = false; box.replaceChildren(el("p", { class: "error" }, body.error)); return; }
    showLinks(box, body, spec);
  });
  return node;
}

// --- design versions in the new-table form (the operator's) ---------------------
// For the operator, the Cards field offers the design page's saved versions beside
// the cards as written: a table of a version deals its cards under its rule options
// (the form's option fields show them; a change made here goes over them), and the
// table, its replay and its reports name the version. A version deals its own cards,
// so the variant choice is set aside while one is chosen.
function showVersion(form, game, about) {
  const v = chosenVersion(form);
  if (form.variant) {
    if (v) form.variant.value = "";
    form.variant.disabled = !!v;
  }
  if (form._showVariant) form._showVariant();
  for (const opt of game.options) {
    const field = form[`opt:${opt.name}`];
    if (!field) continue;
    if (!form._showVariant) {
      const value = JSON.stringify(baseline(form, game, opt));
      if (![...field.options].some((o) => o.value === value)) field.append(el("option", { value }, valueWords(JSON.parse(value))));
      field.value = value;
    }
    if (!v && form._showVariant) continue;  // the variant's marks, just drawn
    const set = !!v && opt.name in v.options;
    field.closest("label").classList.toggle("from-variant", set);
    const mark = field.closest("label").querySelector(".variant-mark");
    if (mark) mark.textContent = set ? ` · set by version ${v.id}` : "";
  }
  about.textContent = v ? ` Deals version ${v.id}'s cards (${v.name}) under its rules; the table and its replay name the version.` : "";
}

function versionField(form, game, versions) {
  form._versions = versions;
  const select = el("select", { name: "design_version", "aria-label": "Cards" });
  select.append(el("option", { value: "" }, "as written"));
  for (const v of versions) select.append(el("option", { value: String(v.id) }, versionLabel(v)));
  const about = el("small", { class: "version-about" }, "");
  select.addEventListener("change", () => showVersion(form, game, about));
  return el("label", { class: "option design-version-choice" }, "Cards: ", select, about);
}

async function offerVersions(games) {
  if (!operatorHeaders().authorization) return;
  for (const game of games) {
    const node = document.getElementById(`game-${game.name}`);
    const form = node && node.querySelector("form");
    if (!form || form.design_version) continue;
    try {
      const resp = await fetch(`/api/design/${encodeURIComponent(game.name)}/versions`, { headers: operatorHeaders() });
      if (!resp.ok) continue;
      const { versions } = await resp.json();
      if (versions && versions.length) form.querySelector(".ruleset").append(versionField(form, game, versions));
    } catch (err) {
      console.warn("design versions unavailable", err);
    }
  }
}

// --- playtest reports: the latest report per game, a fresh run, its status ---

function showReport(node, game, st, settings) {
  const form = node.querySelector("form");
  if (form && st) {
    form._report = st;
    node.querySelector(".finding").textContent = findingText(game, st);
    if (form._showVariant && !form.variant.value) form._showVariant();
  }
  const line = node.querySelector(".report-line");
  const status = node.querySelector(".run-status");
  const button = node.querySelector("button.run");
  const gate = node.querySelector(".playtest .gate-link");
  if (!st) {
    line.replaceChildren("The playtest lab has no report for this game.");
    button.hidden = true;
    return;
  }
  button.hidden = false;
  node.querySelector(".run-note").hidden = false;
  gate.hidden = !st.report;
  if (st.report) {
    line.className = "report-line";
    line.replaceChildren(
      el("a", { href: st.report, class: "report-link", target: "_blank", rel: "noopener" }, `Open the latest ${game.title} report`),
      el("small", { class: "muted" }, ` (${localTime(st.report_at)})`),
      st.verdicts ? el("br") : "",
      st.verdicts ? el("small", { class: "verdicts" }, verdictsLine(st)) : "",
    );
  } else {
    line.className = "report-line muted";
    line.replaceChildren("No playtest report yet: run one to see win rates, length and the rulebook's claims checked.");
  }
  button.disabled = st.state === "running";
  button.title = `Runs cardlab report ${game.name} ${settings} in the background`;
  status.className = `run-status ${st.state}`;
  const said = runStatusText(st);
  if (said === null) status.replaceChildren();
  else status.replaceChildren(said);
}

let pollTimer = null;
async function pollReports(games) {
  clearTimeout(pollTimer);
  let running = false;
  try {
    const body = await (await fetch("/api/reports")).json();
    for (const game of games) {
      const st = body.games[game.name];
      running ||= st?.state === "running";
      showReport(document.getElementById(`game-${game.name}`), game, st, body.settings);
    }
  } catch (err) {
    console.warn("reports status unavailable", err);
  }
  pollTimer = setTimeout(() => pollReports(games), running ? 1500 : 5000);
}

// --- the operator: a playtest run needs the token `cardlab serve` printed. It comes in
// the printed link's fragment (/#operator=T: never sent in a request line, so never in
// a log), is kept in this tab's sessionStorage and sent as an Authorization header.
function takeOperatorFragment() {
  const raw = operatorFragment(location.hash);
  if (raw === null) return;
  try { sessionStorage.setItem(OPERATOR_KEY, decodeURIComponent(raw)); } catch (err) { console.warn("no sessionStorage", err); }
  history.replaceState(null, "", location.pathname + location.search);  // out of the address bar and history
}
function operatorHeaders() {
  let token = null;
  try { token = sessionStorage.getItem(OPERATOR_KEY); } catch (err) { /* private mode */ }
  return authHeaders(token);
}
async function startRun(game) {
  let resp = await fetch(`/api/reports/${game.name}/run`, { method: "POST", headers: operatorHeaders() });
  if (resp.status === 401) {
    const token = window.prompt("Starting a playtest run is for this server's operator: paste the operator token `cardlab serve` printed.");
    if (token && token.trim()) {
      try { sessionStorage.setItem(OPERATOR_KEY, token.trim()); } catch (err) { /* asked again next time */ }
      resp = await fetch(`/api/reports/${game.name}/run`, { method: "POST", headers: operatorHeaders() });
    }
  }
  return resp;
}

function wireRun(node, game, games) {
  node.querySelector("button.run").addEventListener("click", async (ev) => {
    ev.target.disabled = true;
    const resp = await startRun(game);
    if (!resp.ok) {
      ev.target.disabled = false;
      const body = await resp.json();
      node.querySelector(".run-status").replaceChildren(el("span", { class: "error" }, body.error));
      return;
    }
    pollReports(games);
  });
}

async function main() {
  takeOperatorFragment();
  const { games } = await (await fetch("/api/games")).json();
  const root = document.getElementById("games");
  root.replaceChildren(...games.map(gamePanel));
  if (!games.length) root.append(el("p", {}, "No game engines are installed yet."));
  for (const game of games) wireRun(document.getElementById(`game-${game.name}`), game, games);
  pollReports(games);
  offerVersions(games);
}
main();
