// Words for a player: keys, counts, seats and names as the page says them. Every
// function here is pure (no page, no socket, no global), so node tests it directly
// (tests/js/); lib/boot.js publishes it for the pages' classic scripts.

// A key in words: "deal_deck" -> "deal deck".
export const words = (key) => key.replace(/_/g, " ");

export const seatWord = (s) => (s === null || s === undefined ? "none" : `Seat ${s}`);
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const named = (v) => (Array.isArray(v) ? v.map((x) => (x && x.name) || String(x)).join(", ") : String(v));

// A key as a label: "deal_deck_count" -> "Deal deck", "four_way_attached" -> "Four way attached".
export function label(key) {
  const text = words(key.replace(/_(count|size)$/, ""));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A slot's note: seats named as seats ("reserved by Seat 1", "Seat 2 · match").
export function slotNote(key, v) {
  if (key === "seat") return `Seat ${v}`;
  if (key.endsWith("_by") || key.endsWith("_seat")) return `${words(key)} Seat ${v}`;
  if (key === "role") return String(v);
  return v === true ? words(key) : `${words(key)} ${v}`;
}

// A zone in words: card names with counts ("Case, Router ×2"), a grid by its parts.
export function summary(value) {
  const cards = Array.isArray(value) ? value.map((v) => (v && v.card ? v.card : v)) : [value];
  const names = new Map();
  for (const c of cards) {
    const n = c && typeof c === "object" ? (c.hidden ? "face-down card" : c.name) : String(c);
    if (n !== undefined && n !== null) names.set(n, (names.get(n) || 0) + 1);
  }
  if (!names.size) return "none";
  return [...names].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ");
}

// An option in words: "Patch cost", values "yes"/"no" or "hype down" (the lobby's form).
export const inWords = (text) => { const t = String(text).replace(/(\w)_(?=\w)/g, "$1 "); return t.charAt(0).toUpperCase() + t.slice(1); };
export const valueWords = (v) => (v === true ? "yes" : v === false ? "no" : String(v).replace(/_/g, " "));

// "2 Polymer, Rare-Earth, CPU": names in the order given, each with its count.
export function countedNames(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${n} ${name}` : name)).join(", ");
}

// A text's length as the server counts it: in code points, not UTF-16 units.
export function letters(text) { return [...text].length; }
