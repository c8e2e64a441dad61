// uptime: how its observation reads at the table (loaded by views.js when a
// table of this game opens; a game without such a file is drawn generically).
"use strict";

GameViews.register("uptime", {
  upfront: ["build_row"],
  // The board: the Build Row at the centre; each seat's tableau is its built cards.
  board: { shared: ["build_row"], tableau: ["tableau"] },
  seat(f, out, obs, seat) {
    const take = (k) => { const v = f[k]; delete f[k]; return v; };
    const mats = take("hand_materials"), patches = take("hand_patches");
    // Set-up deals seat by seat and a Twist drawn meanwhile is a decision: a seat whose
    // deal has not come yet says so rather than "Hand 0 materials".
    const events = obs.events || [];
    const waiting = !mats && !patches && events.some((e) => e.kind === "setup") &&
      !events.some((e) => e.kind === "got" && e.why === "deal" && e.seat === seat);
    if (waiting) out.chip("Hand", "not dealt yet");
    else if (mats !== undefined) out.chip("Hand", plural(mats, "material") + (patches ? ` + ${plural(patches, "Patch", "Patches")}` : ""));
    const known = take("known_materials");
    if (!isEmpty(known)) out.chip("Seen taking", Object.entries(known).map(([m, n]) => (n > 1 ? `${m} ×${n}` : m)).join(", "));
    const comps = take("computers"), milestone = take("milestone_computers");
    if (comps !== undefined) out.chip("Computers", comps + (milestone !== undefined && milestone !== comps ? ` (${milestone} toward Milestone)` : ""));
    const contracts = take("contracts");
    if (contracts) out.chip("Contracts", contracts);
    const turns = take("turns");
    if (turns !== undefined) out.chip("Turns", turns);
    const dp = take("draw_pass_actions");
    if (dp) out.chip("Draws/Passes", dp);
    if (take("tower_discount")) out.tag("Tower discount", "good");
    const pts = take("points");
    if (pts && typeof pts === "object") {
      const parts = Object.entries(pts).filter(([k, v]) => k !== "total" && k !== "network_uncapped" && v)
        .map(([k, v]) => `${words(k)} ${v}` + (k === "network" && pts.network_uncapped !== v ? ` (${pts.network_uncapped} uncapped)` : ""));
      out.chip("Points", parts.length ? `${parts.join(" + ")} = ${pts.total}` : `${pts.total ?? 0}`);
    }
    out.zone("Tableau", take("tableau"));
  },
  table(obs, out, used) {
    for (const k of ["first_player", "turn_of", "winner"]) {
      if (obs[k] !== undefined && obs[k] !== null) out.chip(label(k), seatWord(obs[k]));
      used.add(k);
    }
    if (obs.end_triggered) out.chip("End triggered", words(String(obs.end_triggered)), "warn");
    if (obs.supply_shortage_pending) out.tag("Supply Shortage pending", "warn");
    if (obs.tiebreak) out.chip("Tie-break", words(String(obs.tiebreak)));
    if (!isEmpty(obs.build_deck_bottom_known)) out.chip("Bottom of the Build Deck", obs.build_deck_bottom_known.join(", "));
    const p = obs.payment;
    if (p) {
      out.chip("Paying", `${seatWord(p.payer)} for ${p.for}: ${p.remaining} to go` + (p.paid && p.paid.length ? `, paid ${p.paid.join(", ")}` : ""), "warn");
    }
    for (const k of ["end_triggered", "supply_shortage_pending", "tiebreak", "build_deck_bottom_known", "payment", "auction"]) used.add(k);
  },
  banner(obs) {
    const a = obs.auction;
    if (!a) return null;
    const box = h("div", "auction-body");
    if (a.contract) box.append(Cards.render(a.contract, { small: true }));
    const out = new Facts();
    out.chip("Opened by", seatWord(a.opener));
    out.chip("High bid", a.high_bid === null || a.high_bid === undefined ? "no bid yet" : `${a.high_bid} by ${seatWord(a.high_bidder)}`);
    if (!isEmpty(a.still_to_answer)) out.chip("Still to answer", a.still_to_answer.map(seatWord).join(", "));
    const text = h("div", "");
    out.draw(text);
    box.append(text);
    return section("Auction", box, "auction");
  },
});
