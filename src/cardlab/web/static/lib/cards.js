// Cards as the observation carries them: what is a card, how a CSS card is marked and
// coloured, a card's facts in words, a card found by its id. Pure functions (tested
// in tests/js/); static/cards.js draws with them.

// A card is any object with "name" and "id" (or a face-down card: "hidden").
export function isCard(v) {
  return v && typeof v === "object" && !Array.isArray(v) && "name" in v && ("id" in v || v.hidden);
}

export function isCardList(v) {
  return Array.isArray(v) && v.length > 0 && v.every((c) => isCard(c));
}

// A mark for CSS cards: the card's own symbol, else a letter of its kind.
export function cardMark(card) {
  if (card.symbol) return card.symbol;
  const kind = card.kind || card.type || card.category || card.name || "?";
  return String(kind).slice(0, 2).toUpperCase();
}

// The card's own colour, else a hue hashed from its kind (the same kind, the same hue).
export function cardColour(card) {
  const named = card.colour || card.color;
  if (named) return named;
  const key = String(card.kind || card.type || card.sector || card.name);
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h} 55% 42%)`;
}

// The card's scalar fields in words ("cost 3", "tower"), its connectors' colours last.
export function cardFacts(card) {
  const skip = new Set(["id", "name", "number", "colour", "color", "symbol", "line_mark", "edges", "green", "red", "kind", "type"]);
  const out = [];
  for (const [k, v] of Object.entries(card)) {
    if (skip.has(k) || v === null || v === false || typeof v === "object") continue;
    out.push(v === true ? k.replace(/_/g, " ") : `${k.replace(/_/g, " ")} ${v}`);
  }
  if (card.green) out.push(`green ${card.green.join("/")}`);
  if (card.red) out.push(`red ${card.red.join("/")}`);
  return out;
}

// A card's name by its id, from the cards the observation shows (a move's description
// names cards by id; the page tells them by name). The id itself when the view has none.
export function cardName(obs, id) {
  const seen = new Set();
  const find = (v) => {
    if (!v || typeof v !== "object" || seen.has(v)) return null;
    seen.add(v);
    if (!Array.isArray(v) && v.id === id && typeof v.name === "string") return v.name;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      const hit = find(x);
      if (hit) return hit;
    }
    return null;
  };
  return find(obs) || String(id);
}

// The card object of an id anywhere in a value (the observation), or null.
export function cardById(value, id) {
  if (!value || typeof value !== "object") return null;
  if (!Array.isArray(value) && value.id === id && "name" in value) return value;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const found = cardById(v, id);
    if (found) return found;
  }
  return null;
}

// Identical cards (same face, different ids: UPTIME's materials) in groups, in the
// order each face first comes, so a hand draws each face once with a count.
export function sameFaces(hand) {
  const groups = new Map();
  for (const card of hand) {
    const { id, ...face } = card;
    const key = JSON.stringify(face);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  return [...groups.values()];
}

// Nothing worth a line: null, "", false, an empty list or an empty object.
export function isEmpty(v) {
  if (v === null || v === undefined || v === "" || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object" && !isCard(v)) return Object.keys(v).length === 0;
  return false;
}

// Whether a value holds cards a player would look at (a card, a list of cards, slots).
export function holdsCards(v) {
  if (isCard(v) || isCardList(v)) return true;
  return Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === "object" && "card" in x);
}
