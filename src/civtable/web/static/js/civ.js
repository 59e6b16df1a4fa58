// The Civilization: A New Dawn table: the hex map drawn from the tile data (terrain, difficulty,
// resources, natural wonders, city-states, barbarians, control tokens, cities and caravans), every
// player's focus row with trade tokens, tech dial and holdings, the event dial and wonder market,
// and the decision in progress (map targets highlighted, other choices as buttons). Everything
// drawn comes from the payload (the seat's view) and the catalogue; clicks send ids of view.legal.

import { h } from "./api.js";
import { logPanel, scoresSection, seatName, statusBadge } from "./generic.js";
import { hexMap } from "./hexmap.js";

const COLOUR = { red: "#c0392b", blue: "#2471a3", green: "#1e8449", yellow: "#d4ac0d", purple: "#7d3c98", white: "#ecf0f1" };
const TERRAIN_FILL = {
  grassland: "#9cc35c",
  hills: "#c9ad70",
  forest: "#3f7d3a",
  desert: "#e8d391",
  mountains: "#8e8e8e",
  water: "#63a2da",
  natural_wonder: "#b9a3dc",
};
const TYPE_FILL = { culture: "#8e44ad", science: "#2e86c1", economy: "#d4ac0d", industry: "#a04000", military: "#c0392b" };
const RES_SHORT = { marble: "Mb", mercury: "Hg", oil: "Oil", diamond: "Dia" };

function legalList(v) {
  // {id, label} entries; older views list ids and labels separately
  const legal = v.legal || [];
  if (legal.length && typeof legal[0] === "number") return legal.map((id, i) => ({ id, label: (v.labels || [])[i] || `action ${id}` }));
  return legal;
}

export class CivTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/civilization-a-new-dawn/catalog
   * @param {{onAction?: (id:number, label:string)=>void, readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.busy = false;
  }

  colourOf(v, seat) {
    const ps = v.player_state && v.player_state[seat];
    return COLOUR[ps && ps.colour] || "#444";
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
    const legal = mine && !this.opts.readOnly ? legalList(v) : [];
    this.root.append(this.topbar(p, v, legal));
    if (v.result) this.root.append(scoresSection(p, v.result, this.opts.footer));
    const targets = new Map();
    for (const a of legal) if (a.id >= this.A.SPACE && !targets.has(a.id - this.A.SPACE)) targets.set(a.id - this.A.SPACE, a);
    const mapPanel = h("section.civ-map.panel", { "aria-label": "the map" }, this.map(v, targets));
    const side = h("section.civ-side", null, this.market(v), v.player_state.map((ps) => this.playerPanel(p, v, ps, legal)));
    this.root.append(h("div.civ-main", null, mapPanel, side));
    if (legal.length && !v.result) this.root.append(this.decision(v, legal, targets));
    this.root.append(logPanel(v.log));
  }

  topbar(p, v, legal) {
    const status = statusBadge(p, v, this.opts.readOnly, legal.length > 0);
    return h(
      "header.topbar",
      null,
      h("span.age", null, `Turn ${v.first_player_turn ?? ""}`),
      h("span.status", { "data-testid": "status" }, status),
      h("span.phase", { title: "the event dial" }, `event dial: ${String(v.event || "—").replace(/_/g, " ")}`),
      h("span.discard", { title: "barbarian direction token, clockwise from east" }, ` barbarians move ${(v.barbarian_token || []).join(" ")}`),
      h("span.discard", null, ` · first player: ${seatName(p, v.first_player)}`),
    );
  }

  map(v, targets) {
    const b = v.board;
    const caravansAt = new Map();
    for (const [owner, , pos] of b.caravans || []) {
      if (!caravansAt.has(pos)) caravansAt.set(pos, []);
      caravansAt.get(pos).push(owner);
    }
    const barbAt = new Map(Object.entries(b.barbarians || {}).map(([letter, pos]) => [pos, letter]));
    const cells = v.map.spaces.map((sp) => {
      const i = sp.i;
      const marks = [];
      const city = b.city[i];
      if (city >= 0) marks.push({ color: this.colourOf(v, city), shape: "square", text: v.player_state[city].capital === i ? "★" : "C", title: `${v.player_state[city].capital === i ? "capital" : "city"} of ${seatName(this.p, city)}` });
      const tok = b.control[i];
      if (tok >= 0) marks.push({ color: this.colourOf(v, tok), text: b.reinforced[i] ? "2" : "", title: `control token of ${seatName(this.p, tok)}${b.reinforced[i] ? " (reinforced)" : ""}` });
      const cs = (b.city_states || {})[i] || sp.city_state;
      if (cs) marks.push({ color: "#7d3c98", shape: "square", text: "CS", title: `city-state: ${(this.catalog.city_states[cs] || {}).name || cs}` });
      if (barbAt.has(i)) marks.push({ color: "#111", text: "B", title: `barbarian ${barbAt.get(i)}` });
      const res = (b.resources || {})[i];
      if (res) marks.push({ color: "#f5f5f5", ink: "#222", text: RES_SHORT[res] || res, title: `resource: ${res}` });
      const nw = (b.natural_wonders || {})[i];
      if (nw) marks.push({ color: "#5b2c6f", text: "NW", title: `natural wonder: ${(this.catalog.natural_wonders[nw] || {}).name || nw}` });
      const wt = (b.wonder_tokens || {})[i];
      if (wt) marks.push({ color: "#b7950b", shape: "square", text: "W", title: `wonder: ${(this.catalog.wonders[wt] || {}).name || wt}` });
      for (const owner of caravansAt.get(i) || []) marks.push({ color: this.colourOf(v, owner), text: "$", title: `caravan of ${seatName(this.p, owner)}` });
      const target = targets.get(i);
      return {
        q: sp.q,
        r: sp.r,
        fill: TERRAIN_FILL[sp.terrain] || "#ccc",
        label: sp.terrain === "water" ? "" : String(sp.difficulty),
        title: `${sp.terrain.replace("_", " ")} (difficulty ${sp.difficulty})${sp.spawn ? `, barbarian spawn ${sp.spawn}` : ""}`,
        cls: `${sp.terrain}${target ? " target" : ""}`,
        data: { space: i, testid: target ? "target" : null, action: target ? target.id : null },
        marks,
        onclick: target ? () => this.act(target) : null,
      };
    });
    return hexMap(cells, { size: 22, ariaLabel: "the map: terrain, tokens, cities, barbarians" });
  }

  market(v) {
    const decks = Object.entries(v.wonder_decks || {}).map(([type, d]) => {
      const w = d.face_up ? this.catalog.wonders[d.face_up] : null;
      return h(
        "div.civ-wonder",
        { style: `border-color:${TYPE_FILL[type] || "#777"}`, title: w ? `${w.name} (${w.era}): ${w.text}` : "" },
        h("b", null, type),
        ": ",
        w ? `${w.name} — cost ${w.cost}${w.resources.length ? ` or ${w.resources.join("+")}` : ""}` : "none left",
        ` (${d.size})`,
      );
    });
    const victory = (v.victory_cards || []).map((id) => {
      const agendas = this.catalog.victory_cards[id] || [];
      // each player's progress: who has already marked this card (CIV-22)
      const marked = v.player_state.filter((ps) => (ps.marks || []).includes(id));
      return h(
        "li",
        { title: agendas.map((a) => `${a.name}: ${a.text}`).join(" / "), "data-testid": "victory-card" },
        agendas.map((a) => a.name).join(" / ") || id,
        " ",
        marked.length
          ? marked.map((ps) => h("span.mark-dot", { style: `background:${COLOUR[ps.colour] || "#444"}`, title: `marked by ${seatName(this.p, ps.seat)}` }))
          : h("span.none", null, "— not marked yet"),
      );
    });
    return h(
      "article.civ-market.panel",
      null,
      h("h3", null, "World wonders"),
      decks,
      h("h3", null, "Victory cards"),
      h("ul.victory", null, victory),
      h("p.supply", null, "Resource supply: ", Object.entries(v.resource_supply || {}).map(([r, n]) => `${n} ${r}`).join(", ")),
    );
  }

  playerPanel(p, v, ps, legal) {
    const you = ps.seat === v.seat;
    const leader = this.catalog.leaders[ps.leader] || {};
    const slotActs = new Map();
    for (const a of legal) if (a.id >= this.A.SLOT && a.id < this.A.RES) slotActs.set(a.id - this.A.SLOT, a);
    const row = ps.row.map((id, k) => {
      const c = this.catalog.focus_cards[id] || { name: id, type: "", level: "", text: "" };
      const act = you ? slotActs.get(k) : null;
      // what the card would do now: its effect, resolved at its slot's strength (CIV-6)
      const strength = `strength ${k + 1}${ps.trade[k] ? ` (+${ps.trade[k]} with trade tokens)` : ""}`;
      const body = [
        h("span.slot", null, `slot ${k + 1}`),
        h("span.fname", null, c.name, " ", h("span.lvl", null, c.level)),
        ps.trade[k] ? h("span.trade", { title: "trade tokens on this card" }, `${ps.trade[k]} trade`) : null,
        h("span.now", { "data-testid": "focus-now" }, strength),
        you ? h("span.ftext", { title: c.text || "" }, (c.slots && c.slots[String(k + 1)]) || c.text) : null,
      ];
      return act
        ? h("button.civ-focus.act", { type: "button", style: `border-color:${TYPE_FILL[c.type]}`, title: `${c.text}\n${act.label}`, "data-action": act.id, "data-testid": "focus-slot", disabled: this.busy, onclick: () => this.act(act) }, body)
        : h("div.civ-focus", { style: `border-color:${TYPE_FILL[c.type]}`, title: c.text }, body);
    });
    const list = (label, items) => (items && items.length ? h("div.hold", null, h("span.k", null, label), items.join(", ")) : null);
    return h(
      `article.civ-player.panel${you ? ".you" : ""}${v.current === ps.seat ? ".current" : ""}`,
      { "data-seat": ps.seat, style: `border-left-color:${COLOUR[ps.colour] || "#444"}` },
      h("header", null, h("span.swatch", { style: `background:${COLOUR[ps.colour] || "#444"}` }), h("b", null, seatName(p, ps.seat)), you ? " (you)" : null, h("span.leader", { title: leader.text || "" }, ` · ${leader.leader || ps.leader} of ${leader.civilization || ""} — ${leader.ability || ""}`)),
      h("div.civ-row", { "aria-label": "focus row" }, row),
      h(
        "div.stats",
        null,
        h("span", { title: "tech dial" }, h("b", null, ps.dial), " tech"),
        h("span", { title: "control tokens in supply" }, h("b", null, ps.control_tokens), " tokens"),
        h("span", { title: "cities left to build" }, h("b", null, ps.cities_left), " cities left"),
        Object.entries(ps.resources).map(([r, n]) => (n ? h("span", null, h("b", null, n), ` ${r}`) : null)),
      ),
      list("wonders", (ps.wonders || []).map((w) => (this.catalog.wonders[w] || {}).name || w)),
      list("natural wonders", (ps.natural_wonders || []).map((w) => (this.catalog.natural_wonders[w] || {}).name || w)),
      list("city-states", (ps.city_state_cards || []).map((c) => (this.catalog.city_states[c] || {}).name || c)),
      list("diplomacy", (ps.player_cards || []).map(([g, k]) => `${(this.catalog.diplomacy[k] || {}).name || k} (${seatName(p, g)})`)),
      list("victory", ps.marks),
      list("mature cities", (ps.mature_cities || []).map(String)),
    );
  }

  decision(v, legal, targets) {
    const rest = legal.filter((a) => {
      if (a.id >= this.A.SPACE && targets.get(a.id - this.A.SPACE) === a) return false;
      if (a.id >= this.A.SLOT && a.id < this.A.RES) return false; // on the focus row
      return true;
    });
    const slots = legal.filter((a) => a.id >= this.A.SLOT && a.id < this.A.RES);
    const pending = v.pending ? v.pending.kind : "your turn";
    return h(
      "section.decision.civ-decision",
      { "aria-label": "your decision" },
      h("h3", null, pending.charAt(0).toUpperCase() + pending.slice(1)),
      slots.length ? h("p.hint", null, "Choose a focus card in your row") : null,
      targets.size ? h("p.hint", null, `${targets.size} space${targets.size > 1 ? "s" : ""} highlighted on the map`) : null,
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
