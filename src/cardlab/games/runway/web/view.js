// runway: how its observation reads at the table (loaded by views.js when a
// table of this game opens; a game without such a file is drawn generically).
"use strict";

GameViews.register("runway", {
  scoreLabel: "Reputation",
  upfront: ["deal_in_play", "next_deal", "bench"],
  // The board: the Deal in play and what is pitched on it, the next Deal and the Bench at
  // the centre (Sectors and the pitch order are the table's chips there); Deals won are a
  // seat's tableau.
  // (In this order, so the Deal in play and its pitched cards sit just above your hand
  // for a pitch, and the Bench not far above it for a trade.)
  board: { shared: ["next_deal", "bench", "deal_in_play", "pitched"], tableau: ["deals_won"], focus: ["deal_in_play", "pitched"] },
  // The trade after a pass, in two steps: first the card you give, then what you
  // take for it (a Bench card, or a blind draw). Other moves stay as they are.
  moveSteps(legal, view) {
    const groups = new Map();
    const rest = [];
    for (const move of legal) {
      const d = move.does || {};
      const give = (d.kind === "swap" || d.kind === "blind_swap") && d.cards ? d.cards[0] : null;
      if (give === null) { rest.push(move); continue; }
      if (!groups.has(give)) groups.set(give, { title: `Give ${cardName(view.obs, give)}`, moves: [] });
      const took = d.kind === "swap" && d.targets && d.targets.length ? `Take Bench ${cardName(view.obs, d.targets[0])}` : "Draw a blind card instead";
      groups.get(give).moves.push({ ...move, short: took });
    }
    if (!groups.size) return null;
    return { title: "Trade: first choose the card you give", groups: [...groups.values()], rest };
  },
  seat(f, out, obs, seat) {
    const take = (k) => { const v = f[k]; delete f[k]; return v; };
    const hand = take("hand_sizes");
    if (hand !== undefined) out.chip("Hand", plural(hand, "card"));
    const rep = take("reputation");
    if (rep !== undefined && !(obs.scores && obs.scores[seat] === rep)) out.chip("Reputation", rep);
    const holds = take("footholds"), left = take("footholds_left");
    if (holds && typeof holds === "object") {
      const on = Object.entries(holds).filter(([, n]) => n);
      out.chip("Footholds", on.length ? on.map(([s, n]) => `${s} ${n}`).join(" · ") : "none yet");
    }
    if (left !== undefined) out.chip("Footholds left", left);
    const locked = take("sectors_locked");
    if (locked) out.chip("Sectors locked", locked);
    const rides = take("rides_paid");
    if (rides) out.chip("Rides paid", rides);
    out.zone("Deals won", take("deals_won"));
    out.zone(seat === obs.seat ? "Seen in your hand" : "Known in hand", take("known_in_hands"));
  },
  table(obs, out, used) {
    used.add("known_in_hands");  // drawn in each seat's panel
    if (Array.isArray(obs.pitch_order) && obs.pitch_order.length) out.chip("Pitch order", obs.pitch_order.map(seatWord).join(", "));
    if (obs.last_seat !== undefined && obs.last_seat !== null) out.chip("Last seat", seatWord(obs.last_seat));
    used.add("pitch_order").add("last_seat");
    // the counts in two chips, not four (the board has a phone's width to fit in)
    if (obs.deals_total !== undefined) out.chip("Deals closed", `${obs.deals_closed ?? 0} of ${obs.deals_total}`);
    if (obs.deal_deck_count !== undefined || obs.draw_pile_count !== undefined) {
      out.chip("Left", `${plural(obs.deal_deck_count ?? 0, "Deal")}, ${plural(obs.draw_pile_count ?? 0, "card")} to draw`);
    }
    if (obs.shock_effect) out.chip("Shock effect", words(String(obs.shock_effect)));
    for (const k of ["deals_closed", "deals_total", "deal_deck_count", "draw_pile_count", "shock_effect"]) used.add(k);
  },
  banner(obs) {
    const box = h("div", "hype-track");
    box.append(h("span", "label", "Hype"));
    for (let i = 0; i <= 10; i++) {
      const pip = h("span", "pip" + (i <= obs.hype ? " on" : "") + (i === 5 || i === 10 ? " step" : ""), String(i));
      pip.title = i >= 10 ? "+2 to every reward" : i >= 5 ? "+1 to every reward" : "no bonus";
      box.append(pip);
    }
    box.append(h("span", "label", obs.hype_bonus ? ` bonus +${obs.hype_bonus}` : " no bonus yet"));
    return box;
  },
});
