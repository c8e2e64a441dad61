// The pages' module entry: every lib module's exports on one namespace object,
// globalThis.CardLab, for the classic scripts (cards.js, views.js, table.js, lobby.js,
// design.js...), which read it when they run. The pages load this first, as a module,
// and those scripts after it with `defer`: a module script and the deferred classic
// scripts run in document order once the page is parsed, so CardLab is there before
// any of them. A name two modules export would make one shadow the other: the page
// refuses to start instead.
import * as cards from "./cards.js";
import * as clock from "./clock.js";
import * as design from "./design.js";
import * as feedback from "./feedback.js";
import * as frames from "./frames.js";
import * as layout from "./layout.js";
import * as lobby from "./lobby.js";
import * as moves from "./moves.js";
import * as observation from "./observation.js";
import * as operator from "./operator.js";
import * as seats from "./seats.js";
import * as words from "./words.js";

export const MODULES = { cards, clock, design, feedback, frames, layout, lobby, moves, observation, operator, seats, words };

export function namespace(modules = MODULES) {
  const out = {};
  for (const [file, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (Object.hasOwn(out, name)) throw new Error(`lib/${file}.js exports ${name}, which another lib module exports too`);
      out[name] = value;
    }
  }
  return Object.freeze(out);
}

globalThis.CardLab = namespace();
