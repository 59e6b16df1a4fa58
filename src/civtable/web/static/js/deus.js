// The Deus table: the hex board with regions, pieces in player colours, villages and temples;
// every player's board (columns of cards, pieces, resources, gold, VP when visible); your hand
// with construct / offer buttons; legal placements highlighted on the map; the log and the final
// breakdown. Everything drawn comes from the payload (the seat's view) and the card catalogue;
// clicks send ids from view.legal.

import { h } from "./api.js";
import { logPanel, scoresSection, seatName, statusBadge } from "./generic.js";
import { hexMap } from "./hexmap.js";

export const SEAT_COLORS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];
const TERRAIN_FILL = {
  field: "#e8d66f",
  forest: "#4a8a43",
  swamp: "#8a8452",
  mountain: "#a3a3a3",
  sea: "#6aa5dc",
  village: "#b5653f",
};
const COLOR_FILL = {
  brown: "#8b5a2b",
  yellow: "#d4ac0d",
  blue: "#2e86c1",
  red: "#c0392b",
  green: "#229954",
  purple: "#7d3c98",
};
const PIECE_LETTER = { civ: "C", sci: "Sc", ship: "Sh", army: "A", prod: "P", temple: "T" };
const PIECE_NAME = { civ: "civil", sci: "scientific", ship: "ship", army: "army", prod: "production", temple: "temple" };

export class DeusTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/deus/catalog
   * @param {{onAction?: (id:number, label:string)=>void, readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.byIndex = [];
    for (const c of Object.values(catalog.cards)) this.byIndex[c.index] = c;
    this.busy = false;
  }

  kind(a) {
    const order = Object.entries(this.A)
      .filter(([k]) => k !== "SPACE")
      .sort((x, y) => x[1] - y[1]);
    let found = null;
    for (const [k, lo] of order) if (a >= lo) found = [k, a - lo];
    return found;
  }

  act(a) {
    if (this.opts.readOnly || this.busy || !this.opts.onAction) return;
    this.opts.onAction(a.id, a.label);
  }

  render(p) {
    this.p = p;
    const v = p.view;
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const legal = mine && !this.opts.readOnly ? v.legal || [] : [];
    this.root.append(this.topbar(p, v));
    if (v.result) this.root.append(scoresSection(p, v.result, this.opts.footer));
    const targets = new Map();
    for (const a of legal) {
      const k = this.kind(a.id);
      if (k && (k[0] === "REGION" || k[0] === "EDGE") && !targets.has(k[1])) targets.set(k[1], a);
    }
    const board = h("section.deus-map.panel", { "aria-label": "the continent" }, this.map(v, targets));
    const side = h("section.deus-players", { "aria-label": "players" }, v.player_states.map((ps) => this.playerBoard(p, v, ps)));
    this.root.append(h("div.deus-main", null, board, side));
    if (legal.length && !v.result) this.root.append(this.decision(v, legal, targets));
    if (mine && v.hand) this.root.append(this.hand(v, legal));
    this.root.append(logPanel(v.log));
  }

  topbar(p, v) {
    const status = statusBadge(p, v, this.opts.readOnly, (v.legal || []).length > 0);
    const top = v.discard_top ? this.catalog.cards[v.discard_top] : null;
    return h(
      "header.topbar",
      null,
      h("span.age", { "data-testid": "round" }, `Round ${v.round}`),
      v.final_round !== null && v.final_round !== undefined ? h("span.phase", null, `the game ends after round ${v.final_round}`) : null,
      h("span.status", { "data-testid": "status" }, status),
      h("span.discard", null, `deck ${v.deck_size} · discard ${v.discard_size}`),
      top ? h("span.discard", { title: top.text }, " · top: ", h("b", { style: `color:${COLOR_FILL[top.color]}` }, top.name)) : null,
      h("span.discard", null, ` · temples left ${v.temples_left}`),
      h("span.discard", null, " · supply: ", Object.entries(v.supply).map(([r, n]) => `${n} ${r}`).join(", ")),
    );
  }

  map(v, targets) {
    const villages = new Map(v.villages.map((x) => [x.id, x]));
    const cells = v.regions.map((reg, i) => {
      const marks = [];
      const village = villages.get(reg.id);
      if (village) {
        marks.push({ color: village.attacked ? "#555" : "#f4d03f", ink: village.attacked ? null : "#222", text: village.attacked ? "✕" : village.vp, title: village.attacked ? "attacked village" : `barbarian village: ${village.vp} VP` });
      }
      for (const piece of reg.pieces) {
        marks.push({
          color: piece === "temple" ? "#ecf0f1" : SEAT_COLORS[reg.owner] || "#333",
          ink: piece === "temple" ? "#222" : null,
          shape: piece === "temple" ? "square" : "circle",
          text: PIECE_LETTER[piece] || "?",
          cls: piece === "temple" ? "temple" : "",
          title: `${PIECE_NAME[piece] || piece}${reg.owner !== null ? ` of ${seatName(this.p, reg.owner)}` : ""}`,
        });
      }
      const target = targets.get(i);
      return {
        q: reg.q,
        r: reg.r,
        fill: TERRAIN_FILL[reg.terrain] || "#ccc",
        label: reg.id,
        title: `${reg.id}: ${reg.terrain}${reg.edge ? " (edge)" : ""}`,
        cls: `${reg.terrain}${target ? " target" : ""}`,
        data: { region: reg.id, testid: target ? "target" : null, action: target ? target.id : null },
        marks,
        onclick: target ? () => this.act(target) : null,
      };
    });
    return hexMap(cells, { size: 28, ariaLabel: "the continent: regions, pieces and villages" });
  }

  cardChip(id, extra = null) {
    if (id === "blind") return h("span.deus-card.blind", { title: "a card built face down" }, "?");
    const own = id.endsWith("*");
    const c = this.catalog.cards[own ? id.slice(0, -1) : id];
    if (!c) return h("span.deus-card", null, id);
    return h(
      `span.deus-card.c-${c.color}`,
      { title: `${c.name}: ${c.text}${own ? " (built face down)" : ""}`, "data-card": c.id },
      c.name,
      own ? " *" : null,
      extra,
    );
  }

  playerBoard(p, v, ps) {
    const you = ps.seat === v.seat;
    const cols = this.catalog.colors.map((color) =>
      h(
        `div.deus-col.c-${color}`,
        { "data-color": color },
        h("span.col-head", { style: `background:${COLOR_FILL[color]}` }, color === "purple" ? "temples" : color),
        (ps.columns[color] || []).map((id) => this.cardChip(id)),
      ),
    );
    const pieces = Object.entries(ps.board_pieces).map(([k, n]) =>
      h("span.piece", { title: `${PIECE_NAME[k]}: ${n} on the board, ${ps.personal_supply[k]} in the personal supply` }, `${PIECE_LETTER[k]} ${n}/${ps.personal_supply[k]}`),
    );
    return h(
      `article.deus-player${you ? ".you" : ""}${v.current === ps.seat ? ".current" : ""}`,
      { "data-seat": ps.seat, style: `border-color:${SEAT_COLORS[ps.seat]}` },
      h(
        "header",
        null,
        h("span.swatch", { style: `background:${SEAT_COLORS[ps.seat]}` }),
        h("b", null, seatName(p, ps.seat)),
        you ? " (you)" : null,
        v.first_player === ps.seat ? h("span.first", { title: "first player" }, " ①") : null,
      ),
      h(
        "div.stats",
        null,
        h("span.gold", { title: "gold" }, h("b", null, ps.gold), " gold"),
        h("span.vp", { title: "victory points (hidden from others)", "data-testid": you ? "my-vp" : null }, h("b", null, ps.vp === null ? "?" : ps.vp), " VP"),
        Object.entries(ps.resources).map(([r, n]) => h(`span.res.r-${r}`, { title: r }, h("b", null, n), ` ${r}`)),
        h("span", { title: "cards in hand" }, h("b", null, ps.hand_size), " cards"),
      ),
      h("div.pieces", { title: "pieces: on the player board / in the personal supply" }, pieces),
      h("div.deus-cols", null, cols),
    );
  }

  hand(v, legal) {
    const by = new Map();
    for (const a of legal) {
      const k = this.kind(a.id);
      if (!k || !["BUILD", "OFFER", "ADD", "BLIND"].includes(k[0])) continue;
      const card = this.byIndex[k[1]];
      if (!by.has(card.id)) by.set(card.id, {});
      by.get(card.id)[k[0]] = a;
    }
    const seen = new Set();
    const cards = v.hand.map((id) => {
      const c = this.catalog.cards[id];
      const acts = by.get(id) || {};
      const first = !seen.has(id);
      seen.add(id);
      const god = this.catalog.gods[c.color];
      const cost = Object.entries(c.cost).map(([r, n]) => `${n} ${r}`).join(", ") || "free";
      const button = (key, text, title) =>
        first && acts[key]
          ? h(`button.act.${key.toLowerCase()}`, { type: "button", "data-action": acts[key].id, "data-kind": key.toLowerCase(), title: title || acts[key].label, disabled: this.busy, onclick: () => this.act(acts[key]) }, text)
          : null;
      return h(
        `div.deus-hand-card.c-${c.color}`,
        { "data-testid": "hand-card", "data-card": id },
        h("div.name", { style: `border-color:${COLOR_FILL[c.color]}` }, c.name),
        h("div.cost", null, cost, c.cost_gold ? ` + ${c.cost_gold} gold` : ""),
        h("div.text", null, c.text),
        h(
          "div.acts",
          null,
          button("BUILD", "Construct"),
          button("OFFER", `Offer to ${god ? god.name : c.color}`, god ? `${god.name}: ${god.text}` : null),
          button("ADD", "Add to the offering"),
          button("BLIND", "Build face down"),
        ),
      );
    });
    return h("section.deus-hand", { "aria-label": "your hand" }, h("h3", null, `Your hand (${v.hand.length})`), cards);
  }

  decision(v, legal, targets) {
    const handKinds = new Set(["BUILD", "OFFER", "ADD", "BLIND"]);
    const mapKinds = new Set(["REGION", "EDGE"]);
    const rest = legal.filter((a) => {
      const k = this.kind(a.id);
      return !k || (!handKinds.has(k[0]) && !(mapKinds.has(k[0]) && targets.get(k[1]) === a));
    });
    const prompt = {
      main: "Construct a card or make an offering",
      offering: "Add cards to your offering, or finish it",
      pay: "How do you pay?",
      place: "Choose a region for the piece (highlighted on the map)",
      target: "Choose a region (highlighted on the map)",
      gain_choice: "Choose what you gain",
      sell: "How many do you sell?",
      buy: "Buy resources, or stop",
      laboratory: "Which card does the Laboratory activate?",
      pick_pieces: "Pick your starting pieces",
      blind_column: "Which column does the face-down card go to?",
    }[v.phase] || "Your decision";
    return h(
      "section.decision.deus-decision",
      { "aria-label": "your decision" },
      h("h3", null, prompt, v.offering ? ` — offering: ${v.offering.map((id) => this.catalog.cards[id].name).join(", ")}` : ""),
      targets.size ? h("p.hint", null, `${targets.size} region${targets.size > 1 ? "s" : ""} highlighted`) : null,
      rest.length
        ? h(
            "div.acts.generic-acts",
            null,
            rest.map((a) => h("button.act.generic", { type: "button", "data-action": a.id, disabled: this.busy, onclick: () => this.act(a) }, a.label)),
          )
        : null,
    );
  }
}
