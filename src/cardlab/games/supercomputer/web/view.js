// supercomputer: how its observation reads at the table (loaded by views.js when a
// table of this game opens; a game without such a file is drawn generically).
"use strict";

GameViews.register("supercomputer", {
  showsChosen: true,
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
    out.zone("Placing", take("placing"));
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
