// Drawing cards. A card is any object with "id" and "name". When the game has
// print art (cardlab.art) the table shows that same SVG face; otherwise a CSS
// card. Either way the card reads by colour AND name AND mark, never colour alone.
"use strict";

const Cards = {
  game: null,
  art: new Set(),
  backs: [],

  async load(game) {
    this.game = game;
    try {
      const index = await (await fetch(`/api/art/${game}`)).json();
      this.art = new Set(index.cards);
      this.backs = index.backs;
    } catch (e) { /* CSS cards only */ }
  },

  // What a card is, its mark, colour and facts: pure functions of the card (lib/cards.js).
  isCard: CardLab.isCard,
  isCardList: CardLab.isCardList,
  mark: CardLab.cardMark,
  colour: CardLab.cardColour,
  facts: CardLab.cardFacts,

  render(card, opts = {}) {
    const node = document.createElement("div");
    node.className = "card" + (opts.small ? " small" : "");
    if (card.hidden || card.id === null) {
      node.classList.add("back");
      node.textContent = "face down";
      node.title = "a face-down card";
      return node;
    }
    node.dataset.id = card.id;
    node.dataset.name = card.name;
    const kind = card.kind || card.type || "";
    node.title = [card.name, kind, ...this.facts(card)].filter(Boolean).join(" · ");
    if (this.art.has(card.id) && !opts.css) {
      const img = document.createElement("img");
      img.src = `/art/${this.game}/${card.id}.svg`;
      img.alt = node.title;
      img.loading = "lazy";
      node.classList.add("art");
      node.append(img);
    } else {
      node.style.setProperty("--card-colour", this.colour(card));
      if (card.line_mark) node.classList.add(`mark-${card.line_mark}`);
      const head = document.createElement("div");
      head.className = "head";
      head.innerHTML = `<span class="mark"></span><span class="kind"></span>`;
      head.querySelector(".mark").textContent = this.mark(card);
      head.querySelector(".kind").textContent = kind;
      const body = document.createElement("div");
      body.className = "facts";
      body.textContent = this.facts(card).join(" · ");
      if (card.number !== undefined) node.append(Object.assign(document.createElement("div"), { className: "big", textContent: card.number }));
      node.append(head, body);
      if (card.edges) node.append(this.connectors(card.edges));
    }
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = card.name;
    node.append(name);
    return node;
  },

  // SUPER COMPUTER connectors: a labelled tab on each edge in its colour.
  connectors(edges) {
    const wrap = document.createElement("div");
    wrap.className = "edges";
    for (const [side, colour] of Object.entries(edges)) {
      if (!colour || colour === "none") continue;
      const tab = document.createElement("span");
      tab.className = `edge edge-${side}`;
      tab.style.background = colour === "black" ? "#222" : colour;
      tab.textContent = colour[0].toUpperCase();
      tab.title = `${side}: ${colour} connector`;
      wrap.append(tab);
    }
    return wrap;
  },

  row(cards, opts = {}) {
    const row = document.createElement("div");
    row.className = "card-row";
    for (const c of cards) row.append(this.render(c, opts));
    return row;
  },
};

// Zoom from the keyboard. Every face-up card on the page can take
// focus; Enter or Space on it does what a tap does (a plain card zooms; a card a move
// is chosen by is chosen), Z zooms any card; the open zoom takes the focus as a dialog,
// Escape closes it, and the focus goes back to the card it came from (or, when the
// table redrew meanwhile, to the card with the same id). Cards inside a button or a
// link are the control's, not focusable themselves.
const CardZoomKeys = {
  from: null,  // {node, id}: the card whose zoom the keyboard opened

  zoom() { return document.getElementById("zoom"); },

  // Face-up cards get tabindex, a role and a name once, as they are drawn.
  mark(root) {
    for (const card of root.querySelectorAll(".card:not(.back):not(.empty-slot)")) {
      if (card.closest("#zoom")) {
        card.removeAttribute("tabindex");
        card.removeAttribute("role");
        card.removeAttribute("aria-haspopup");
        continue;
      }
      if (card.hasAttribute("tabindex") || card.closest("button, a")) continue;
      card.tabIndex = 0;
      card.setAttribute("role", "button");
      card.setAttribute("aria-haspopup", "dialog");
      card.setAttribute("aria-label", card.title || card.dataset.name || "card");
      card.setAttribute("aria-keyshortcuts", "Z");
    }
  },

  // `direct`: zoom even a card a tap would choose (the table's openZoom), else tap it.
  open(card, direct = false) {
    this.from = { node: card, id: card.dataset.id };
    if (direct && typeof window.openZoom === "function") window.openZoom(card);
    else card.click();  // the table's own handlers: a zoom, or a choice
    const zoom = this.zoom();
    if (!zoom || zoom.hidden) { this.from = null; return; }
    zoom.setAttribute("role", "dialog");
    zoom.setAttribute("aria-modal", "true");
    zoom.setAttribute("aria-label", `Card: ${card.dataset.name || card.title || "zoomed card"}`);
    zoom.tabIndex = -1;
    const hint = zoom.querySelector("p.muted:last-child");
    if (hint) hint.textContent = "Press Escape (or tap anywhere) to close.";
    zoom.focus();
  },

  close() {
    const zoom = this.zoom();
    if (zoom && !zoom.hidden) zoom.hidden = true;
    this.restore();
  },

  // Focus back where the zoom came from (when the keyboard opened it).
  restore() {
    const from = this.from;
    this.from = null;
    if (!from) return;
    let card = from.node;
    if (!card.isConnected && from.id) card = document.querySelector(`.card[data-id="${CSS.escape(from.id)}"]:not(#zoom .card)`);
    if (card && card.isConnected) card.focus();
  },

  wire() {
    this.mark(document);
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) this.mark(n.parentElement || n);
    }).observe(document.body, { childList: true, subtree: true });
    document.addEventListener("keydown", (ev) => {
      const zoom = this.zoom();
      const open = zoom && !zoom.hidden;
      if (open && (ev.key === "Escape" || ((ev.key === "Enter" || ev.key === " ") && ev.target === zoom))) {
        ev.preventDefault();
        this.close();
        return;
      }
      if (open && ev.key === "Tab") { ev.preventDefault(); zoom.focus(); return; }  // a modal: focus stays
      const zoomKey = (ev.key === "z" || ev.key === "Z") && !ev.ctrlKey && !ev.metaKey && !ev.altKey;
      if (open || (ev.key !== "Enter" && ev.key !== " " && !zoomKey)) return;
      const card = ev.target.closest && ev.target.closest(".card[tabindex]");
      if (!card || card.closest("#zoom")) return;
      ev.preventDefault();  // Space would scroll the page
      this.open(card, zoomKey);
    });
    // Closed by a tap instead: the focus still goes back to the card.
    const zoom = this.zoom();
    if (zoom) {
      new MutationObserver(() => { if (zoom.hidden && this.from) this.restore(); })
        .observe(zoom, { attributes: true, attributeFilter: ["hidden"] });
    }
  },
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => CardZoomKeys.wire());
else CardZoomKeys.wire();
