// The lobby's "What players said" and its design page link for each game: the after-game survey's answers summed
// up, beside how the humans played against the bots at the same tables. For the
// server's operator (the designer): the answers are fetched with the operator token the
// lobby keeps from the operator link (lobby.js), and drawn as text, never as markup.
"use strict";

(() => {
  // the pure helpers (lib/feedback.js, lib/operator.js; published by lib/boot.js)
  const { fmt, percentTenths, answersLine, playHeading, moveKindsText, OPERATOR_KEY, authHeaders } = CardLab;
  const el = (tag, cls, text) => {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  };

  function drawSummary(body, s) {
    body.replaceChildren();
    if (!s.answers && !s.play.games) {
      body.append(el("p", "muted", "No player has answered yet: the survey opens for each player at the end of a table game."));
      return;
    }
    body.append(el("p", "", answersLine(s)));
    const lists = [["A rule that confused", s.confusing], ["Comments", s.comments]];
    for (const [title, items] of lists) {
      if (!items.length) continue;
      body.append(el("h4", "", title));
      const ul = el("ul", "feedback-list");
      for (const t of items) ul.append(el("li", "", t));
      body.append(ul);
    }
    const p = s.play;
    body.append(el("h4", "", playHeading(p)));
    const table = el("table", "feedback-play");
    const head = el("tr");
    for (const t of ["", "seats", "mean points", "spread", "wins", "decisions a seat", "moves"]) head.append(el("th", "", t));
    table.append(head);
    for (const [name, side] of [["Humans", p.humans], ["Bots", p.bots]]) {
      const tr = el("tr");
      const moves = moveKindsText(side.move_kinds);
      for (const t of [name, fmt(side.seats), fmt(side.mean_points), fmt(side.spread), percentTenths(side.win_share), fmt(side.decisions_per_seat), moves || "–"]) {
        tr.append(el("td", "", String(t)));
      }
      table.append(tr);
    }
    body.append(table);
  }

  function attach(section) {
    if (section.dataset.feedback) return;
    section.dataset.feedback = "1";
    const game = section.id.replace(/^game-/, "");
    const box = el("details", "feedback");
    box.append(el("summary", "", "What players said"));
    const body = el("div", "feedback-body", "Loading…");
    box.append(body);
    box.addEventListener("toggle", async () => {
      if (!box.open) return;
      const headers = authHeaders(sessionStorage.getItem(OPERATOR_KEY));
      const resp = await fetch(`/api/feedback/${encodeURIComponent(game)}`, { headers });
      if (resp.status === 401) {
        body.replaceChildren(el("p", "muted", "For the server's operator: open the operator link `cardlab serve` printed to read the players' answers."));
        return;
      }
      if (!resp.ok) { body.replaceChildren(el("p", "error", `Could not load the answers (${resp.status}).`)); return; }
      drawSummary(body, await resp.json());
    });
    const playtest = section.querySelector(".playtest");
    (playtest || section).after(box);
    // The designer's page for this game: cards and rules edited in place, versions kept,
    // played and printed (the operator's; it reads the same token).
    const design = el("p", "design-row");
    const link = el("a", "design-link", "Design page: edit the cards and rules, save versions");
    link.href = `/design/${encodeURIComponent(game)}`;
    design.append(link);
    box.after(design);
  }

  const root = document.getElementById("games");
  const scan = () => root.querySelectorAll("section.game[id^='game-']").forEach(attach);
  new MutationObserver(scan).observe(root, { childList: true, subtree: false });
  scan();
})();
