// After the game, a short survey for a player at this table: how much fun (1-5), how the
// length felt, a rule that confused, anything else. Every question may be left out and
// the whole survey skipped. The answer goes to the server for the designer only: no
// other seat ever receives it (docs/web.md "After the game").
"use strict";

(() => {
  const S = { done: false, sent: false, seq: null };
  const LENGTHS = [["too_short", "Too short"], ["right", "About right"], ["too_long", "Too long"]];

  function box() {
    let b = document.getElementById("survey");
    if (!b) {
      b = document.createElement("section");
      b.id = "survey";
      b.className = "survey";
      b.setAttribute("aria-label", "How was the game?");
      document.getElementById("final").after(b);
    }
    return b;
  }

  function choice(name, value, text) {
    const label = h("label", "survey-choice");
    const input = document.createElement("input");
    Object.assign(input, { type: "radio", name, value });
    label.append(input, h("span", "", text));
    return label;
  }

  function picked(form, name) {
    const on = form.querySelector(`input[name="${name}"]:checked`);
    return on ? on.value : null;
  }

  function draw() {
    const b = box();
    b.hidden = false;
    const form = document.createElement("form");
    form.className = "survey-form";
    const fun = h("fieldset", "survey-fun");
    fun.append(h("legend", "", "How much fun was it? (1 = none, 5 = a lot)"));
    for (let k = 1; k <= 5; k += 1) fun.append(choice("fun", String(k), String(k)));
    const length = h("fieldset", "survey-length");
    length.append(h("legend", "", "How did the length feel?"));
    for (const [v, t] of LENGTHS) length.append(choice("length", v, t));
    const rule = document.createElement("input");
    Object.assign(rule, { type: "text", name: "confusing", maxLength: 200, placeholder: "A rule that confused you (optional)" });
    rule.setAttribute("aria-label", "A rule that confused you");
    const text = document.createElement("textarea");
    Object.assign(text, { name: "text", maxLength: 1000, rows: 3, placeholder: "Anything else for the designer (optional)" });
    text.setAttribute("aria-label", "Anything else for the designer");
    const sendBtn = h("button", "primary survey-send", "Send to the designer");
    sendBtn.type = "submit";
    const skip = h("button", "quiet survey-skip", "Skip");
    skip.type = "button";
    skip.addEventListener("click", () => { S.done = true; b.hidden = true; });
    form.append(fun, length, rule, text, sendBtn, skip);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const answer = CardLab.surveyAnswer(picked(form, "fun"), picked(form, "length"), rule.value, text.value);  // lib/frames.js
      if (send(answer)) { S.sent = true; sendBtn.disabled = true; }
    });
    b.replaceChildren(h("h2", "", "How was the game?"),
      h("p", "muted", "Four quick questions for the designer; answer any, or skip. No other player sees your answers."), form);
  }

  document.addEventListener("cardlab:frame", (ev) => {
    const msg = ev.detail;
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "survey") {
      S.done = !!msg.saved;
      const b = box();
      b.replaceChildren(h("p", msg.saved ? "survey-thanks" : "notice warn", msg.note || (msg.saved ? "Thanks!" : "Not saved.")));
      return;
    }
    if (msg.type === "error" && S.sent && !S.done) { S.sent = false; return; }
    if (msg.type !== "state") return;
    const player = msg.you !== null && msg.you !== undefined && !params.get("role");  // table.js: the link's fragment
    if (!msg.terminal || !player) {
      const b = document.getElementById("survey");
      if (b) b.hidden = true;
      S.done = false; S.sent = false; S.seq = null;
      return;
    }
    if (S.done || S.seq !== null) return;  // drawn once a game; answered or skipped stays so
    S.seq = msg.seq;
    draw();
  });
})();
