// The lobby: one panel per game with its pitch, rules and a new-table form.
"use strict";

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
  kind.append(el("option", { value: "human" }, index === 0 ? "Human (you)" : "Human (invite)"));
  for (const bot of bots) {
    if (bot.strengths) {
      for (const [label, it] of Object.entries(bot.strengths)) {
        kind.append(el("option", { value: `bot:${bot.kind}:${it}` }, `Bot: ${bot.kind} (${label}, ${it} iterations)`));
      }
    } else {
      kind.append(el("option", { value: `bot:${bot.kind}` }, `Bot: ${bot.kind}`));
    }
  }
  if (index > 0) kind.value = bots.some((b) => b.kind === "greedy") ? "bot:greedy" : `bot:${bots[0].kind}`;
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

// An option in words: "Patch cost", values "yes"/"no" or "hype down"; the
// ruling it implements (e.g. U4) only as a hint.
const inWords = (text) => { const t = String(text).replace(/(\w)_(?=\w)/g, "$1 "); return t.charAt(0).toUpperCase() + t.slice(1); };
const valueWords = (v) => (v === true ? "yes" : v === false ? "no" : String(v).replace(/_/g, " "));

function optionField(opt) {
  const select = el("select", { name: `opt:${opt.name}` });
  for (const v of opt.allowed) {
    const text = valueWords(v) + (v === opt.default ? " (standard)" : "");
    select.append(el("option", { value: JSON.stringify(v) }, text));
  }
  const hint = opt.ruling ? (opt.ruling === "designer" ? "a designer's test option" : `ruling ${opt.ruling}`) : "";
  const about = opt.about ? inWords(opt.about) : opt.doc;  // the player rules' words when they have them
  const label = el("label", { class: "option", title: hint ? `${opt.doc} (${hint})` : opt.doc }, `${inWords(opt.name)}: `, select);
  label.append(el("small", {}, ` ${about}`));
  if (hint) label.append(el("small", { class: "hint" }, ` · ${hint}`));
  label.append(el("small", { class: "variant-mark" }, ""));
  return label;
}

// The rules as written, or a variant the server offers (by name: a packaged one
// such as UPTIME's lab variant, or one the operator gave `cardlab serve --variant`).
// Choosing one sets the option fields to the variant's settings (and back to the
// standard ones for "as written"), so what the form shows is what the table plays.
const chosenVariant = (form, game) => (game.variants || []).find((x) => form.variant && x.name === form.variant.value);

// An option's value before the player touches it: the variant's, else the standard.
function baseline(form, game, opt) {
  const v = chosenVariant(form, game);
  return v && v.options && opt.name in v.options ? v.options[opt.name] : opt.default;
}

function variantField(form, game) {
  const select = el("select", { name: "variant" });
  select.append(el("option", { value: "" }, "as written (the rulebook, with our rulings)"));
  for (const v of game.variants) select.append(el("option", { value: v.name }, v.title));
  const about = el("small", {}, "");
  const show = () => {
    const v = chosenVariant(form, game);
    const cards = v && v.card_changes ? ` It changes ${v.card_changes} card number${v.card_changes === 1 ? "" : "s"}.` : "";
    about.textContent = v ? ` ${v.about}${cards}` : "";
    for (const opt of game.options) {
      const field = form[`opt:${opt.name}`];
      if (!field) continue;
      const set = v && v.options && opt.name in v.options;
      field.value = JSON.stringify(baseline(form, game, opt));
      field.closest("label").classList.toggle("from-variant", Boolean(set));
      const mark = field.closest("label").querySelector(".variant-mark");
      if (mark) mark.textContent = set ? " · set by the variant" : "";
    }
  };
  select.addEventListener("change", show);
  return el("label", { class: "option variant" }, "Rules: ", select, about);
}

function tableRequest(form, game) {
  const spec = { game: game.name, players: Number(form.players.value), options: {}, seats: [] };
  // Only the options a player changed: the rest are the standard rules or, with a
  // variant chosen, the variant's own settings.
  for (const opt of game.options) {
    const value = JSON.parse(form[`opt:${opt.name}`].value);
    if (value !== baseline(form, game, opt)) spec.options[opt.name] = value;
  }
  if (form.variant && form.variant.value) spec.variant = form.variant.value;
  for (let i = 0; i < spec.players; i++) {
    const v = form[`seat${i}`].value;
    if (v === "human") {
      const name = form[`name${i}`].value.trim();
      spec.seats.push(name ? { kind: "human", name } : { kind: "human" });
      continue;
    }
    const [, agent, it] = v.split(":");
    spec.seats.push(it ? { kind: "bot", agent, params: { iterations: Number(it) } } : { kind: "bot", agent });
  }
  spec.turn_seconds = Number(form.turn_seconds.value);
  spec.bot_delay = Number(form.bot_delay.value);
  return spec;
}

function showLinks(box, made, spec) {
  box.hidden = false;
  box.replaceChildren(el("h3", {}, "Your table is ready"));
  const base = `${location.origin}/t/${made.table}#`;
  const list = el("ul");
  spec.seats.forEach((seat, i) => {
    if (seat.kind !== "human") return;
    const url = `${base}seat=${i}&token=${made.tokens[`seat${i}`]}`;
    const who = seat.name ? `${seat.name} (seat ${i})` : `Seat ${i}`;
    const a = el("a", { href: url, class: i === 0 ? "sit" : "" }, i === 0 ? `Sit at seat 0${seat.name ? ` as ${seat.name}` : ""}` : url);
    list.append(el("li", {}, `${who}: `, a, i === 0 ? "" : " (send this link to that player)"));
  });
  list.append(el("li", {}, "Spectators: ", el("a", { href: `${base}role=spectator&token=${made.tokens.spectator}` }, "watch link")));
  list.append(el("li", {}, "Host controls (hand a seat to a bot): ", el("a", { href: `${base}role=host&token=${made.tokens.host}` }, "host link")));
  box.append(list, el("p", { class: "note" }, "Each link is a secret key to its seat: share it only with that player."));
}

function gamePanel(game) {
  const node = document.getElementById("game-tpl").content.firstElementChild.cloneNode(true);
  node.id = `game-${game.name}`;
  node.querySelector(".title").textContent = game.title;
  node.querySelector(".counts").textContent = `${game.min_players}–${game.max_players} players`;
  node.querySelector(".pitch").textContent = game.pitch;
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
  if (!game.options.length && !(game.variants || []).length) opts.hidden = true;
  if ((game.variants || []).length) opts.append(variantField(form, game));
  for (const opt of game.options) opts.append(optionField(opt));
  fillSeats(form, game);
  form.players.addEventListener("change", () => fillSeats(form, game));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const spec = tableRequest(form, game);
    const resp = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(spec) });
    const body = await resp.json();
    const box = node.querySelector(".links");
    if (!resp.ok) { box.hidden = false; box.replaceChildren(el("p", { class: "error" }, body.error)); return; }
    showLinks(box, body, spec);
  });
  return node;
}

// --- playtest reports: the latest report per game, a fresh run, its status ---
const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");

function showReport(node, game, st, settings) {
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
      el("small", { class: "muted" }, ` (${when(st.report_at)})`),
      st.verdicts ? el("br") : "",
      st.verdicts ? el("small", { class: "verdicts" }, `${st.games_played} games · claims: ${st.verdicts.holds} hold, ${st.verdicts.fails} fail, ${st.verdicts.needs_data || 0} need data, ${st.verdicts.untestable} untestable`) : "",
    );
  } else {
    line.className = "report-line muted";
    line.replaceChildren("No playtest report yet: run one to see win rates, length and the rulebook's claims checked.");
  }
  button.disabled = st.state === "running";
  button.title = `Runs cardlab report ${game.name} ${settings} in the background`;
  status.className = `run-status ${st.state}`;
  if (st.state === "running") status.replaceChildren(`Running a playtest since ${when(st.started)}… (this page updates by itself)`);
  else if (st.state === "done") status.replaceChildren(`Fresh playtest done at ${when(st.finished)}`);
  else if (st.state === "failed") status.replaceChildren(`Failed${st.finished ? ` at ${when(st.finished)}` : ""}: ${st.error}`);
  else status.replaceChildren();
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
const OPERATOR_KEY = "cardlab-operator";
function takeOperatorFragment() {
  const m = /(?:^#|&)operator=([^&]+)/.exec(location.hash);
  if (!m) return;
  try { sessionStorage.setItem(OPERATOR_KEY, decodeURIComponent(m[1])); } catch (err) { console.warn("no sessionStorage", err); }
  history.replaceState(null, "", location.pathname + location.search);  // out of the address bar and history
}
function operatorHeaders() {
  let token = null;
  try { token = sessionStorage.getItem(OPERATOR_KEY); } catch (err) { /* private mode */ }
  return token ? { authorization: `Bearer ${token}` } : {};
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
}
main();
