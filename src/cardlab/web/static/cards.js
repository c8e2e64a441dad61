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

  isCard(v) {
    return v && typeof v === "object" && !Array.isArray(v) && "name" in v && ("id" in v || v.hidden);
  },

  isCardList(v) {
    return Array.isArray(v) && v.length > 0 && v.every((c) => this.isCard(c));
  },

  // A mark for CSS cards: the card's own symbol, else a letter of its kind.
  mark(card) {
    if (card.symbol) return card.symbol;
    const kind = card.kind || card.type || card.category || card.name || "?";
    return String(kind).slice(0, 2).toUpperCase();
  },

  colour(card) {
    const named = card.colour || card.color;
    if (named) return named;
    const key = String(card.kind || card.type || card.sector || card.name);
    let h = 0;
    for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return `hsl(${h} 55% 42%)`;
  },

  facts(card) {
    const skip = new Set(["id", "name", "number", "colour", "color", "symbol", "line_mark", "edges", "green", "red", "kind", "type"]);
    const out = [];
    for (const [k, v] of Object.entries(card)) {
      if (skip.has(k) || v === null || v === false || typeof v === "object") continue;
      out.push(v === true ? k.replace(/_/g, " ") : `${k.replace(/_/g, " ")} ${v}`);
    }
    if (card.green) out.push(`green ${card.green.join("/")}`);
    if (card.red) out.push(`red ${card.red.join("/")}`);
    return out;
  },

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
