// The design page's words and values: a lever's value from its field, the claims'
// verdicts, a comparison's progress and result, what players said about a version.
// Pure functions (tests/js/); static/design.js draws with them.

// The cards as written, one arm of a comparison beside the saved versions (by number).
export const AS_WRITTEN = "as written";
export const armValue = (v) => (v === AS_WRITTEN ? AS_WRITTEN : Number(v));

// The rule levers a design sets (`fields`: [option name, field value]): only those
// changed from their default, each in its type (a number, true or false, else text).
export function designOptions(fields, specs) {
  const out = {};
  for (const [name, v] of fields) {
    const spec = specs.find((s) => s.name === name);
    if (!spec || v === "" || v === String(spec.default)) continue;
    out[spec.name] = spec.type === "boolean" ? v === "true" : (["integer", "number", "float"].includes(spec.type) ? Number(v) : v);
  }
  return out;
}

// A share as a whole percentage ("45%"), "–" for no number.
export const percent = (x) => (typeof x === "number" ? `${Math.round(x * 100)}%` : "–");

// What players at a version's tables said (the survey), beside those tables' bots:
// {text, said} (said: their confusing rules and comments), or null with no answers.
export function playersWords(p) {
  if (!p || !p.answers) return null;
  const fun = p.fun.mean === null ? "no fun score" : `fun ${p.fun.mean}/5 (${p.fun.answered} answered)`;
  const len = Object.entries(p.length).filter(([, n]) => n).map(([k, n]) => `${n} ${k.replaceAll("_", " ")}`).join(", ");
  const h = p.play.humans, b = p.play.bots;
  const text = `players: ${p.answers} answer(s), ${fun}${len ? `, length: ${len}` : ""} · in ${p.play.games} game(s): humans won ${percent(h.win_share)} of their seats (mean points ${h.mean_points ?? "–"}), bots ${percent(b.win_share)} (${b.mean_points ?? "–"})`;
  return { text, said: [...p.confusing.map((c) => `confusing: ${c}`), ...p.comments] };
}

// A comparison's progress in words and its class: [text, "" | "good" | "error"].
export function progressWords(st) {
  const about = st.estimated && st.state === "running" ? "about " : "";
  if (st.state === "running") {
    const run = st.run ? ` · ${st.run}: ${st.run_done}/${st.run_total}` : "";
    return [`${st.labels[0]} against ${st.labels[1]}: ${st.done} of ${about}${st.total} games · ${st.stage}${run}`, ""];
  }
  if (st.state === "done") return [`Done: ${st.done} games in ${st.elapsed_s} s.`, "good"];
  return [`The comparison failed: ${st.error || "unknown error"}`, "error"];
}

// What a comparison's result (`r`) changed between its two arms, and how it was played.
export function changedWords(r) {
  const changed = r.what === "cards" ? "the cards" : `the rule option ${r.what} (${r.values[0]} against ${r.values[1]})`;
  return `What changed: ${changed}. ${r.games} games an arm on the same seeds; ${r.games_played} games played in all (${r.elapsed_s} s).`;
}

export const MARKS = { holds: "✔ holds", fails: "✘ fails", needs_data: "… needs data", untestable: "? untestable" };
export const verdictWords = (arm) => (arm ? MARKS[arm.verdict] || String(arm.verdict) : "–");

// A claim of the comparison, and whether its two arms read differently.
export const claimText = (c) => `${c.text}${c.kind === "invariant" ? " (engine invariant)" : ""}`;
export const claimMoved = (c) => verdictWords(c.arms[0]) !== verdictWords(c.arms[1]);

// An experience figure in its unit: a share as a percentage, anything else a number.
export const figure = (v, unit) => (typeof v !== "number" ? "–" : unit === "share" ? `${Math.round(v * 1000) / 10}%` : String(Math.round(v * 100) / 100));

// One arm's cell of an experience metric: the figure, its interval and its reading.
export function experienceCell(x, unit) {
  return x ? `${figure(x.value, unit)}${x.interval ? ` (${figure(x.interval[0], unit)} – ${figure(x.interval[1], unit)})` : ""} ${x.reading || ""}` : "–";
}
