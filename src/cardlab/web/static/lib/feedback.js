// The lobby's "What players said": the survey's answers summed up and how the humans
// played against the bots at the same tables, in words. Pure functions (tests/js/).

// A figure with its unit, "–" for none.
export const fmt = (v, unit = "") => (v === null || v === undefined ? "–" : `${v}${unit}`);
// A share as a percentage to a tenth ("12.5%"), "–" for none.
export const percentTenths = (v) => (v === null || v === undefined ? "–" : `${Math.round(v * 1000) / 10}%`);

// "3 answers. Fun 4.2 of 5 (3 rated: 1: 0, ...).  Length: too short 0, about right 2, too long 1."
export function answersLine(s) {
  const fun = s.fun;
  return `${s.answers} answer${s.answers === 1 ? "" : "s"}. Fun ${fmt(fun.mean)} of 5 (${fun.answered} rated: ` +
    Object.entries(fun.histogram).map(([k, n]) => `${k}: ${n}`).join(", ") + ").  Length: " +
    `too short ${s.length.too_short}, about right ${s.length.right}, too long ${s.length.too_long}.`;
}

export function playHeading(p) {
  return `Humans and bots at the same ${p.games} table game${p.games === 1 ? "" : "s"} (about ${fmt(p.mean_length)} decisions)`;
}

// A side's five most played kinds of move with their shares ("" for none).
export function moveKindsText(kinds) {
  return Object.entries(kinds || {}).sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${percentTenths(v)}`).join(", ");
}
