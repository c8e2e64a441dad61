// The table page's words about seats and the game's state: a seat's name, the winner
// line, the final scores' rows, the line that says whose decision it is, the page's
// title. Pure functions of a state frame (`view`: {obs, table, you, legal, final, ...}),
// tested in tests/js/.
import { words } from "./words.js";

// "Seat 1 (Ada)", or "Seat 1" for a seat nobody named (its name is then "Seat 1").
export function seatName(view, seat) {
  const info = view.table.seats[seat];
  return info && info.name && info.name !== `Seat ${seat}` ? `Seat ${seat} (${info.name})` : `Seat ${seat}`;
}

// A player as the winner line names them: "You", their name, or "Seat 2".
export function playerName(view, seat) {
  if (seat === view.you) return "You";
  const info = view.table.seats[seat];
  return info && info.name ? info.name : `Seat ${seat}`;
}

// "You win!" / "Ada wins!" / "You and Bo share the win." (each player named once).
export function winnersLine(view) {
  const f = view.final || {};
  const winners = (f.breakdown && f.breakdown.winners) || f.winners || [];
  const names = winners.map((s) => playerName(view, s));
  if (!names.length) return "Nobody wins.";
  const text = names.length === 1 ? `${names[0]} ${winners[0] === view.you ? "win" : "wins"}!`
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the win.`;
  return text.charAt(0).toUpperCase() + text.slice(1);  // "Greedy bot wins!"
}

// The line above the board ({text, mine}: mine when the decision is this page's):
// whose decision it is and what it is about, or the game's end.
export function awaitWords(view) {
  if (view.terminal) return { text: `Game over. ${winnersLine(view)}`, mine: false };
  const cp = view.current_player;
  const decision = view.obs.decision || "";
  if (cp === view.you) return { text: `Your decision: ${decision}`, mine: true };
  // a simultaneous choice (SUPER COMPUTER's picks): every seat chooses at once
  if (view.legal && view.legal.length) return { text: "Your choice: everyone chooses at the same time, in secret.", mine: true };
  if (view.chosen) return { text: `You chose: ${view.chosen.label}. Waiting for the others to choose.`, mine: false };
  const who = seatName(view, cp);
  const kind = view.table.seats[cp] && view.table.seats[cp].kind === "bot" ? "bot is thinking" : "waiting";
  return { text: `${who}: ${kind}. ${decision}`, mine: false };
}

// The page's title line: "UPTIME, recommended rules · step 4 · you are seat 0" rather
// than "UPTIME (UPTIME, recommended rules) · ...".
export function titleLine(view, who) {
  const v = view.table.variant;
  const name = !v ? view.table.title : v.startsWith(view.table.title) ? v : `${view.table.title} (${v})`;
  return `${name} · step ${view.seq} · you are ${who}`;
}

// The final scores' rows ({seat, parts, total}): the winners first, then by points
// (fewest first in a game of penalty points). `final` is the frame's `final`: a
// breakdown's rows and columns, or the engine's returns alone.
export function scoreRows(final) {
  const b = final.breakdown;
  const winners = b ? b.winners : final.winners;
  const rows = b ? b.rows.map((r) => ({ seat: r.seat, parts: r.parts, total: r.total }))
    : final.returns.map((total, seat) => ({ seat, parts: [], total }));
  const fewest = final.score_direction === "lowest";  // penalty points: fewest first
  rows.sort((x, y) => (winners.includes(y.seat) - winners.includes(x.seat)) || (fewest ? x.total - y.total : y.total - x.total));
  return rows;
}

// A score row's last cell: "Winner", and for an engine without a breakdown the points
// it reports per seat in words ("Winner. computers 3, total 7").
export function scoreNote(final, seat) {
  const b = final.breakdown;
  const winners = b ? b.winners : final.winners;
  const legacy = !b && Array.isArray(final.info.points) ? final.info.points : null;
  let note = winners.includes(seat) ? "Winner" : "";
  if (legacy && legacy[seat]) {
    note += (note ? ". " : "") + Object.entries(legacy[seat]).filter(([k, v]) => v || k === "total").map(([k, v]) => `${words(k)} ${v}`).join(", ");
  }
  return note;
}

// How a game without a breakdown ended: "Game ended: deck empty. Tie-break: not needed."
export function endWords(info) {
  const tie = info.tiebreak ?? info.tiebreak_level ?? info.tie_break;
  return `Game ended: ${words(String(info.end_reason || "over"))}. Tie-break: ${tie ? words(String(tie)) : "not needed"}.`;
}

// Seats whose link the host replaced: whoever plays one now may be the host.
export function reissuedText(view, seats) {
  return seats.map((s) => seatName(view, s)).join(", ")
    + (seats.length > 1 ? ": links" : ": link") + " reissued by the host. Whoever plays "
    + (seats.length > 1 ? "them" : "it") + " now may be the host, who then sees that seat's cards.";
}
