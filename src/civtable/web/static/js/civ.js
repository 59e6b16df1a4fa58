// The Civilization: A New Dawn table: the hex map drawn from the tile data (terrain, difficulty,
// resources, natural wonders, city-states, barbarians, control tokens, cities and caravans) with a
// board reference and a legend, every player's focus row with trade tokens, tech dial and holdings,
// the event dial, the wonder market and the victory cards, and the decision in progress in the
// prompt bar (map targets highlighted, the other choices as buttons, previews of what each gives).
// Everything drawn comes from the payload (the seat's view and payload.words, the server's player
// words) and the catalogue; clicks send ids of view.legal. UI words come from the catalogue (t()).

import { h } from "./api.js";
import { hexCentre, hexMap } from "./hexmap.js";
import { joinList, t, tn } from "./i18n.js";
import { actionLabel, confirmMove, playerName, promptBar, showDetail } from "./ui.js";

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
const TERRAINS = ["grassland", "hills", "forest", "desert", "mountains", "water", "natural_wonder"];
const TYPE_FILL = { culture: "#8e44ad", science: "#2e86c1", economy: "#d4ac0d", industry: "#a04000", military: "#c0392b" };
const TYPES = ["culture", "science", "economy", "industry", "military"];
const RESOURCES = ["marble", "mercury", "oil", "diamond"];
// map symbols (explained by the legend; no words, so nothing to translate)
const RES_MARK = {
  marble: { text: "▲", color: "#f7f5ef", ink: "#7f7f7f" },
  mercury: { text: "☿", color: "#b9c0c7", ink: "#4a235a" },
  oil: { text: "▼", color: "#2e2418", ink: "#f0b030" },
  diamond: { text: "◆", color: "#d6f3fb", ink: "#1a7ea0" },
};
const NW_MARK = { text: "✿", color: "#5b2c6f" };
const WONDER_MARK = { text: "♜", color: "#b7950b" };
const HEX = 22; // hex circumradius in map units
const TIERS = [3, 6, 10, 14, 19, 24]; // tech-dial spaces that bring an upgrade (CIV-9.3)
const TIER_LEVEL = { 3: "II", 6: "II", 10: "III", 14: "III", 19: "IV", 24: "IV" };
// decisions (rules/kinds.py) whose "done" would waste the card: asked first
const D_MODE = 103;
const D_CARAVAN = 112;
const D_MAPORIENT = 144;
const D_MAPPOS = 145;

function legalList(v) {
  const legal = v.legal || [];
  if (legal.length && typeof legal[0] === "number") return legal.map((id) => ({ id, label: "" }));
  return legal;
}

export class CivTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/civilization-a-new-dawn/catalog
   * @param {{onAction?: (id:number, label:string)=>void, onCancel?: (steps?:number)=>void,
   *          readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.busy = false;
    this.zoom = false;
  }

  colourOf(v, seat) {
    const ps = v.player_state && v.player_state[seat];
    return COLOUR[ps && ps.colour] || "#444";
  }

  words() {
    return (this.p && this.p.words) || {};
  }

  name(seat) {
    return playerName(this.p, seat);
  }

  cardName(id) {
    return (this.catalog.focus_cards[id] || {}).name || "";
  }

  spaceName(i) {
    const w = this.words();
    return (w.spaces && w.spaces[i]) || "";
  }

  label(a) {
    return actionLabel(this.p, a);
  }

  async act(a) {
    if (this.opts.readOnly || this.busy || !this.opts.onAction) return;
    const top = this.top();
    // Ending a card without using it cannot be taken back: ask first.
    if (a.id === this.A.DONE && top && (top[0] === D_MODE || (top[0] === D_CARAVAN && !top[4]))) {
      const ok = await confirmMove(t("civ.ui.confirm_nothing"), { confirmLabel: this.label(a) });
      if (!ok) return;
    }
    this.opts.onAction(a.id, this.label(a));
  }

  top() {
    const st = this.p && this.p.view && this.p.view.stack;
    return st && st.length ? st[st.length - 1] : null;
  }

  render(p) {
    // Positions the viewer only watches (other players' steps, pushed one by one) are drawn at
    // most every 150 ms; a decision of the viewer, the end and a replay are drawn at once.
    const v = p.view;
    const urgent = !v || this.opts.readOnly || v.result || (v.legal || []).length || !this.drawn;
    if (!urgent) {
      this.p = p;
      if (!this.later) {
        this.later = setTimeout(() => {
          this.later = null;
          this.draw(this.p);
        }, 150);
      }
      return;
    }
    if (this.later) clearTimeout(this.later);
    this.later = null;
    this.draw(p);
  }

  draw(p) {
    this.p = p;
    this.drawn = true;
    const v = p.view;
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const legal = mine && !this.opts.readOnly ? legalList(v) : [];
    const targets = new Map();
    const nSpaces = v.map.spaces.length;
    for (const a of legal) if (a.id >= this.A.SPACE && a.id < this.A.SPACE + nSpaces) targets.set(a.id - this.A.SPACE, a);
    const wrap = h("div.civ-table");
    wrap.append(this.topbar(p, v, legal));
    wrap.append(this.prompt(p, v, legal, targets));
    if (v.result) wrap.append(this.scores(p, v));
    const mapPanel = h("section.civ-map.panel", { "aria-label": t("civ.ui.map") }, this.mapTools(), this.map(v, targets), this.legend(v), this.targetList(v, targets));
    const order = v.player_state.slice().sort((a, b) => (a.seat === v.seat ? -1 : b.seat === v.seat ? 1 : a.seat - b.seat));
    const side = h("section.civ-side", null, order.map((ps) => this.playerPanel(p, v, ps, legal)), this.market(v));
    wrap.append(h("div.civ-main", null, mapPanel, side));
    wrap.append(this.logPanel(p));
    this.root.append(wrap);
  }

  // --- top bar and prompt -------------------------------------------------------------------
  topbar(p, v, legal) {
    const w = this.words();
    const waiting = (v.to_move || []).filter((s) => s !== v.seat);
    let status;
    if (this.opts.readOnly) status = h("span.st.wait", null, v.result ? t("status.over") : t("status.replay"));
    else if (v.result) status = h("span.st.over", null, t("status.over"));
    else if (legal.length) status = h("span.st.yours", null, t("status.your_move"));
    else if (waiting.length) status = h("span.st.wait", null, t("status.waiting", { players: waiting.map((s) => this.name(s)).join(", ") }));
    else status = h("span.st", null, t("status.spectating"));
    const dirs = (v.barbarian_token || []).map((d, i) => `${i + 1}: ${t(`civ.direction.${d}`)}`).join(", ");
    return h(
      "header.topbar.civ-top",
      null,
      h("span.age", null, t("civ.ui.round", { n: v.first_player_turn || 1 })),
      h("span.status", { "data-testid": "status" }, status),
      h("button.phase.civ-event", { type: "button", title: t("civ.ui.event_title"), "data-testid": "event", onclick: () => this.showEvents(v, dirs) }, t("civ.ui.event", { event: w.event || "" })),
      h("span.discard.civ-die", { title: t("civ.ui.barbarian_die_title") }, t("civ.ui.barbarian_die", { dirs })),
      h("span.discard", null, t("civ.ui.first_player", { player: this.name(v.first_player) })),
      h("a.civ-rules-link", { href: "/rules/civilization-a-new-dawn", target: "_blank", rel: "noopener" }, t("ui.rules")),
    );
  }

  showEvents(v, dirs) {
    const w = this.words();
    showDetail(
      t("civ.ui.event_heading"),
      h("p", null, t("civ.ui.event", { event: w.event || "" })),
      h("p", null, t("civ.ui.event_title")),
      h("ol.civ-dial", null, (w.dial || []).map((e, i) => h(`li${i === v.event_section ? ".now" : ""}`, null, e))),
      h("p", null, t("civ.ui.barbarian_die_title")),
      h("p", null, t("civ.ui.barbarian_die", { dirs })),
    );
  }

  prompt(p, v, legal, targets) {
    const w = this.words();
    if (this.opts.readOnly) return h("div.civ-prompt-spacer");
    let text = w.prompt || "";
    let hint = w.hint || "";
    const actions = [];
    if (legal.length && !v.result) {
      const slotActs = legal.filter((a) => a.id >= this.A.SLOT && a.id < this.A.RES);
      const mapIds = new Set([...targets.values()].map((a) => a.id));
      const previews = w.previews || {};
      for (const a of legal) {
        if (mapIds.has(a.id) && targets.size > 6) continue; // many targets: on the map and in the list
        const pv = previews[String(a.id)];
        actions.push({
          id: a.id,
          label: this.label(a),
          title: pv || null,
          primary: slotActs.includes(a),
          onclick: () => this.act(a),
          testid: slotActs.includes(a) ? "prompt-slot" : null,
        });
      }
      if (targets.size) hint = `${hint} ${tn("civ.ui.targets", targets.size)}`.trim();
      for (const u of w.unavailable || []) hint = `${hint} ${t("civ.ui.unavailable", { option: u.label, reason: u.reason })}`.trim();
    } else if (!text) {
      text = v.result ? t("prompt.over") : "";
    }
    const bar = promptBar(p, {
      text,
      hint,
      actions,
      busy: this.busy,
      tone: legal.length ? "yours" : "",
      onBack: this.opts.onCancel ? (n) => this.opts.onCancel(n) : null,
      onCancel: this.opts.onCancel ? () => this.opts.onCancel() : null,
    });
    bar.classList.add("civ-prompt");
    const top = this.top();
    if (top && top[0] === 101) bar.classList.add("civ-choose"); // the row shows these texts too
    // a preview under each choice that has one (what it gives now)
    const previews = w.previews || {};
    for (const btn of bar.querySelectorAll("button.prompt-act[data-action]")) {
      const pv = previews[btn.dataset.action];
      if (pv) btn.append(h("small.civ-preview", null, pv));
    }
    return bar;
  }

  // --- the map --------------------------------------------------------------------------------
  mapTools() {
    return h(
      "div.civ-map-tools",
      null,
      h("button.small", { type: "button", "aria-pressed": this.zoom ? "true" : "false", "data-testid": "map-zoom", onclick: () => { this.zoom = !this.zoom; this.render(this.p); } }, this.zoom ? t("civ.ui.zoom_out") : t("civ.ui.zoom_in")),
      h("span.civ-map-help", null, t("civ.ui.map_help")),
    );
  }

  spaceTitle(v, i) {
    const sp = v.map.spaces[i];
    const parts = [this.spaceName(i), t("civ.ui.difficulty", { terrain: t(`civ.terrain.${sp.terrain}`), d: sp.difficulty })];
    for (const c of this.contents(v, i)) parts.push(c);
    return parts.join(" · ");
  }

  contents(v, i) {
    const b = v.board;
    const out = [];
    const city = b.city[i];
    if (city >= 0) out.push(t(v.player_state[city].capital === i ? "civ.ui.capital_of" : "civ.ui.city_of", { player: this.name(city) }));
    const tok = b.control[i];
    if (tok >= 0) out.push(t(b.reinforced[i] ? "civ.ui.token_reinforced_of" : "civ.ui.token_of", { player: this.name(tok) }));
    const cs = (b.city_states || {})[i];
    if (cs) out.push(t("civ.ui.city_state", { name: (this.catalog.city_states[cs] || {}).name || "" }));
    else if (v.map.spaces[i].city_state) {
      const owner = (v.city_state_owner || {})[v.map.spaces[i].city_state];
      if (owner !== undefined) out.push(t("civ.ui.conquered_by", { name: (this.catalog.city_states[v.map.spaces[i].city_state] || {}).name || "", player: this.name(owner) }));
    }
    for (const [letter, pos] of Object.entries(b.barbarians || {})) if (pos === i) out.push(t("civ.barbarian", { letter }));
    const res = (b.resources || {})[i];
    if (res) out.push(t("civ.ui.resource_here", { resource: t(`civ.resource.${res}`) }));
    const nw = (b.natural_wonders || {})[i];
    if (nw) out.push(t("civ.ui.nw_here", { name: (this.catalog.natural_wonders[nw] || {}).name || "", resource: t(`civ.resource.${(this.catalog.natural_wonders[nw] || {}).resource}`) }));
    const wt = (b.wonder_tokens || {})[i];
    if (wt) out.push(t("civ.ui.wonder_here", { name: (this.catalog.wonders[wt] || {}).name || "" }));
    for (const [owner, , pos] of b.caravans || []) if (pos === i) out.push(t("civ.ui.caravan_of", { player: this.name(owner) }));
    const spawn = v.map.spaces[i].spawn;
    if (spawn) out.push(t("civ.ui.spawn", { letter: spawn }));
    return out;
  }

  map(v, targets) {
    const b = v.board;
    const w = this.words();
    const previews = w.previews || {};
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
      if (city >= 0) marks.push({ color: this.colourOf(v, city), shape: "square", text: v.player_state[city].capital === i ? "★" : "", cls: "city" });
      const tok = b.control[i];
      if (tok >= 0) marks.push({ color: this.colourOf(v, tok), text: "", cls: b.reinforced[i] ? "token reinforced" : "token" });
      const cs = (b.city_states || {})[i];
      if (cs) marks.push({ color: "#7d3c98", shape: "square", text: ((this.catalog.city_states[cs] || {}).name || "").slice(0, 2), cls: "cstate" });
      if (barbAt.has(i)) marks.push({ color: "#111", text: barbAt.get(i), cls: "barbarian" });
      else if (sp.spawn && city < 0 && tok < 0) marks.push({ color: "#d5d0c4", ink: "#555", text: sp.spawn, cls: "spawn" });
      const res = (b.resources || {})[i];
      if (res) marks.push({ ...RES_MARK[res], cls: "resource" });
      const nw = (b.natural_wonders || {})[i];
      if (nw) marks.push({ ...NW_MARK, cls: "nw" });
      const wt = (b.wonder_tokens || {})[i];
      if (wt) marks.push({ ...WONDER_MARK, shape: "square", cls: "wonder" });
      for (const owner of caravansAt.get(i) || []) marks.push({ color: this.colourOf(v, owner), text: "⇄", cls: "caravan" });
      const target = targets.get(i);
      const pv = target ? previews[String(target.id)] : "";
      return {
        q: sp.q,
        r: sp.r,
        fill: TERRAIN_FILL[sp.terrain] || "#ccc",
        label: sp.terrain === "water" ? "" : String(sp.difficulty),
        title: [target ? this.label(target) : "", pv, this.spaceTitle(v, i)].filter(Boolean).join("\n"),
        cls: `${sp.terrain}${target ? " target" : ""}`,
        data: { space: i, testid: target ? "target" : null, action: target ? target.id : null },
        marks,
        onclick: target ? () => this.act(target) : null,
      };
    });
    const svg = hexMap(cells, { size: HEX, ariaLabel: t("civ.ui.map"), markScale: 1.45 });
    this.rowLabels(svg, v);
    this.ghosts(svg, v);
    svg.addEventListener("click", (ev) => {
      const g = ev.target.closest && ev.target.closest("g.cell");
      if (!g || g.classList.contains("target")) return;
      this.showSpace(v, Number(g.dataset.space));
    });
    return h(`div.civ-map-scroll${this.zoom ? ".zoomed" : ""}`, null, svg);
  }

  /** The board reference: each row's letter left of its first space (the words name spaces
   *  "hills C4": row C, 4th space from the row's left end). */
  rowLabels(svg, v) {
    const rows = this.words().rows || [];
    if (!rows.length) return;
    const NS = "http://www.w3.org/2000/svg";
    const [x0, y0, w0, h0] = svg.getAttribute("viewBox").split(" ").map(Number);
    const pad = HEX * 1.1;
    svg.setAttribute("viewBox", `${x0 - pad} ${y0} ${w0 + pad} ${h0}`);
    for (const [r, letter] of rows) {
      const cells = v.map.spaces.filter((s) => s.r === r);
      if (!cells.length) continue;
      const first = cells.reduce((a, b) => (a.q < b.q ? a : b));
      const [x, y] = hexCentre(first.q, first.r, HEX);
      const text = document.createElementNS(NS, "text");
      text.setAttribute("x", String(x - HEX * 1.25));
      text.setAttribute("y", String(y + 4));
      text.setAttribute("class", "civ-row-label");
      text.setAttribute("text-anchor", "middle");
      text.textContent = letter;
      svg.append(text);
    }
  }

  /** Standard set-up: the cells of the position (or, for a side and turn, of its first position)
   *  under the pointer or the focus in the prompt bar; the first one to begin with. */
  ghosts(svg, v) {
    const top = this.top();
    const facts = v.facts || {};
    let pos = null;
    let base = 0;
    if (top && top[0] === D_MAPPOS && facts.positions) {
      pos = facts.positions;
      base = this.A.MAPPOS;
    } else if (top && top[0] === D_MAPORIENT && facts.orientations) {
      pos = {};
      for (const [id, cells] of Object.entries(facts.orientations)) pos[Number(id) - this.A.CARD] = { cells, water: [] };
      base = this.A.CARD;
    }
    if (!pos) return;
    const NS = "http://www.w3.org/2000/svg";
    const layer = document.createElementNS(NS, "g");
    layer.setAttribute("class", "civ-ghosts");
    svg.append(layer);
    this.showGhost = (k) => {
      layer.replaceChildren();
      const one = pos[k];
      if (!one) return;
      for (const [q, r] of [...one.cells, ...one.water]) {
        const [x, y] = hexCentre(q, r, HEX);
        const c = document.createElementNS(NS, "circle");
        c.setAttribute("cx", String(x));
        c.setAttribute("cy", String(y));
        c.setAttribute("r", String(HEX * 0.7));
        c.setAttribute("class", "civ-ghost");
        layer.append(c);
      }
      const [gx0, gy0, gw, gh] = svg.getAttribute("viewBox").split(" ").map(Number);
      const xs = one.cells.map(([q, r]) => hexCentre(q, r, HEX));
      const minX = Math.min(gx0, ...xs.map((p) => p[0] - HEX));
      const minY = Math.min(gy0, ...xs.map((p) => p[1] - HEX));
      const maxX = Math.max(gx0 + gw, ...xs.map((p) => p[0] + HEX));
      const maxY = Math.max(gy0 + gh, ...xs.map((p) => p[1] + HEX));
      svg.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
    };
    queueMicrotask(() => {
      for (const btn of this.root.querySelectorAll(".civ-prompt button[data-action]")) {
        const k = Number(btn.dataset.action) - base;
        if (k < 0 || Number.isNaN(k) || !pos[k]) continue;
        btn.addEventListener("mouseenter", () => this.showGhost(k));
        btn.addEventListener("focus", () => this.showGhost(k));
      }
      this.showGhost(Math.min(...Object.keys(pos).map(Number)));
    });
  }

  legend(v) {
    const sw = (fill, text, cls = "") => h(`span.civ-sw${cls}`, { style: `background:${fill}` }, text);
    const item = (icon, words) => h("li", null, icon, " ", words);
    const you = v.seat !== null && v.seat !== undefined ? this.colourOf(v, v.seat) : "#c0392b";
    return h(
      "details.civ-legend",
      { open: true },
      h("summary", null, t("civ.ui.legend")),
      h(
        "ul.civ-terrains",
        null,
        TERRAINS.filter((x) => x !== "water").map((x) => item(sw(TERRAIN_FILL[x], ""), t("civ.ui.legend.terrain", { terrain: t(`civ.terrain.${x}`), d: x === "natural_wonder" ? 5 : TERRAINS.indexOf(x) + 1 }))),
        item(sw(TERRAIN_FILL.water, ""), t("civ.ui.legend.water")),
      ),
      h(
        "ul.civ-symbols",
        null,
        item(sw("#f3ead2", "3", ".num"), t("civ.ui.legend.number")),
        item(sw(you, "★", ".sq"), t("civ.ui.legend.capital")),
        item(sw(you, "", ".sq"), t("civ.ui.legend.city")),
        item(sw(you, ""), t("civ.ui.legend.token")),
        item(sw(you, "", ".ring"), t("civ.ui.legend.reinforced")),
        item(sw("#7d3c98", ((this.catalog.city_states.kumasi || {}).name || "").slice(0, 2), ".sq"), t("civ.ui.legend.city_state")),
        item(sw("#111", "B"), t("civ.ui.legend.barbarian")),
        item(sw("#d5d0c4", "B", ".ink"), t("civ.ui.legend.spawn")),
        RESOURCES.map((r) => item(h("span.civ-sw", { style: `background:${RES_MARK[r].color};color:${RES_MARK[r].ink}` }, RES_MARK[r].text), t("civ.ui.legend.resource", { resource: t(`civ.resource.${r}`) }))),
        item(sw(NW_MARK.color, NW_MARK.text), t("civ.ui.legend.nw")),
        item(sw(WONDER_MARK.color, WONDER_MARK.text, ".sq"), t("civ.ui.legend.wonder")),
        item(sw(you, "⇄"), t("civ.ui.legend.caravan")),
        item(sw("#fff", "", ".target"), t("civ.ui.legend.target")),
        item(h("b.civ-sw.letter", null, t("civ.ui.row_letters").charAt(2)), t("civ.ui.legend.rows")),
      ),
    );
  }

  targetList(v, targets) {
    if (!targets.size || targets.size <= 6) return null;
    const previews = this.words().previews || {};
    return h(
      "details.civ-targets",
      null,
      h("summary", null, tn("civ.ui.target_list", targets.size)),
      h(
        "div.civ-target-btns",
        null,
        [...targets.values()].map((a) =>
          h("button.civ-target", { type: "button", disabled: this.busy, title: previews[String(a.id)] || null, onclick: () => this.act(a) }, this.label(a), previews[String(a.id)] ? h("small.civ-preview", null, previews[String(a.id)]) : null),
        ),
      ),
    );
  }

  showSpace(v, i) {
    const sp = v.map.spaces[i];
    if (!sp) return;
    const body = [h("p.civ-line", null, t("civ.ui.difficulty", { terrain: t(`civ.terrain.${sp.terrain}`), d: sp.difficulty })), h("p", null, t(sp.terrain === "water" ? "civ.ui.rule.water" : "civ.ui.rule.difficulty", { d: sp.difficulty }))];
    for (const c of this.contents(v, i)) body.push(h("p.civ-line", null, c));
    const cs = sp.city_state && this.catalog.city_states[sp.city_state];
    if (cs) body.push(h("p.civ-card-text", null, t("civ.ui.cs_card", { text: cs.text })));
    showDetail(this.spaceName(i), ...body);
  }

  // --- wonders and victory cards -----------------------------------------------------------
  market(v) {
    const costs = (v.facts || {}).wonder_costs || {};
    const decks = Object.entries(v.wonder_decks || {}).map(([type, d]) => {
      const w = d.face_up ? this.catalog.wonders[d.face_up] : null;
      const cost = w && costs[d.face_up] !== undefined ? costs[d.face_up] : w ? w.cost : 0;
      return h(
        "button.civ-wonder",
        { type: "button", style: `border-color:${TYPE_FILL[type] || "#777"}`, title: w ? w.text : "", onclick: () => w && this.showWonder(d.face_up) },
        h("b", null, t(`civ.type.${type}`)),
        " · ",
        w ? h("span.wname", null, w.name) : t("civ.ui.none_left"),
        w ? h("span.wcost", null, t("civ.ui.wonder_cost", { cost, resources: joinList(w.resources.map((r) => t(`civ.resource.${r}`)), "disjunction") })) : null,
        h("span.wleft", null, tn("civ.ui.in_deck", d.size)),
      );
    });
    const victory = (v.victory_cards || []).map((id) => {
      const agendas = this.catalog.victory_cards[id] || [];
      const marked = v.player_state.filter((ps) => (ps.marks || []).includes(id));
      return h(
        "li",
        { "data-testid": "victory-card" },
        agendas.map((a, i) => [i ? h("span.or", null, t("civ.ui.or")) : null, h("b", null, a.name), ": ", a.text]),
        h(
          "div.marks",
          null,
          marked.length
            ? [t("civ.ui.marked_by"), " ", marked.map((ps) => h("span.mark-dot", { style: `background:${COLOUR[ps.colour] || "#444"}`, title: this.name(ps.seat), "aria-label": this.name(ps.seat) })), " ", marked.map((ps) => this.name(ps.seat)).join(", ")]
            : h("span.none", null, t("civ.ui.not_marked")),
        ),
      );
    });
    return h(
      "article.civ-market.panel",
      null,
      h("h3", null, t("civ.ui.wonders_heading")),
      h("div.civ-wonders", null, decks),
      h("h3", null, t("civ.ui.victory_heading")),
      h("p.civ-note", null, t("civ.ui.victory_help")),
      h("ul.victory", null, victory),
      h("p.supply", null, t("civ.ui.supply", { list: Object.entries(v.resource_supply || {}).map(([r, n]) => t("civ.ui.count_of", { n, what: t(`civ.resource.${r}`) })).join(", ") })),
    );
  }

  showWonder(id) {
    const w = this.catalog.wonders[id];
    if (!w) return;
    const costs = ((this.p.view || {}).facts || {}).wonder_costs || {};
    showDetail(
      w.name,
      h("p.civ-line", null, t("civ.ui.wonder_kind", { type: t(`civ.type.${w.type}`), era: t(`civ.era.${w.era}`) })),
      h("p", null, t("civ.ui.wonder_price", { cost: w.cost, resources: joinList(w.resources.map((r) => t(`civ.resource.${r}`)), "disjunction") })),
      costs[id] !== undefined && costs[id] !== w.cost ? h("p", null, t("civ.ui.wonder_your_cost", { cost: costs[id] })) : null,
      h("p.civ-card-text", null, w.text),
      h("p.civ-note", null, t("civ.ui.rule.wonder")),
    );
  }

  // --- players ------------------------------------------------------------------------------
  playerPanel(p, v, ps, legal) {
    const you = ps.seat === v.seat;
    const leader = this.catalog.leaders[ps.leader] || {};
    const slotActs = new Map();
    if (you) for (const a of legal) if (a.id >= this.A.SLOT && a.id < this.A.RES) slotActs.set(a.id - this.A.SLOT, a);
    const w = this.words();
    const texts = (w.slots || [])[ps.seat] || [];
    const csOn = ps.city_state_tokens || {};
    const row = ps.row.map((id, k) => {
      const c = this.catalog.focus_cards[id] || { name: "", type: "", level: "", text: "", slots: {} };
      const place = (ps.places || []).indexOf(id);
      const trade = ps.trade[k] || 0;
      const tokens = (csOn[c.type] || []).map((cid) => (this.catalog.city_states[cid] || {}).name).filter(Boolean);
      const act = slotActs.get(k);
      const body = [
        h("span.slot", null, t("civ.ui.slot", { n: k + 1 })),
        h("span.fname", null, c.name, " ", h("span.lvl", { title: t("civ.ui.level_title") }, c.level)),
        h("span.ftype", null, t(`civ.type.${c.type}`)),
        trade ? h("span.trade", { title: t("civ.trade_effect." + c.type) }, tn("civ.n.trade", trade)) : null,
        tokens.length ? h("span.trade", null, t("civ.ui.cs_tokens", { names: tokens.join(", ") })) : null,
        h("span.ftext", { "data-testid": "focus-now" }, texts[k] || (c.slots && c.slots[String(k + 1)]) || ""),
      ];
      const info = h("button.civ-info", { type: "button", "aria-label": t("civ.ui.card_details", { card: c.name }), title: t("civ.ui.card_details", { card: c.name }), onclick: (ev) => { ev.stopPropagation(); this.showCard(id, k + 1, place >= 0 ? trade : 0); } }, "ⓘ");
      const style = `border-color:${TYPE_FILL[c.type]}`;
      return act
        ? h("div.civ-focus-wrap", null, h("button.civ-focus.act", { type: "button", style, title: c.text, "data-action": act.id, "data-testid": "focus-slot", disabled: this.busy, onclick: () => this.act(act) }, body), info)
        : h("div.civ-focus-wrap", null, h("div.civ-focus", { style, title: c.text }, body), info);
    });
    const list = (label, items) => (items && items.length ? h("div.hold", null, h("span.k", null, label), items.join(", ")) : null);
    const next = TIERS.find((x) => x > ps.dial);
    const res = RESOURCES.filter((r) => ps.resources[r]).map((r) => t("civ.ui.count_of", { n: ps.resources[r], what: t(`civ.resource.${r}`) }));
    const caravans = (ps.caravans || []).filter((c) => c !== -2).length;
    const onMap = (ps.caravans || []).filter((c) => c >= 0).length;
    const agendas = (ps.marks || []).map((id) => (this.catalog.victory_cards[id] || []).map((a) => a.name).join(" / "));
    return h(
      `article.civ-player.panel${you ? ".you" : ""}${v.current === ps.seat ? ".current" : ""}`,
      { "data-seat": ps.seat, style: `border-left-color:${COLOUR[ps.colour] || "#444"}` },
      h(
        "header",
        null,
        h("span.swatch", { style: `background:${COLOUR[ps.colour] || "#444"}` }),
        h("b", null, this.name(ps.seat)),
        you ? h("em", null, " ", t("civ.ui.you")) : null,
        h("button.civ-leader", { type: "button", title: leader.text || "", onclick: () => showDetail(t("civ.ui.leader_title", { leader: leader.leader, civ: leader.civilization }), h("p", null, h("b", null, leader.ability)), h("p.civ-card-text", null, leader.text)) }, t("civ.ui.leader", { leader: leader.leader || "", civ: leader.civilization || "", ability: leader.ability || "" })),
      ),
      h("div.civ-row", { "aria-label": t("civ.ui.focus_row") }, row),
      h(
        "div.stats",
        null,
        h("span", { title: t("civ.ui.dial_title") }, t("civ.ui.dial", { n: ps.dial }), next ? h("small", null, " ", t("civ.ui.next_tier", { n: next, level: TIER_LEVEL[next] })) : null),
        h("span", { title: t("civ.ui.tokens_title") }, tn("civ.ui.tokens", ps.control_tokens)),
        h("span", null, tn("civ.ui.cities_left", ps.cities_left)),
        h("span", null, t("civ.ui.caravans", { n: caravans, out: onMap })),
        h("span", null, tn("civ.ui.mature", (ps.mature_cities || []).length)),
        h("span", null, tn("civ.ui.friendly", ps.friendly_spaces || 0)),
      ),
      list(t("civ.ui.resources"), res),
      list(t("civ.ui.natural_wonders"), (ps.natural_wonders || []).map((x) => (this.catalog.natural_wonders[x] || {}).name)),
      list(t("civ.ui.world_wonders"), (ps.wonders || []).map((x) => (this.catalog.wonders[x] || {}).name)),
      list(t("civ.ui.cs_cards"), (ps.city_state_cards || []).map((x) => (this.catalog.city_states[x] || {}).name)),
      list(t("civ.ui.diplomacy"), (ps.player_cards || []).map(([g, k]) => t("civ.ui.card_from", { card: (this.catalog.diplomacy[k] || {}).name || "", player: this.name(g) }))),
      list(t("civ.ui.marks"), agendas),
    );
  }

  showCard(id, slot, trade) {
    const c = this.catalog.focus_cards[id];
    if (!c) return;
    const rows = [1, 2, 3, 4, 5].map((k) => h(`tr${k === slot ? ".now" : ""}`, null, h("th", null, t("civ.ui.slot", { n: k })), h("td", null, c.slots[String(k)] || "")));
    showDetail(
      c.name,
      h("p.civ-line", null, t("civ.ui.card_kind", { type: t(`civ.type.${c.type}`), level: c.level })),
      h("p.civ-note", null, c.text),
      trade ? h("p", null, tn("civ.n.trade", trade)) : null,
      h("table.civ-slots", null, h("tbody", null, rows)),
    );
  }

  // --- log and scores -----------------------------------------------------------------------
  logPanel(p) {
    const v = p.view || {};
    const lines = this.words().log || [];
    const n = (v.log || []).length;
    const from = this.fullLog ? 0 : Math.max(0, n - 120); // the latest events; the rest on demand
    const list = h(
      "ol.log",
      { "aria-label": t("ui.log") },
      from ? h("li.civ-earlier", null, h("button.small", { type: "button", onclick: () => { this.fullLog = true; this.draw(this.p); } }, tn("civ.ui.earlier", from))) : null,
      [...Array(n - from).keys()].map((i) => h("li", null, lines[from + i] || "")),
    );
    requestAnimationFrame(() => {
      list.scrollTop = list.scrollHeight;
    });
    return h("aside.logpanel.civ-log", null, h("h3", null, t("ui.log")), list);
  }

  scores(p, v) {
    const r = v.result;
    const seats = r.scores.map((_, s) => s);
    const winner = (s) => r.winners.includes(s);
    const ps = v.player_state;
    const head = r.winners.length ? t(r.winners.length > 1 ? "ui.winners" : "ui.winner", { players: joinList(r.winners.map((s) => this.name(s))) }) : t("civ.prompt.unfinished");
    const w = this.words().scores || {};
    return h(
      "section.final",
      { "aria-label": t("ui.scores") },
      h("h2", null, head),
      h(
        "table.scores",
        { "data-testid": "scores" },
        h("thead", null, h("tr", null, h("th", null, ""), seats.map((s) => h(`th${winner(s) ? ".winner" : ""}`, null, this.name(s))))),
        h(
          "tbody",
          null,
          h("tr.total", null, h("th", null, w.agendas || ""), seats.map((s) => h(`td${winner(s) ? ".winner" : ""}`, null, String(r.scores[s])))),
          h("tr", null, h("th", null, w.wonders || ""), seats.map((s) => h("td", null, String((ps[s].wonders || []).length)))),
          h("tr", null, h("th", null, w.spaces || ""), seats.map((s) => h("td", null, String(ps[s].friendly_spaces || 0)))),
          h("tr.place", null, h("th", null, t("ui.place")), seats.map((s) => h("td", null, String(r.ranking[s] + 1)))),
        ),
      ),
      this.opts.footer ? this.opts.footer() : null,
    );
  }
}
