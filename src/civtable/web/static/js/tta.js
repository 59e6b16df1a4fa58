// The Through the Ages table: the top bar (age, round, current player, phase, actions left), the
// card row with its 13 slots and take costs, your player board (yellow and blue banks, worker
// pool, happiness and discontent, ratings and rates, every card in play with its workers and the
// build / upgrade / destroy buttons on the cards they concern), your civil and military hands,
// every other player's tableau summary, the remaining decisions as labelled buttons, the log and
// the final breakdown. Everything drawn comes from the payload (the seat's view) and the card
// catalogue; clicks send ids from view.legal.

import { h } from "./api.js";
import { logPanel, scoresSection, seatName, statusBadge } from "./generic.js";

export const SEAT_COLORS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];
const AGE_INDEX = { A: 0, I: 1, II: 2, III: 3, IV: 4 };
const KIND_LABEL = {
  farm: "Farms",
  mine: "Mines",
  lab: "Labs",
  temple: "Temples",
  arena: "Arenas",
  library: "Libraries",
  theater: "Theaters",
  infantry: "Infantry",
  cavalry: "Cavalry",
  artillery: "Artillery",
  air_force: "Air forces",
};
const STAT_LABEL = {
  food: "food",
  resources: "res.",
  culture: "culture",
  science: "science",
  strength: "strength",
  happiness: "happy",
  civil_actions: "CA",
  military_actions: "MA",
  colonization: "colonization",
  blue_cubes: "blue cubes",
  yellow_cubes: "yellow cubes",
  civil_hand_limit: "civil hand",
  military_hand_limit: "military hand",
};
const PENDING_PROMPT = {
  perform: "finish the action card",
  choose: "choose one option",
  discard: "discard military cards down to your hand limit",
  homer: "Homer leaves play: slide him under a wonder?",
  defend: "defend: play bonus cards or discard military cards (+1 each)",
  accept: "a pact is offered",
  bid: "colonization auction: bid or pass",
  send: "send units and bonus cards to colonize",
  option: "choose",
  agreement: "International Agreement: take cards from the row",
  keep: "keep one of your Age III events",
};

/** The colour family of a card (CSS class tta-c-…). */
function family(c) {
  if (!c) return "unknown";
  if (c.type === "technology") {
    if (c.tech_type === "farm" || c.tech_type === "mine") return "production";
    if (c.tech_type === "urban") return "urban";
    if (c.tech_type === "unit") return "military";
    if (c.tech_type === "government") return "government";
    if (c.tech_type === "special") return "special";
  }
  if (c.deck === "military") return "milcard";
  return c.type; // leader, wonder, action
}

function statsText(obj) {
  return Object.entries(obj || {})
    .map(([k, n]) => `${n > 0 ? "+" : ""}${n} ${STAT_LABEL[k] || k}`)
    .join(", ");
}

export class TtaTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/through-the-ages/catalog
   * @param {{onAction?: (id:number, label:string)=>void, readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.order = Object.entries(this.A)
      .filter(([k]) => k !== "SPACE")
      .sort((x, y) => x[1] - y[1]);
    this.byIndex = [];
    for (const c of Object.values(catalog.cards)) this.byIndex[c.index] = c;
    this.busy = false;
  }

  /** [kind name, offset] of an action id. */
  kind(id) {
    let found = null;
    for (const [k, lo] of this.order) if (id >= lo) found = [k, id - lo];
    return found;
  }

  card(id) {
    return this.catalog.cards[id] || { id, name: id, type: "?", text: "" };
  }

  act(a) {
    if (this.opts.readOnly || this.busy || !this.opts.onAction) return;
    // leaving the game cannot be undone: ask first (TTA-6.8)
    if (a.id === this.A.RESIGN && !window.confirm("Resign from the game? You cannot come back.")) return;
    this.opts.onAction(a.id, a.label);
  }

  /** A decision button for legal action `a` (marked as placed so it is not repeated). */
  button(a, text, cls = "") {
    if (!a) return null;
    this.placed.add(a.id);
    return h(
      `button.act${cls ? `.${cls}` : ""}`,
      { type: "button", "data-action": a.id, title: a.label, disabled: this.busy, onclick: () => this.act(a) },
      text,
    );
  }

  render(p) {
    this.p = p;
    const v = p.view;
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const legal = mine && !this.opts.readOnly && !v.result ? v.legal || [] : [];
    // legal actions by kind: this.by.TAKE.get(slot) etc.
    this.by = {};
    for (const a of legal) {
      const k = this.kind(a.id);
      if (!k) continue;
      (this.by[k[0]] ||= new Map()).set(k[1], a);
    }
    // leader and wonder actions, by the card that grants them
    const hooks = new Map();
    const hook = (card, a, text) => {
      if (!hooks.has(card)) hooks.set(card, []);
      hooks.get(card).push([a, text]);
    };
    for (const a of legal) {
      if (a.id === this.A.HAMMURABI) hook("hammurabi", a, "Use 1 MA as a CA");
      else if (a.id === this.A.OCEAN) hook("ocean_liner_service", a, "Free population increase");
      else if (a.id === this.A.BARBAROSSA) hook("frederick_barbarossa", a, "Population + unit (1 MA)");
      else if (a.id === this.A.CHURCHILL) hook("winston_churchill", a, "+3 culture");
      else if (a.id === this.A.CHURCHILL + 1) hook("winston_churchill", a, "3 science + 3 res. for units");
    }
    this.by.HOOKS = hooks;
    this.placed = new Set();
    const me = mine ? v.civs[v.seat] : null;
    this.root.append(this.topbar(p, v));
    if (v.result) this.root.append(scoresSection(p, v.result, this.opts.footer));
    const row = this.cardRow(v);
    // a seat sees its own board in full and the others in short; a spectator sees every board
    // in full (nothing on them is hidden but the military hands)
    const board = me ? this.playerBoard(p, v, me, true) : v.civs.map((c) => this.playerBoard(p, v, c, false, true));
    const hand = me ? this.hands(v, me) : null;
    const others = me ? v.civs.filter((c) => c.seat !== v.seat).map((c) => this.playerBoard(p, v, c, false)) : null;
    const decision = legal.length ? this.decision(v, legal) : null;
    if (decision) this.root.append(decision);
    this.root.append(row);
    this.root.append(this.politics(p, v));
    this.root.append(
      h(
        "div.tta-main",
        null,
        h("div.tta-left", null, board, hand),
        h("div.tta-right", null, h("section.tta-others", { "aria-label": "other players" }, others), logPanel(this.named(p, v.log))),
      ),
    );
  }

  /** The log with "seat N:" replaced by the seat's name. */
  named(p, log) {
    return (log || []).map((e) => (typeof e.text === "string" ? { ...e, text: e.text.replace(/^seat (\d+):/, (_m, s) => `${seatName(p, Number(s))}:`) } : e));
  }

  topbar(p, v) {
    const status = statusBadge(p, v, this.opts.readOnly, (v.legal || []).length > 0);
    const cur = v.civs[v.current];
    const pending = v.pending_detail && v.pending_detail.kind !== "none" ? v.pending_detail : null;
    let phase = "Action Phase";
    if (v.result) phase = "Final scoring";
    else if (pending) phase = `${pending.card ? `${this.card(pending.card).name}: ` : ""}${PENDING_PROMPT[pending.kind] || pending.kind}`;
    else if (v.round === 1) phase = "Round 1: take cards only";
    else if (v.phase === "politics") phase = "Politics Phase (then the Action Phase)";
    const deciding = pending && pending.seat !== undefined && pending.seat !== v.current ? pending.seat : null;
    return h(
      "header.topbar.tta-top",
      null,
      h("span.age", { "data-testid": "round" }, `Age ${v.age} · Round ${v.round}`),
      v.last_round >= 0 ? h("span.phase.last", null, "last round") : null,
      h("span.status", { "data-testid": "status" }, status),
      v.result
        ? null
        : h(
            "span.tta-turn",
            null,
            h("span.swatch", { style: `background:${SEAT_COLORS[v.current]}` }),
            h("b", null, seatName(p, v.current)),
            v.current === v.seat ? " (you)" : null,
            ": ",
            h("span.phase", { "data-testid": "phase" }, phase),
            deciding !== null ? h("span.tta-answer", { "data-testid": "deciding" }, ` — ${seatName(p, deciding)}${deciding === v.seat ? " (you)" : ""} answers`) : null,
          ),
      v.result
        ? null
        : h(
            "span.tta-actions",
            { "data-testid": "actions-left", title: "actions left this turn (current player)" },
            h("span.ca", null, h("b", null, `${cur.civil_actions}/${cur.civil_actions_total}`), " civil"),
            " · ",
            h("span.ma", null, h("b", null, `${cur.military_actions}/${cur.military_actions_total}`), " military"),
            cur.temporary_military_actions ? ` (+${cur.temporary_military_actions} temporary)` : null,
          ),
      h(
        "span.discard",
        { title: "civil / military cards left in the decks of the current age" },
        `civil deck ${v.civil_deck_sizes[AGE_INDEX[v.age]] ?? 0} · military deck ${v.military_deck_sizes[AGE_INDEX[v.age]] ?? 0}`,
      ),
    );
  }

  // --- the card row --------------------------------------------------------------------------
  cardRow(v) {
    const takes = this.by.TAKE || new Map();
    const slots = v.row.map((id, s) => {
      const cost = (v.row_costs || [])[s] ?? this.catalog.take_cost_by_slot[s];
      if (!id) return h("div.tta-slot.tta-card.empty", { "data-slot": s }, h("span.tta-cost", null, `${this.catalog.take_cost_by_slot[s]} CA`), h("div.name", null, "empty"));
      const c = this.card(id);
      const a = takes.get(s);
      return h(
        `div.tta-slot.tta-card.tta-c-${family(c)}${a ? ".can" : ""}`,
        { "data-slot": s, "data-card": id, "data-testid": "row-card", title: `${c.name} (Age ${c.age} ${c.type}): ${c.text}` },
        h("span.tta-cost", { title: "civil actions to take it" }, `${cost} CA`),
        h("div.name", null, c.name),
        h("div.sub", null, `${c.age} · ${this.typeText(c)}`),
        h("div.costs", null, this.costText(c)),
        h("div.text", null, c.text),
        a ? this.button(a, "Take", "take") : null,
      );
    });
    return h(
      "section.panel.tta-row",
      { "aria-label": "card row" },
      h("h3", null, "Card row ", h("small", null, `(take costs in civil actions for ${v.seat === null || v.seat === undefined ? "the current player" : "you"})`)),
      h("div.tta-slots", null, slots),
    );
  }

  typeText(c) {
    if (c.type === "technology") {
      if (c.tech_type === "urban" || c.tech_type === "unit") return c.subtype.replace("_", " ");
      return c.tech_type;
    }
    return c.type;
  }

  costText(c) {
    const parts = [];
    if (c.science_cost) parts.push(`${c.science_cost} sci`);
    if (c.revolution_cost) parts.push(`revolution ${c.revolution_cost} sci`);
    if (c.build_cost) parts.push(`build ${c.build_cost} res`);
    if (c.stages) parts.push(`stages ${c.stages.join("+")} res`);
    return parts.join(" · ");
  }

  // --- player boards -----------------------------------------------------------------------
  ratings(civ, you) {
    const stat = (cls, label, value, title, testid) =>
      h(`span.tta-stat.${cls}`, { title, "data-testid": you && testid ? testid : null }, h("b", null, value), ` ${label}`);
    const happyOk = civ.happiness >= civ.discontent;
    return h(
      "div.tta-ratings",
      null,
      stat("culture", "culture", `${civ.culture} (+${civ.culture_rate})`, "culture points (+ culture rate per turn)", "my-culture"),
      stat("science", "science", `${civ.science} (+${civ.science_rate})`, "science points (+ science rate per turn)"),
      stat("strength", "strength", civ.strength, "military strength"),
      stat(
        `happy${happyOk ? "" : ".unhappy"}`,
        "happy",
        `${civ.happiness}`,
        `happy faces; ${civ.discontent} discontent worker(s) (more unused workers than the missing faces cause an uprising)`,
      ),
      civ.discontent ? stat("discontent", "discontent", civ.discontent, "discontent workers") : null,
    );
  }

  banks(civ) {
    const food = `${civ.food} food (+${civ.food_production} − ${civ.consumption})`;
    const res = `${civ.resources} res. (+${civ.resource_production} − ${civ.corruption} corruption)`;
    return h(
      "div.tta-banks",
      null,
      h("span.tta-bank.yellow", { title: `yellow bank; next population costs ${civ.next_population_cost} food, consumption ${civ.consumption}` }, h("span.cube.y"), h("b", null, civ.yellow_bank), " yellow bank"),
      h("span.tta-bank.blue", { title: `blue bank; corruption ${civ.corruption}` }, h("span.cube.b"), h("b", null, civ.blue_bank), " blue bank"),
      h("span.tta-bank.pool", { title: "unused workers (worker pool)" }, h("span.cube.w"), h("b", null, civ.worker_pool), " idle workers"),
      h("span.tta-stock", { title: "food: stock (+ production − consumption)" }, food),
      h("span.tta-stock", { title: "resources: stock (+ production − corruption)" }, res),
      h("span.tta-stock", { title: "food to increase population" }, `pop. +1: ${civ.next_population_cost} food`),
    );
  }

  playerBoard(p, v, civ, you, full = false) {
    const seat = civ.seat;
    const leader = civ.leader ? this.card(civ.leader) : null;
    return h(
      `article.tta-player${you ? ".you" : ""}${v.current === seat ? ".current" : ""}`,
      { "data-seat": seat, style: `border-color:${SEAT_COLORS[seat]}`, "aria-label": you ? "your player board" : `board of ${seatName(p, seat)}` },
      h(
        "header",
        null,
        h("span.swatch", { style: `background:${SEAT_COLORS[seat]}` }),
        h("b", null, seatName(p, seat)),
        you ? " (you)" : null,
        v.first_player === seat ? h("span.first", { title: "first player" }, " ①") : null,
        h("span.tta-gov", { title: this.card(civ.government).text }, this.card(civ.government).name),
        h(
          "span.tta-acts",
          { title: "civil / military actions left this turn" },
          `CA ${civ.civil_actions}/${civ.civil_actions_total} · MA ${civ.military_actions}/${civ.military_actions_total}`,
        ),
      ),
      this.ratings(civ, you),
      this.banks(civ),
      you || full ? this.tableau(v, civ) : this.summary(civ, leader),
      full ? this.summary(civ, leader, true) : null,
    );
  }

  /** Another player's tableau in short: buildings with workers, leader, wonders, hand sizes. */
  summary(civ, leader, handOnly = false) {
    const byKind = new Map();
    for (const [id, n] of Object.entries(civ.workers)) {
      const c = this.card(id);
      if (!byKind.has(c.kind)) byKind.set(c.kind, []);
      byKind.get(c.kind).push(h("span.tta-chip", { title: `${c.name}: ${c.text}`, "data-card": id }, `${c.name} ${c.age}`, h("b.w", null, ` ×${n}`)));
    }
    const rows = this.catalog.kinds
      .filter((k) => byKind.has(k))
      .map((k) => h("div.tta-sumrow", null, h("span.lbl", null, KIND_LABEL[k]), byKind.get(k)));
    const chips = (ids, cls) => ids.map((id) => h(`span.tta-chip.${cls}`, { title: this.card(id).text, "data-card": id }, this.card(id).name));
    const wip = civ.unfinished_wonder ? this.card(civ.unfinished_wonder) : null;
    const other = h(
      "div.tta-sumrow",
      null,
      h("span.lbl", null, "Other"),
      leader ? h("span.tta-chip.leader", { title: leader.text }, `leader ${leader.name}`) : null,
      chips(civ.wonders, "wonder"),
      wip ? h("span.tta-chip.wonder.wip", { title: wip.text }, `${wip.name} (${civ.wonder_stages_built}/${wip.stages.length})`) : null,
      chips(civ.special, "special"),
      civ.tactic ? h("span.tta-chip.tactic", { title: this.card(civ.tactic).text }, `tactic ${this.card(civ.tactic).name}`) : null,
      chips(civ.colonies || [], "colony"),
      (civ.ruins || []).map((id) => h("span.tta-chip.wonder.ruin", { title: "turned face down: 2 culture" }, `${this.card(id).name} (face down)`)),
      civ.resigned ? h("span.tta-chip.resigned", null, "resigned") : null,
    );
    const hand = h(
      "div.tta-sumrow.hand",
      null,
      h("span.lbl", null, "Hand"),
      civ.hand.length ? chips(civ.hand, "hand") : h("span.none", null, "no civil cards"),
      h("span.tta-mil", { title: "military cards (hidden)" }, ` + ${civ.military_hand_size} military`),
    );
    const hasOther =
      leader || wip || civ.tactic || civ.wonders.length || civ.special.length || (civ.colonies || []).length || (civ.ruins || []).length || civ.resigned;
    return h("div.tta-summary", null, handOnly ? null : [rows, hasOther ? other : null], hand);
  }

  /** Your cards in play, grouped by building kind, with the buttons that concern each card. */
  tableau(v, civ) {
    const byKind = new Map();
    for (const id of Object.keys(civ.workers)) {
      const c = this.card(id);
      if (!byKind.has(c.kind)) byKind.set(c.kind, []);
      byKind.get(c.kind).push(c);
    }
    const groups = this.catalog.kinds
      .filter((k) => byKind.has(k))
      .map((k) => {
        const cards = byKind.get(k).sort((a, b) => AGE_INDEX[a.age] - AGE_INDEX[b.age]);
        return h(
          `div.tta-group.k-${k}`,
          { "data-kind": k },
          h("div.lbl", null, KIND_LABEL[k], this.catalog.urban_kinds.includes(k) ? h("small", null, ` (limit ${civ.urban_limit})`) : null),
          cards.map((c) => this.building(civ, c)),
        );
      });
    const other = [];
    const gov = this.card(civ.government);
    other.push(this.plainCard(gov, "government"));
    if (civ.leader) other.push(this.plainCard(this.card(civ.leader), "leader"));
    for (const id of civ.special) other.push(this.plainCard(this.card(id), "special"));
    for (const id of civ.wonders) other.push(this.plainCard(this.card(id), "wonder"));
    if (civ.unfinished_wonder) other.push(this.unfinishedWonder(civ));
    if (civ.tactic) other.push(this.plainCard(this.card(civ.tactic), civ.tactic_exclusive ? "tactic (yours alone)" : "tactic"));
    for (const id of civ.colonies || []) other.push(this.plainCard(this.card(id), "colony"));
    for (const id of civ.ruins || []) other.push(this.plainCard(this.card(id), "wonder turned face down (2 culture)"));
    for (const pact of this.pactsOf(v, civ.seat)) other.push(this.pactCard(v, pact));
    return h("div.tta-tableau", { "data-testid": "tableau" }, h("div.tta-groups", null, groups), h("div.tta-others-cards", null, other));
  }

  building(civ, c) {
    const slot = c.slot;
    const workers = civ.workers[c.id] || 0;
    const kindIdx = this.catalog.kinds.indexOf(c.kind);
    const age = AGE_INDEX[c.age];
    let cubes = null;
    if (c.kind === "farm" || c.kind === "mine") {
      const n = civ.cubes[(c.kind === "mine" ? 4 : 0) + age];
      cubes = h("span.tta-cubes", { title: `${n} blue cube(s) on it (${c.kind === "farm" ? "food" : "resources"})` }, h("span.cube.b"), `×${n}`);
    }
    const dots = h(
      "span.tta-workers",
      { title: `${workers} worker(s) on ${c.name}`, "data-testid": "workers" },
      workers ? Array.from({ length: Math.min(workers, 8) }, () => h("span.cube.y")) : h("span.none", null, "no workers"),
      workers > 8 ? ` ×${workers}` : null,
    );
    const buttons = [];
    const costs = civ.build_costs || {};
    const cost = costs[c.id] ?? c.build_cost;
    buttons.push(this.button((this.by.BUILD || new Map()).get(slot), `Build (${cost} res)`, "build"));
    // upgrades from this card to a higher one of the same kind
    const pairs = this.catalog.upgrade_pairs;
    for (let i = 0; i < pairs.length; i++) {
      const [lo, hi] = pairs[i];
      if (lo !== age) continue;
      const a = (this.by.UPGRADE || new Map()).get(kindIdx * 6 + i);
      const target = this.catalog.slot_cards[kindIdx * 4 + hi];
      const diff = Math.max(0, (costs[target] ?? this.card(target).build_cost) - cost);
      if (a) buttons.push(this.button(a, `Upgrade → ${this.card(target).name} (${diff} res)`, "upgrade"));
    }
    for (let age2 = 0; age2 < 4; age2++) {
      const a = (this.by.BACH || new Map()).get(slot * 4 + age2);
      if (a) buttons.push(this.button(a, `Bach → ${this.card(this.catalog.slot_cards[6 * 4 + age2]).name}`, "upgrade"));
    }
    const unit = this.catalog.unit_kinds.includes(c.kind);
    buttons.push(this.button((this.by.DESTROY || new Map()).get(slot), unit ? "Disband" : "Destroy", "destroy"));
    if (unit) buttons.push(this.button((this.by.SEND || new Map()).get(slot), `Send to colonize (+${c.per_worker.strength || 0})`, "play"));
    return h(
      `div.tta-card.tta-bld.tta-c-${family(c)}`,
      { "data-card": c.id, "data-slot": slot, title: `${c.name}: ${c.text}` },
      h("div.name", null, c.name, h("small", null, ` ${c.age}`)),
      h("div.sub", null, `${statsText(c.per_worker)} per worker · build ${cost} ${unit ? "res (MA)" : "res"}`),
      h("div.tta-on", null, dots, cubes),
      buttons.some(Boolean) ? h("div.acts", null, buttons) : null,
    );
  }

  plainCard(c, label) {
    // the once-per-turn actions of leaders and wonders go on their cards
    const own = (this.by.HOOKS || new Map()).get(c.id) || [];
    const buttons = own.map(([a, text]) => this.button(a, text, "play"));
    return h(
      `div.tta-card.tta-c-${family(c)}`,
      { "data-card": c.id, title: `${c.name}: ${c.text}` },
      h("div.sub", null, label),
      h("div.name", null, c.name, h("small", null, ` ${c.age}`)),
      h("div.text", null, c.text),
      buttons.length ? h("div.acts", null, buttons) : null,
    );
  }

  unfinishedWonder(civ) {
    const c = this.card(civ.unfinished_wonder);
    const built = civ.wonder_stages_built;
    const stages = c.stages.map((n, i) => h(`span.tta-stage${i < built ? ".built" : ""}`, { title: i < built ? "built" : `${n} resources` }, n));
    const wonders = this.by.WONDER || new Map();
    const stagesCost = (k) => c.stages.slice(built, built + k + 1).reduce((x, y) => x + y, 0);
    const buttons = [...wonders.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([k, a]) => this.button(a, `${k === 0 ? "Build a stage" : `Build ${k + 1} stages`} (${stagesCost(k)} res)`, "build"));
    return h(
      `div.tta-card.tta-c-wonder.wip`,
      { "data-card": c.id, title: `${c.name}: ${c.text}` },
      h("div.sub", null, "wonder under construction"),
      h("div.name", null, c.name, h("small", null, ` ${c.age}`)),
      h("div.tta-stages", null, stages),
      h("div.text", null, c.text),
      buttons.length ? h("div.acts", null, buttons) : null,
    );
  }

  // --- hands ---------------------------------------------------------------------------------
  hands(v, civ) {
    const play = this.by.PLAY || new Map();
    const revolt = this.by.REVOLT || new Map();
    const discard = this.by.DISCARD || new Map();
    const civil = civ.hand.map((id) => {
      const c = this.card(id);
      const a = play.get(c.index);
      let verb = "Play";
      if (c.type === "technology") verb = `Develop${c.tech_type === "government" ? " peacefully" : ""} (${(civ.develop_costs || {})[id] ?? c.science_cost ?? 0} sci)`;
      return h(
        `div.tta-card.tta-hand-card.tta-c-${family(c)}`,
        { "data-card": id, "data-testid": "hand-card", title: `${c.name}: ${c.text}` },
        h("div.sub", null, `${c.age} · ${this.typeText(c)}`),
        h("div.name", null, c.name),
        h("div.costs", null, this.costText(c)),
        h("div.text", null, c.text),
        h("div.acts", null, this.button(a, verb, "play"), this.button(revolt.get(c.index), `Revolution (${c.revolution_cost || 0} sci)`, "revolt")),
      );
    });
    const seenMil = new Set();
    const military = (v.military_hand || []).map((id) => {
      const c = this.card(id);
      const first = !seenMil.has(id);
      seenMil.add(id);
      const army = c.army ? Object.entries(c.army).filter(([, n]) => n).map(([u, n]) => `${n} ${u}`).join(" + ") : "";
      return h(
        `div.tta-card.tta-hand-card.tta-c-${family(c)}`,
        { "data-card": id, "data-testid": "military-card", title: `${c.name}: ${c.text}` },
        h("div.sub", null, `${c.age} · military ${c.type}`),
        h("div.name", null, c.name),
        army ? h("div.costs", null, `army: ${army} → +${c.tactic_strength}`) : null,
        h("div.text", null, c.text),
        first ? h("div.acts", null, this.militaryButtons(v, c, play.get(c.index), discard.get(c.index))) : null,
      );
    });
    const copy = this.by.COPY || new Map();
    const common = (v.common_tactics || []).map((id) => {
      const c = this.card(id);
      return h(
        `div.tta-card.tta-hand-card.tta-c-milcard`,
        { "data-card": id, title: `${c.name}: ${c.text}` },
        h("div.sub", null, "common tactic"),
        h("div.name", null, c.name),
        h("div.text", null, c.text),
        h("div.acts", null, this.button(copy.get(c.index), "Copy (2 MA)", "play")),
      );
    });
    const limits = `${civ.hand.length}/${civ.civil_hand_limit}`;
    return h(
      "section.tta-hand",
      { "aria-label": "your hand" },
      h("h3", null, `Your civil hand (${limits})`),
      h("div.tta-cards", null, civil.length ? civil : h("p.none", null, "no civil cards")),
      h("h3", null, `Your military hand (${(v.military_hand || []).length}/${civ.military_hand_limit})`),
      h("div.tta-cards", null, military.length ? military : h("p.none", null, "no military cards")),
      common.length ? [h("h3", null, "Common tactics area"), h("div.tta-cards", null, common)] : null,
    );
  }

  /** The buttons on a military hand card: the political actions it allows and, in a defence or
   * a colonization, playing or discarding it. */
  militaryButtons(v, c, play, discard) {
    const kind = (v.pending_detail || {}).kind;
    const out = [];
    let playText = "Play the tactic (1 MA)";
    let discardText = "Discard";
    if (kind === "defend") {
      playText = `Defend with it (+${c.defense || 0})`;
      discardText = "Discard for +1 defence";
    } else if (kind === "send") {
      playText = `Colonize with it (+${c.colonization || 0})`;
      discardText = "Discard for +1 (James Cook)";
    }
    out.push(this.button(play, playText, "play"));
    out.push(this.button((this.by.PREPARE || new Map()).get(c.index), c.type === "territory" ? "Prepare the territory" : "Prepare the event", "play"));
    out.push(this.button((this.by.COLUMBUS || new Map()).get(c.index), "Columbus: colonize it now", "play"));
    const name = (seat) => seatName(this.p, seat);
    for (let t = 0; t < 4; t++) {
      const ag = (this.by.AGGRESS || new Map()).get(c.index * 4 + t);
      if (ag) out.push(this.button(ag, `Aggression on ${name(t)}`, "attack"));
      const war = (this.by.WAR || new Map()).get(c.index * 4 + t);
      if (war) out.push(this.button(war, `Declare war on ${name(t)}`, "attack"));
      const shared = (this.by.SHARED || new Map()).get(c.index * 4 + t);
      if (shared) out.push(this.button(shared, `War on ${name(t)} as the shared War over Culture`, "attack"));
      for (let side = 0; side < 2; side++) {
        const pact = (this.by.PACT || new Map()).get(c.index * 8 + t * 2 + side);
        if (pact) out.push(this.button(pact, `Offer to ${name(t)}${c.symmetric ? "" : ` (you as ${side ? "B" : "A"})`}`, "play"));
      }
    }
    out.push(this.button(discard, discardText, "discard"));
    return out;
  }

  pactsOf(v, seat) {
    return (v.pacts || []).filter((pact) => pact.a === seat || pact.b === seat);
  }

  pactCard(v, pact) {
    const c = this.card(pact.card);
    const name = (seat) => seatName(this.p, seat);
    const cancel = (this.by.CANCEL || new Map()).get(c.index);
    return h(
      `div.tta-card.tta-c-milcard.tta-pact`,
      { "data-card": pact.card, title: `${c.name}: ${c.text}` },
      h("div.sub", null, `pact · A ${name(pact.a)} · B ${name(pact.b)}`),
      h("div.name", null, c.name, h("small", null, ` ${c.age}`)),
      h("div.text", null, c.text),
      cancel ? h("div.acts", null, this.button(cancel, "Cancel the pact", "destroy")) : null,
    );
  }

  /** The event decks, past events, pacts and wars in play (public), the shorter game's events. */
  politics(p, v) {
    const name = (seat) => seatName(p, seat);
    const chips = (ids, cls) => (ids || []).map((id) => h(`span.tta-chip.${cls}`, { title: this.card(id).text, "data-card": id }, this.card(id).name));
    const pacts = (v.pacts || []).map((pact) =>
      h("li", { "data-card": pact.card }, `${this.card(pact.card).name}: A ${name(pact.a)}, B ${name(pact.b)}`),
    );
    const wars = (v.wars || []).map((war) =>
      h("li", { "data-card": war.card }, `${this.card(war.card).name}: ${name(war.declarer)} on ${name(war.target)} (resolves at ${name(war.declarer)}'s next turn)`),
    );
    const past = (v.past_events || []).slice(-6).reverse();
    return h(
      "section.panel.tta-politics",
      { "aria-label": "events, pacts and wars", "data-testid": "politics" },
      h(
        "div.tta-decks",
        null,
        h("span", { "data-testid": "current-events" }, `current events ${v.current_events}`),
        " · ",
        h("span", { "data-testid": "future-events" }, `future events ${v.future_events ?? 0}`),
        past.length ? [` · past events (${v.past_events.length}, latest first): `, chips(past, "event")] : null,
      ),
      (v.faceup_events || []).length ? h("div", null, "Age III events face up: ", chips(v.faceup_events, "event")) : null,
      (v.secret_events || []).length ? h("div", null, "your Age III events: ", chips(v.secret_events, "event")) : null,
      pacts.length ? h("div", null, h("b", null, "Pacts"), h("ul", null, pacts)) : null,
      wars.length ? h("div", null, h("b", null, "Wars declared"), h("ul", null, wars)) : null,
    );
  }

  // --- the decision ----------------------------------------------------------------------
  decision(v, legal) {
    // the card row, the board and the hands are drawn before this panel (render order), so
    // this.placed holds every action that already has a button on its card
    const rest = legal.filter((a) => !this.placed.has(a.id));
    const pending = v.pending_detail && v.pending_detail.kind !== "none" ? v.pending_detail : null;
    let prompt = "Your Action Phase: take, build, upgrade, develop or play — buttons are on the cards";
    if (pending) {
      const c = pending.card ? this.card(pending.card) : null;
      prompt = `${c ? `${c.name}: ` : ""}${PENDING_PROMPT[pending.kind] || pending.kind}`;
      if (c && pending.kind === "perform") prompt += ` — ${c.text}`;
      if (pending.kind === "discard" && pending.count) prompt += ` (${pending.count} to discard)`;
      if (pending.kind === "defend") prompt += ` — ${seatName(this.p, pending.attacker)} attacks with ${pending.attack} against your ${pending.defense}`;
      if (pending.kind === "accept") prompt += ` — from ${seatName(this.p, pending.offerer)}`;
      if (pending.kind === "bid") prompt += pending.high_bidder !== null && pending.high_bidder !== undefined ? ` — high bid ${pending.high_bid} by ${seatName(this.p, pending.high_bidder)}` : " — no bid yet";
      if (pending.kind === "send") prompt += ` — force ${pending.force} of ${pending.bid} needed`;
    } else if (v.round === 1) prompt = "Round 1: take cards from the row (buttons on the cards)";
    else if (v.phase === "politics") prompt = "Politics Phase: one political action (buttons on your military cards and below), or go on with the Action Phase";
    const me = v.civs[v.seat];
    return h(
      "section.decision.tta-decision",
      { "aria-label": "your decision" },
      h("h3", null, prompt),
      h(
        "p.hint",
        null,
        `${me.civil_actions} civil and ${me.military_actions} military action(s) left · ${legal.length} choices`,
        me.hand.length >= me.civil_hand_limit ? ` · your civil hand is full (${me.hand.length}/${me.civil_hand_limit}): only wonders can be taken` : "",
      ),
      rest.length
        ? h(
            "div.acts.generic-acts",
            null,
            rest.map((a) => this.button(a, a.id === this.A.POP ? `${a.label} (${me.next_population_cost} food)` : a.label, a.id === this.A.END ? "end" : "generic")),
          )
        : null,
    );
  }
}
