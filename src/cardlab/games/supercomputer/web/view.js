// supercomputer: how its observation reads at the table (loaded by views.js when a
// table of this game opens; a game without such a file is drawn generically).
"use strict";

// S4 (rules.md) read from the cards the page already holds: where a part could join a
// computer. Two bare edges touch; a bare edge facing a connector clashes; connectors of
// one colour, or either black, connect; other colours clash. A part needs no clash and at
// least one connected pair; the first part of a round goes to (0,0); with a case (options
// case_width, case_height) the computer must still fit it. Used for marks only: the
// engine's legal moves decide what is placed.
const SIDES = [["N", 0, -1, "S"], ["E", 1, 0, "W"], ["S", 0, 1, "N"], ["W", -1, 0, "E"]];

function edgePair(a, b) {
  const bare = (e) => !e || e === "none";
  if (bare(a) && bare(b)) return "touch";
  if (bare(a) || bare(b)) return "clash";
  return a === b || a === "black" || b === "black" ? "connect" : "clash";
}

function fittingCells(card, computer, options = {}) {
  if (!card || !card.edges) return [];
  if (!computer.length) return [{ x: 0, y: 0 }];
  const at = new Map(computer.map((c) => [`${c.x},${c.y}`, c.card]));
  const xs = computer.map((c) => c.x), ys = computer.map((c) => c.y);
  const w = options.case_width || 0, hgt = options.case_height || 0;
  const inCase = (x, y) => (!w || (Math.max(...xs, x) - Math.min(...xs, x) < w)) && (!hgt || (Math.max(...ys, y) - Math.min(...ys, y) < hgt));
  const seen = new Set(), out = [];
  for (const c of computer) {
    for (const [, dx, dy] of SIDES) {
      const x = c.x + dx, y = c.y + dy, key = `${x},${y}`;
      if (at.has(key) || seen.has(key)) continue;
      seen.add(key);
      let connect = false, clash = false;
      for (const [side, sx, sy, back] of SIDES) {
        const near = at.get(`${x + sx},${y + sy}`);
        if (!near) continue;
        const v = edgePair(card.edges[side], near.edges && near.edges[back]);
        if (v === "clash") clash = true;
        if (v === "connect") connect = true;
      }
      if (connect && !clash && inCase(x, y)) out.push({ x, y });
    }
  }
  return out;
}

function myComputer(view) {
  const p = Array.isArray(view.obs.players) ? view.obs.players[view.you] : null;
  return p && Array.isArray(p.computer) ? p.computer : [];
}

GameViews.register("supercomputer", {
  showsChosen: true,
  // The board: the round's picks at the centre; your computer and build card above your
  // hand, so both stay in view while you pick.
  board: { shared: ["race"], tableau: ["computer"], yours: ["builds", "build_offer", "pending_pick", "returned_build"], tableauAboveHand: true },
  hints(card, view) { return fittingCells(card, myComputer(view), view.obs.options || {}); },
  handBadge(card, view) {
    if (view.you === null || view.you === undefined || !myComputer(view).length) return null;
    const n = fittingCells(card, myComputer(view), view.obs.options || {}).length;
    return n ? { text: `fits ${plural(n, "spot")}` } : { text: "fits nowhere now", cls: "bad" };
  },
  // Your build cards in words in the decision bar, which never leaves the screen: what
  // they need stays in view while you pick from the hand below.
  barNote(view) {
    const builds = (view.obs.you && view.obs.you.builds) || [];
    if (!builds.length) return null;
    const text = builds.map((b) => `${b.name}${Array.isArray(b.requires) && b.requires.length ? ` (needs ${b.requires.join(", ")})` : ""}`);
    return { text: `${builds.length > 1 ? "Your builds" : "Your build"}: ${text.join("; ")}`, names: builds.map((b) => b.name) };
  },
  // A pick is a secret and final choice; the first touch shows where the part fits.
  // The round's picks: who has picked, and each part being placed once revealed.
  shared(obs, ctx) {
    if (!Array.isArray(obs.players) || (obs.phase !== "pick" && !obs.players.some((p) => p.placing))) return null;
    const chosen = (ctx.view && ctx.view.table.chosen_seats) || [];
    const box = h("div", "panel picks");
    box.dataset.key = "picks";
    box.append(h("h3", "", obs.phase === "pick" ? "Picks this turn" : "Parts this turn"));
    const row = h("div", "card-row");
    for (const p of obs.players) {
      const cell = h("div", "slot");
      const who = ctx.view && p.seat === ctx.view.you ? "You" : `Seat ${p.seat}`;
      if (p.placing) cell.append(Cards.render(p.placing, { small: true }));
      const status = p.placing ? "placing" : (p.has_picked || chosen.includes(p.seat)) ? "has picked" : obs.phase === "pick" ? "still picking" : "";
      cell.append(h("div", "slot-note", `${who}${status ? ` · ${status}` : ""}`));
      row.append(cell);
    }
    box.append(row);
    return box;
  },
  seat(f, out, obs, seat, ctx = {}) {
    const take = (k) => { const v = f[k]; delete f[k]; return v; };
    const hand = take("hand_size");
    if (hand !== undefined) out.chip("Hand", plural(hand, "part"));
    // A seat that picked before its turn in seat order is held by the table (the
    // engine has not seen it yet): the table says that it has chosen, never what.
    const picked = take("has_picked");
    if (picked || (ctx.chosen && obs.phase === "pick")) out.tag("has picked", "good");
    else if (ctx.chosen) out.tag("has chosen", "good");
    else if (picked === false && obs.phase === "pick") out.tag("still picking");
    const held = take("builds_held");
    if (held !== undefined) out.chip("Builds held", held);
    const four = take("four_way_attached");
    if (four) out.chip("4-way parts", four);
    const scrapped = take("scrapped_total");
    if (scrapped) out.chip("Scrapped in all", scrapped);
    const pool = take("known_hand_and_pick");
    if (!isEmpty(pool)) out.chip("Their hand + secret pick", named(pool));
    out.lead("Placing", take("placing"));  // just above the computer it goes on
    out.zone("Builds won in the race", take("race_won"));
    out.zone("Builds revealed", take("builds_revealed"));
    out.zone("Scrap", take("scrap"));
    out.zone("Known hand", take("known_hand"));
  },
  table(obs, out, used) {
    for (const k of ["round", "turn", "passing", "you"]) used.add(k);
  },
  banner(obs) {
    return h("div", "sc-round", `Round ${obs.round} of 3 · turn ${obs.turn} of 7` + (obs.passing ? ` · passing ${obs.passing}` : ""));
  },
});
