import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chosenVariant, countOptions, variantOptions, chosenVersion, baseline, recommendedOf, findingText, tableRequest,
  seatOptions, seatDefault, optionValueText, optionHint, cardChangesText, defaultBots, botWords, playRequest, playNote,
  lengthWords, countsLine, pitchLine, versionLabel, localTime, verdictsLine, runStatusText,
} from "../../src/cardlab/web/static/lib/lobby.js";

const QUICK = {
  name: "quick", title: "TOY, quick rules", recommended: true, finding: "Quick games end sooner.",
  options: { cap: 2 }, options_by_players: { 3: { cap: 3, open: true } },
};
const GAME = {
  name: "toy", title: "TOY", pitch: "A toy game.", min_players: 2, max_players: 4, default_players: 3,
  box_minutes: { 3: [24.6, 30.2] },
  variants: [QUICK, { name: "slow", title: "Slow", options: {} }],
  options: [{ name: "cap", default: 1, allowed: [1, 2, 3] }, { name: "open", default: false, allowed: [true, false], lever: true }],
  bots: [{ kind: "ismcts", strengths: { quick: 100, solid: 400 } }, { kind: "greedy" }, { kind: "random" }, { kind: "builder" }],
};
// A form as the lobby reads it: its fields by name, each with a value.
const field = (value) => ({ value });
const form = (players, more = {}) => ({ players: field(String(players)), ...more });

test("chosenVariant: the variant the form names, else none", () => {
  assert.equal(chosenVariant(form(2, { variant: field("quick") }), GAME), QUICK);
  assert.equal(chosenVariant(form(2, { variant: field("") }), GAME), undefined);
  assert.equal(chosenVariant(form(2), GAME), undefined);
  assert.equal(chosenVariant(form(2, { variant: field("quick") }), { name: "bare" }), undefined);
});

test("countOptions and variantOptions: a variant's settings at the player count", () => {
  assert.deepEqual(countOptions(QUICK, form(3)), { cap: 3, open: true });
  assert.deepEqual(countOptions(QUICK, form(2)), {});
  assert.deepEqual(countOptions(undefined, form(3)), {});
  assert.deepEqual(countOptions(QUICK, {}), {});
  assert.deepEqual(variantOptions(QUICK, form(3)), { cap: 3, open: true });
  assert.deepEqual(variantOptions(QUICK, form(2)), { cap: 2 });
  assert.deepEqual(variantOptions(undefined, form(2)), {});
});

test("chosenVersion: the design version the Cards field names", () => {
  const v4 = { id: 4, options: { cap: 3 } };
  assert.equal(chosenVersion({ _versions: [v4], design_version: field("4") }), v4);
  assert.equal(chosenVersion({ _versions: [v4], design_version: field("") }), null);
  assert.equal(chosenVersion({ _versions: [v4] }), null);
  assert.equal(chosenVersion({ design_version: field("4") }), null);
});

test("baseline: the version's value, else the variant's at this count, else the default", () => {
  const [cap, open] = GAME.options;
  assert.equal(baseline(form(3, { variant: field("quick") }), GAME, cap), 3);
  assert.equal(baseline(form(2, { variant: field("quick") }), GAME, cap), 2);
  assert.equal(baseline(form(2, { variant: field("quick") }), GAME, open), false);
  assert.equal(baseline(form(2), GAME, cap), 1);
  const version = { _versions: [{ id: 9, options: { open: true } }], design_version: field("9") };
  assert.equal(baseline(form(3, { variant: field("quick"), ...version }), GAME, open), true);
  assert.equal(baseline(form(3, { variant: field("quick"), ...version }), GAME, cap), 1);  // the version replaces the variant
});

test("tableRequest: the seats, the changed options only, numbers as numbers", () => {
  const f = form(3, {
    variant: field("quick"), "opt:cap": field("3"), "opt:open": field("false"),
    seat0: field("human"), name0: field("  Ada "), seat1: field("bot:ismcts:400"), seat2: field("human"), name2: field(""),
    turn_seconds: field("30"), bot_delay: field("0.3"),
  });
  assert.deepEqual(tableRequest(f, GAME), {
    game: "toy", players: 3, variant: "quick",
    options: { open: false },  // cap 3 is the variant's at 3 players; open differs from it
    seats: [{ kind: "human", name: "Ada" }, { kind: "bot", agent: "ismcts", params: { iterations: 400 } }, { kind: "human" }],
    turn_seconds: 30, bot_delay: 0.3,
  });
  const plain = form(2, { "opt:cap": field("1"), "opt:open": field("true"), seat0: field("human"), name0: field(""),
    seat1: field("bot:greedy"), turn_seconds: field("0"), bot_delay: field("0") });
  assert.deepEqual(tableRequest(plain, GAME), {
    game: "toy", players: 2, options: { open: true }, seats: [{ kind: "human" }, { kind: "bot", agent: "greedy" }],
    turn_seconds: 0, bot_delay: 0,
  });
});

test("recommendedOf and findingText: the recommended rules and the line beside the rules as written", () => {
  assert.equal(recommendedOf(GAME), QUICK);
  assert.equal(recommendedOf({ variants: [{ name: "x" }] }), null);
  assert.equal(recommendedOf({}), null);
  assert.equal(findingText(GAME, null), "Quick games end sooner.");
  const plainRec = { variants: [{ name: "q", recommended: true }] };
  const failing = { verdicts: { fails: 2 }, games_played: 300 };
  assert.equal(findingText(plainRec, failing), "As written, 2 of the rulebook's claims fail in the lab's latest report (300 games).");
  assert.equal(findingText(plainRec, { verdicts: { fails: 0 } }), "The playtest lab recommends these rules over the rules as written.");
  assert.equal(findingText({}, failing), "As written, 2 of the rulebook's claims fail in the lab's latest report (300 games).");
  assert.equal(findingText({}, null), "");
});

test("seatOptions and seatDefault: a human, every bot and strength; greedy first at the other seats", () => {
  assert.deepEqual(seatOptions(0, GAME.bots.slice(0, 2)), [
    ["human", "Human (you)"],
    ["bot:ismcts:100", "Bot: ismcts (quick, 100 iterations)"],
    ["bot:ismcts:400", "Bot: ismcts (solid, 400 iterations)"],
    ["bot:greedy", "Bot: greedy"],
  ]);
  assert.deepEqual(seatOptions(2, []), [["human", "Human (invite)"]]);
  assert.equal(seatDefault(0, GAME.bots), null);
  assert.equal(seatDefault(1, GAME.bots), "bot:greedy");
  assert.equal(seatDefault(2, [{ kind: "random" }, { kind: "builder" }]), "bot:random");
});

test("optionValueText, optionHint, cardChangesText: the form's words", () => {
  assert.equal(optionValueText({ default: 1 }, 1), "1 (standard)");
  assert.equal(optionValueText({ default: 1, lever: true }, 1), "1 (as written)");
  assert.equal(optionValueText({ default: 1 }, 2), "2");
  assert.equal(optionValueText({ default: false }, true), "yes");
  assert.equal(optionValueText({ default: "hype_down" }, "hype_down"), "hype down (standard)");
  assert.equal(optionHint({}), "");
  assert.equal(optionHint({ ruling: "designer" }), "a designer's test option");
  assert.equal(optionHint({ ruling: "U4" }), "ruling U4");
  assert.equal(cardChangesText(undefined), "");
  assert.equal(cardChangesText({ card_changes: 0 }), "");
  assert.equal(cardChangesText({ card_changes: 1 }), " It changes 1 card number.");
  assert.equal(cardChangesText({ card_changes: 3 }), " It changes 3 card numbers.");
});

test("defaultBots and botWords: a searching bot, greedy and a persona", () => {
  assert.deepEqual(defaultBots(GAME), [
    { kind: "bot", agent: "ismcts", params: { iterations: 400 } }, { kind: "bot", agent: "greedy" }, { kind: "bot", agent: "builder" },
  ]);
  assert.deepEqual(defaultBots({ bots: [{ kind: "ismcts", strengths: { quick: 50, strong: 900 } }] }),
    [{ kind: "bot", agent: "ismcts", params: { iterations: 50 } }]);  // no "solid": its first strength
  assert.deepEqual(defaultBots({ bots: [{ kind: "random" }] }), [{ kind: "bot", agent: "random" }]);
  assert.equal(botWords({ kind: "bot", agent: "ismcts", params: { iterations: 400 } }), "a searching bot (ismcts, 400 iterations)");
  assert.equal(botWords({ kind: "bot", agent: "greedy" }), "greedy");
  assert.equal(botWords({ kind: "bot", agent: "x", params: {} }), "x");
});

test("playRequest and playNote: you against the default bots, the recommended rules", () => {
  const spec = playRequest(GAME);
  assert.deepEqual(spec, {
    game: "toy", players: 3, options: {}, turn_seconds: 0, bot_delay: 0.8, variant: "quick",
    seats: [{ kind: "human" }, { kind: "bot", agent: "ismcts", params: { iterations: 400 } }, { kind: "bot", agent: "greedy" }],
  });
  assert.equal(playNote(spec, QUICK), "3 players: you against a searching bot (ismcts, 400 iterations), greedy, with quick rules.");
  const four = playRequest({ name: "g", default_players: 4, bots: [{ kind: "greedy" }, { kind: "random" }] });
  assert.deepEqual(four.seats.map((s) => s.agent || s.kind), ["human", "greedy", "greedy", "greedy"]);
  assert.equal("variant" in four, false);
  assert.equal(playNote(four, null), "4 players: you against greedy, greedy, greedy, with the rules as written.");
});

test("lengthWords, countsLine, pitchLine: the game's card", () => {
  assert.equal(lengthWords(GAME), "25–30 min");
  assert.equal(lengthWords({ default_players: 2, box_minutes: { 2: [30, 30.4] } }), "30 min");
  assert.equal(lengthWords({ default_players: 2, box_minutes: {} }), "");
  assert.equal(lengthWords({ default_players: 2 }), "");
  assert.equal(countsLine(GAME), "2–4 players · about 25–30 min");
  assert.equal(countsLine({ min_players: 2, max_players: 2, default_players: 2 }), "2–2 players");
  assert.equal(pitchLine(GAME), "A toy game.");
  assert.equal(pitchLine({ pitch: "Hearts.", score_direction: "lowest" }), "Hearts. Fewest points win.");
});

test("versionLabel: a design version by number, name and date", () => {
  assert.equal(versionLabel({ id: 3, name: "more CPUs", created_text: "2024-05-01 10:00" }), "version 3 (more CPUs, 2024-05-01 10:00)");
});

test("localTime, verdictsLine, runStatusText: the playtest report's lines", () => {
  assert.equal(localTime(""), "");
  assert.equal(localTime(null), "");
  const iso = "2024-05-01T10:00:00Z";
  assert.equal(localTime(iso), new Date(iso).toLocaleString());
  assert.notEqual(localTime(iso), "");
  assert.equal(verdictsLine({ games_played: 200, verdicts: { holds: 5, fails: 1, untestable: 2 } }),
    "200 games · claims: 5 hold, 1 fail, 0 need data, 2 untestable");
  assert.equal(verdictsLine({ games_played: 9, verdicts: { holds: 0, fails: 0, needs_data: 3, untestable: 0 } }),
    "9 games · claims: 0 hold, 0 fail, 3 need data, 0 untestable");
  assert.equal(runStatusText({ state: "running", started: iso }), `Running a playtest since ${localTime(iso)}… (this page updates by itself)`);
  assert.equal(runStatusText({ state: "done", finished: iso }), `Fresh playtest done at ${localTime(iso)}`);
  assert.equal(runStatusText({ state: "failed", finished: iso, error: "boom" }), `Failed at ${localTime(iso)}: boom`);
  assert.equal(runStatusText({ state: "failed", error: "boom" }), "Failed: boom");
  assert.equal(runStatusText({ state: "idle" }), null);
  assert.equal(runStatusText({}), null);
});
