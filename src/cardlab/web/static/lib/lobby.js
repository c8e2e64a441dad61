// The lobby's rules for a new table: the rules a variant or a design version sets, the
// request a form makes, the one-click Play's seats, and the lobby's lines in words.
// Pure functions: a "form" here is anything with the form's fields by name, each with
// its `value` (a real <form>, or a plain object in tests/js/).
import { valueWords } from "./words.js";

// The rules as written, or a variant the server offers (by name: a packaged one or
// one the operator gave `cardlab serve --variant`).
export const chosenVariant = (form, game) => (game.variants || []).find((x) => form.variant && x.name === form.variant.value);

// The options a variant sets at the chosen player count: its [options], then what it
// sets differently at that count ([players.N.options], the server's same merge).
export const countOptions = (v, form) => ((v && v.options_by_players) || {})[String(form.players && form.players.value)] || {};
export const variantOptions = (v, form) => (v ? { ...(v.options || {}), ...countOptions(v, form) } : {});

// A design version the operator chose in the form's Cards field (null: the cards as
// written, or the variant's).
export const chosenVersion = (form) => (form._versions || []).find((v) => form.design_version && String(v.id) === form.design_version.value) || null;

// An option's value before the player touches it: the design version's, else the
// variant's (at this player count), else the standard.
export function baseline(form, game, opt) {
  const version = chosenVersion(form);
  const set = version ? version.options : variantOptions(chosenVariant(form, game), form);
  return opt.name in set ? set[opt.name] : opt.default;
}

// The game's recommended ruleset (a variant marked `recommended = true`), or null.
export const recommendedOf = (game) => (game.variants || []).find((v) => v.recommended) || null;

// One line on the rules as written, beside them: the recommended variant's `finding`,
// else what the latest playtest report says (`st`, its status), else why a
// recommended ruleset exists at all.
export function findingText(game, st) {
  const rec = recommendedOf(game);
  if (rec && rec.finding) return rec.finding;
  const v = st && st.verdicts;
  if (v && v.fails) return `As written, ${v.fails} of the rulebook's claims fail in the lab's latest report (${st.games_played} games).`;
  return rec ? "The playtest lab recommends these rules over the rules as written." : "";
}

// The new table the form asks for. Only the options a player changed are sent: the
// rest are the standard rules or, with a variant chosen, the variant's own settings.
export function tableRequest(form, game) {
  const spec = { game: game.name, players: Number(form.players.value), options: {}, seats: [] };
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

// A seat's choices in the form ([value, text]): a human, then each bot (a searching
// bot at each of its strengths).
export function seatOptions(index, bots) {
  const out = [["human", index === 0 ? "Human (you)" : "Human (invite)"]];
  for (const bot of bots) {
    if (bot.strengths) {
      for (const [label, it] of Object.entries(bot.strengths)) out.push([`bot:${bot.kind}:${it}`, `Bot: ${bot.kind} (${label}, ${it} iterations)`]);
    } else {
      out.push([`bot:${bot.kind}`, `Bot: ${bot.kind}`]);
    }
  }
  return out;
}

// A seat's first choice: you at seat 0 (null: the form's first option), the greedy bot
// (else the first bot) at the others.
export function seatDefault(index, bots) {
  if (!(index > 0)) return null;
  return bots.some((b) => b.kind === "greedy") ? "bot:greedy" : `bot:${bots[0].kind}`;
}

// An option's value in the form: "yes", "hype down (standard)", "3 (as written)" for a lever.
export function optionValueText(opt, v) {
  return valueWords(v) + (v === opt.default ? (opt.lever ? " (as written)" : " (standard)") : "");
}

// The ruling an option implements (e.g. U4), shown only as a hint.
export function optionHint(opt) {
  return opt.ruling ? (opt.ruling === "designer" ? "a designer's test option" : `ruling ${opt.ruling}`) : "";
}

// " It changes 3 card numbers." for a variant that changes cards.
export function cardChangesText(v) {
  return v && v.card_changes ? ` It changes ${v.card_changes} card number${v.card_changes === 1 ? "" : "s"}.` : "";
}

// --- Play: one click to a table with good defaults ---------------------------------
// Bots of mixed strength: a searching bot (ISMCTS, "solid"), the quick greedy bot and
// one of the game's personas (a style of play), in turn.
export function defaultBots(game) {
  const kinds = game.bots.map((b) => b.kind);
  const ismcts = game.bots.find((b) => b.strengths);
  const persona = kinds.find((k) => !["greedy", "random"].includes(k) && !game.bots.find((b) => b.kind === k).strengths);
  const out = [];
  if (ismcts) out.push({ kind: "bot", agent: ismcts.kind, params: { iterations: ismcts.strengths.solid || Object.values(ismcts.strengths)[0] } });
  if (kinds.includes("greedy")) out.push({ kind: "bot", agent: "greedy" });
  if (persona) out.push({ kind: "bot", agent: persona });
  if (!out.length) out.push({ kind: "bot", agent: kinds[0] });
  return out;
}

// "a searching bot (400 iterations)", "greedy", "builder" (a persona)
export const botWords = (seat) => (seat.params && seat.params.iterations ? `a searching bot (${seat.agent}, ${seat.params.iterations} iterations)` : seat.agent);

export function playRequest(game) {
  const rec = recommendedOf(game);
  const players = game.default_players;
  const bots = defaultBots(game);
  const seats = [{ kind: "human" }];
  for (let i = 1; i < players; i++) seats.push(bots[(i - 1) % bots.length]);
  const spec = { game: game.name, players, options: {}, seats, turn_seconds: 0, bot_delay: 0.8 };
  if (rec) spec.variant = rec.name;
  return spec;
}

// Beside the Play button: "3 players: you against greedy, builder, with the rules as written."
export function playNote(spec, rec) {
  return `${spec.players} players: you against ${spec.seats.slice(1).map(botWords).join(", ")}` +
    (rec ? `, with ${rec.title.replace(/^.*?,\s*/, "")}.` : ", with the rules as written.");
}

// "30 min" or "25–30 min" for the default player count (the box's length, GameInfo).
export function lengthWords(game) {
  const m = (game.box_minutes || {})[String(game.default_players)];
  if (!m) return "";
  const [lo, hi] = m.map((x) => Math.round(x));
  return lo === hi ? `${lo} min` : `${lo}–${hi} min`;
}

// "2–4 players · about 30 min"
export function countsLine(game) {
  const length = lengthWords(game);
  return `${game.min_players}–${game.max_players} players` + (length ? ` · about ${length}` : "");
}

export function pitchLine(game) {
  return game.pitch + (game.score_direction === "lowest" ? " Fewest points win." : "");
}

// A design version by its number, name and date (the lobby's Cards field, the design
// page's comparison fields).
export const versionLabel = (v) => `version ${v.id} (${v.name}, ${v.created_text})`;

// --- playtest reports ---------------------------------------------------------------
// A time the server sent (ISO), in the reader's own locale; "" for none.
export const localTime = (iso) => (iso ? new Date(iso).toLocaleString() : "");

// The latest report's figures: "200 games · claims: 5 hold, 1 fail, 0 need data, 2 untestable".
export function verdictsLine(st) {
  return `${st.games_played} games · claims: ${st.verdicts.holds} hold, ${st.verdicts.fails} fail, ${st.verdicts.needs_data || 0} need data, ${st.verdicts.untestable} untestable`;
}

// A background run's status in words, or null when there is none to tell.
export function runStatusText(st) {
  if (st.state === "running") return `Running a playtest since ${localTime(st.started)}… (this page updates by itself)`;
  if (st.state === "done") return `Fresh playtest done at ${localTime(st.finished)}`;
  if (st.state === "failed") return `Failed${st.finished ? ` at ${localTime(st.finished)}` : ""}: ${st.error}`;
  return null;
}
