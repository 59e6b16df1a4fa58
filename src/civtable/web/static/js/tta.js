// The Through the Ages table. At the top: the age, the round, whose turn and phase it is, the
// actions left, and the prompt bar (what to do now; End turn and the decisions that have no card).
// Then the card row with its take costs, your civil and military hands, your player board
// (banks, ratings, every card in play with its workers and its build / upgrade / destroy
// buttons), the other players, and on the side the log and the events, pacts and wars.
//
// Every word comes from the server: payload.words (made by games/through_the_ages/words.py from
// the seat's view: labels, log lines, the prompt, the reasons a card cannot be taken or played),
// the catalogue (t(), locale/<lang>/through_the_ages.po) and the card catalogue (names, texts).
// A card that cannot be taken or played says why; a click on a card shows its full text.

import { h } from "./api.js";
import { has, joinList, loadLanguage, t, tn } from "./i18n.js";
import { actionLabel, confirmMove, logLines, playerName, promptBar, showDetail } from "./ui.js";

export const SEAT_COLORS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];
const AGE_INDEX = { A: 0, I: 1, II: 2, III: 3, IV: 4 };
const LOG_SHOWN = 150;
/** The element of a card's name: smaller type for a name with a long word (issue 19: Russian and
 * Ukrainian names such as "Трансконтинентальная" must fit a card of the row without being cut). */
function nameTag(name) {
  const longest = Math.max(0, ...String(name).split(/[\s\-/]+/).map((w) => w.length));
  return longest > 18 ? "div.name.longer" : longest > 15 ? "div.name.long" : "div.name";
}

const UNIT_KINDS = new Set(["infantry", "cavalry", "artillery", "air_force"]);

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

export class TtaTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/through-the-ages/catalog
   * @param {{onAction?: (id:number, label:string)=>void, onCancel?: (steps?:number)=>void,
   *          readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.order = Object.entries(this.A)
      .filter(([k]) => k !== "SPACE")
      .sort((x, y) => x[1] - y[1]);
    this.busy = false;
    this.p = null;
    this.fullLog = false;
    // the replay page does not load this game's words itself: load them, then draw again
    if (!has("tta.ui.card_row")) {
      loadLanguage(["common", "through_the_ages"])
        .then(() => this.p && this.render(this.p))
        .catch(() => {});
    }
  }

  /** [kind name, offset] of an action id. */
  kind(id) {
    let found = null;
    for (const [k, lo] of this.order) if (id >= lo) found = [k, id - lo];
    return found;
  }

  card(id) {
    return this.catalog.cards[id] || { id, name: t("tta.card.unknown"), type: "", text: "" };
  }

  words() {
    return (this.p && this.p.words) || {};
  }

  why() {
    return this.words().why || {};
  }

  name(seat) {
    return playerName(this.p, seat);
  }

  label(a) {
    return actionLabel(this.p, a);
  }

  // --- actions ------------------------------------------------------------------------------
  async act(a, confirm = null) {
    if (this.opts.readOnly || this.busy || !this.opts.onAction) return;
    if (confirm && !(await confirmMove(confirm.message, confirm))) return;
    this.opts.onAction(a.id, this.label(a));
  }

  /** What to ask before a move that cannot be taken back (issue 18), or null. */
  confirmFor(a) {
    const m = a.move || {};
    if (m.kind === "end_turn" && this.words().confirm_end) {
      return { message: this.words().confirm_end, confirmLabel: t("tta.ui.end_turn") };
    }
    if (m.kind === "destroy" || m.kind === "disband") {
      const key = m.kind === "destroy" ? "tta.confirm.destroy" : "tta.confirm.disband";
      return { message: t(key, { card: this.card(m.card).name }), confirmLabel: this.label(a) };
    }
    if (m.kind === "resign") return { message: t("tta.confirm.resign"), confirmLabel: this.label(a) };
    if (m.kind === "revolution") return { message: t("tta.confirm.revolution", { card: this.card(m.card).name }), confirmLabel: this.label(a) };
    return null;
  }

  /** A button for legal action `a` on a card (marked as placed). */
  button(a, text, cls = "") {
    if (!a) return null;
    this.placed.add(a.id);
    return h(
      `button.act${cls ? `.${cls}` : ""}`,
      {
        type: "button",
        "data-action": a.id,
        title: this.label(a),
        disabled: this.busy,
        onclick: (ev) => {
          ev.stopPropagation();
          this.act(a, this.confirmFor(a));
        },
      },
      text,
    );
  }

  /** The reason line under a card that cannot be used now. */
  whyLine(reason, testid = "why") {
    if (!reason) return null;
    return h("div.tta-why", { "data-testid": testid }, reason);
  }

  // --- drawing --------------------------------------------------------------------------------
  render(p) {
    this.p = p;
    const v = p.view;
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    this.root.classList.add("tta-root");
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const legal = mine && !this.opts.readOnly && !v.result ? v.legal || [] : [];
    this.legal = legal;
    this.by = {};
    for (const a of legal) {
      const k = this.kind(a.id);
      if (!k) continue;
      (this.by[k[0]] ||= new Map()).set(k[1], a);
    }
    // leader and wonder actions, on the card that grants them
    this.hooks = new Map();
    for (const a of legal) {
      const m = a.move || {};
      if (["hammurabi", "barbarossa", "churchill", "alexander"].includes(m.kind) && m.card) this.hook(m.card, a);
      else if (m.kind === "ocean_liner") this.hook("ocean_liner_service", a);
    }
    this.placed = new Set();
    const me = mine ? v.civs[v.seat] : null;
    const row = this.cardRow(v);
    const hand = me ? this.hands(v, me) : null;
    const board = me ? this.playerBoard(v, me, true) : null;
    const others = v.civs.filter((c) => !me || c.seat !== v.seat).map((c) => this.playerBoard(v, c, !me));
    const politics = this.politics(v);
    this.root.append(this.topbar(p, v));
    this.root.append(this.prompt(v, legal));
    if (v.result) this.root.append(this.scores(v.result));
    this.root.append(
      h(
        "div.tta-layout",
        null,
        h("div.tta-main", null, row, hand, board, h("section.tta-others", { "aria-label": t("tta.ui.other_players") }, others)),
        h("div.tta-side", null, this.logPanel(p), politics, this.legend()),
      ),
    );
  }

  hook(card, a) {
    if (!this.hooks.has(card)) this.hooks.set(card, []);
    this.hooks.get(card).push(a);
  }

  topbar(p, v) {
    const yours = (v.legal || []).length > 0 && !this.opts.readOnly;
    let status;
    if (this.opts.readOnly) status = h("span.st.wait", null, t(v.result ? "status.over" : "status.replay"));
    else if (v.result) status = h("span.st.over", null, t("status.over"));
    else if (yours) status = h("span.st.yours", null, t("status.your_move"));
    else status = h("span.st.wait", null, t("status.waiting", { players: this.name(v.actor ?? v.current) }));
    const cur = v.civs[v.current];
    const pending = v.pending_detail && v.pending_detail.kind !== "none" ? v.pending_detail : null;
    const deciding = pending && pending.seat !== undefined && pending.seat !== v.current ? pending.seat : null;
    const you = (seat) => (seat === v.seat ? ` ${t("tta.ui.you_mark")}` : "");
    const ageIdx = AGE_INDEX[v.age] ?? 0;
    return h(
      "header.topbar.tta-top",
      null,
      h("span.age", { "data-testid": "round" }, t("tta.ui.age_round", { age: v.age, round: v.round })),
      v.last_round >= 0 && !v.result ? h("span.phase.last", null, t("tta.ui.last_round")) : null,
      h("span.status", { "data-testid": "status" }, status),
      v.result
        ? null
        : h(
            "span.tta-turn",
            null,
            h("span.swatch", { style: `background:${SEAT_COLORS[v.current]}` }),
            h("b", null, this.name(v.current), you(v.current)),
            h("span.phase", { "data-testid": "phase" }, this.words().phase || ""),
            deciding !== null ? h("span.tta-answer", { "data-testid": "deciding" }, t("tta.ui.answers", { player: this.name(deciding) + you(deciding) })) : null,
          ),
      v.result
        ? null
        : h(
            "span.tta-actions",
            { "data-testid": "actions-left", title: t("tta.ui.actions_left_title", { player: this.name(v.current) }) },
            h("b", null, `${cur.civil_actions}/${cur.civil_actions_total}`),
            ` ${t("tta.ui.ca_short")} · `,
            h("b", null, `${cur.military_actions}/${cur.military_actions_total}`),
            ` ${t("tta.ui.ma_short")}`,
            cur.temporary_military_actions ? ` ${t("tta.ui.temporary", { n: cur.temporary_military_actions })}` : null,
          ),
      h(
        "span.discard",
        { title: t("tta.ui.decks_title") },
        t("tta.ui.decks", { civil: v.civil_deck_sizes[ageIdx] ?? 0, military: v.military_deck_sizes[ageIdx] ?? 0 }),
      ),
    );
  }

  /** The prompt bar: the decision in words, End turn and every choice that has no card. */
  prompt(v, legal) {
    const w = this.words();
    const pending = v.pending_detail && v.pending_detail.kind !== "none";
    const actions = [];
    // in a sub-decision every choice is in the bar (also those drawn on cards); otherwise the
    // ones without a card: end the turn, increase population, the decisions of other kinds
    const onCards = new Set(["TAKE", "BUILD", "UPGRADE", "DESTROY", "PLAY", "REVOLT", "WONDER", "BACH", "COPY", "PREPARE", "AGGRESS", "WAR", "PACT", "SHARED", "CANCEL", "COLUMBUS", "SEND", "DISCARD"]);
    // the Politics Phase's decision is the political actions: they are in the bar too (their
    // cards may be below the fold)
    const politics = new Set(["PREPARE", "AGGRESS", "WAR", "PACT", "SHARED", "CANCEL", "COLUMBUS"]);
    for (const a of legal) {
      const k = this.kind(a.id);
      const m = a.move || {};
      if (!pending && k && onCards.has(k[0]) && !(v.phase === "politics" && politics.has(k[0]))) continue;
      if (!pending && ["hammurabi", "barbarossa", "churchill", "alexander", "ocean_liner"].includes(m.kind) && this.hooks.size) continue;
      const end = m.kind === "end_turn";
      actions.push({
        id: a.id,
        label: end ? t("tta.ui.end_turn") : this.label(a),
        title: this.label(a),
        primary: end && !this.words().confirm_end,
        danger: m.kind === "resign",
        testid: end ? "end-turn" : null,
        disabled: this.busy,
        onclick: () => this.act(a, this.confirmFor(a)),
      });
    }
    const yours = legal.length > 0;
    let text = w.prompt || "";
    if (!text && v.result) text = t("tta.prompt.over");
    return promptBar(this.p, {
      text,
      hint: w.hint || "",
      actions,
      busy: this.busy,
      tone: yours ? "yours" : "",
      onBack: this.opts.onCancel ? (n) => this.opts.onCancel(n) : null,
      onCancel: this.opts.onCancel ? () => this.opts.onCancel() : null,
    });
  }

  // --- cards --------------------------------------------------------------------------------
  typeText(c) {
    const age = t("tta.ui.age", { age: c.age });
    let kind = t(`tta.type.${c.type}`);
    if (c.type === "technology") {
      if (c.tech_type === "urban" || c.tech_type === "unit" || c.tech_type === "farm" || c.tech_type === "mine") kind = t(`tta.kind.${c.kind}`);
      else if (c.tech_type === "special") kind = t(`tta.special.${c.subtype}`);
      else kind = t(`tta.tech.${c.tech_type}`);
    }
    return `${age} · ${kind}`;
  }

  costText(c) {
    const parts = [];
    if (c.type === "technology" && c.tech_type === "government") {
      parts.push(t("tta.ui.cost_government", { science: c.science_cost, revolution: c.revolution_cost || 0 }));
    } else if (c.science_cost) parts.push(t("tta.ui.cost_science", { n: c.science_cost }));
    if (c.build_cost) parts.push(t("tta.ui.cost_build", { n: c.build_cost }));
    if (c.stages) parts.push(t("tta.ui.cost_stages", { stages: c.stages.join(" + ") }));
    if (c.army) {
      const army = Object.entries(c.army)
        .filter(([, n]) => n)
        .map(([u, n]) => tn(`tta.unit.${u}`, n))
        .join(" + ");
      parts.push(t("tta.ui.army", { army, n: c.tactic_strength }));
    }
    if (c.type === "bonus") parts.push(t("tta.ui.bonus", { defense: c.defense, colonization: c.colonization }));
    if (c.military_action_cost) parts.push(tn("tta.n.ma", c.military_action_cost));
    return parts.join(" · ");
  }

  /** A card's full text and rules in a popup (click or tap). */
  detail(c, extra = []) {
    showDetail(
      c.name,
      h("p.tta-detail-type", null, this.typeText(c)),
      this.costText(c) ? h("p.tta-detail-cost", null, this.costText(c)) : null,
      h("p.tta-detail-text", null, c.text || ""),
      ...extra.filter(Boolean).map((x) => h("p.tta-detail-status", null, x)),
    );
  }

  /** Attributes that open a card's detail popup on click (and Enter). */
  opener(c, extra = () => []) {
    return {
      tabindex: "0",
      role: "button",
      "aria-label": t("tta.ui.show_card", { card: c.name }),
      onclick: () => this.detail(c, extra()),
      onkeydown: (ev) => {
        if (ev.key === "Enter" && ev.target === ev.currentTarget) this.detail(c, extra());
      },
    };
  }

  // --- the card row ---------------------------------------------------------------------------
  cardRow(v) {
    const takes = this.by.TAKE || new Map();
    const why = this.why();
    const general = why.general || null;
    const forYou = v.seat !== null && v.seat !== undefined;
    const slots = v.row.map((id, s) => {
      const base = this.catalog.take_cost_by_slot[s];
      if (!id) return h("div.tta-slot.tta-card.empty", { "data-slot": s }, h("span.tta-cost", null, t("tta.ui.take_cost", { n: base })), h("div.name", null, t("tta.ui.empty_slot")));
      const c = this.card(id);
      const a = takes.get(s);
      const cost = (v.row_costs || [])[s] ?? base;
      const reason = !a && forYou && !general ? (why.row || [])[s] : null;
      const status = () => [a ? t("tta.ui.can_take", { n: cost }) : (why.row || [])[s] || null];
      return h(
        `div.tta-slot.tta-card.tta-c-${family(c)}${a ? ".can" : ""}${reason ? ".cannot" : ""}`,
        { "data-slot": s, "data-card": id, "data-testid": "row-card", title: `${c.name}: ${c.text}`, ...this.opener(c, status) },
        h("span.tta-cost", { title: tn("tta.n.ca", cost) }, t("tta.ui.take_cost", { n: cost })),
        h(nameTag(c.name), null, c.name),
        h("div.sub", null, this.typeText(c)),
        this.costText(c) ? h("div.costs", null, this.costText(c)) : null,
        h("div.text", null, c.text),
        a ? this.button(a, t("tta.ui.take"), "take") : this.whyLine(reason, "row-why"),
      );
    });
    return h(
      "section.panel.tta-row",
      { "aria-label": t("tta.ui.card_row") },
      h(
        "h3",
        null,
        t("tta.ui.card_row"),
        h("small", null, " ", forYou ? t("tta.ui.row_costs_you") : t("tta.ui.row_costs_current")),
        general && forYou && !v.result ? h("small.tta-general", { "data-testid": "row-general" }, " · ", general) : null,
      ),
      h("div.tta-slots", null, slots),
    );
  }

  // --- hands -----------------------------------------------------------------------------------
  hands(v, civ) {
    const play = this.by.PLAY || new Map();
    const revolt = this.by.REVOLT || new Map();
    const discard = this.by.DISCARD || new Map();
    const why = this.why();
    const general = why.general || null;
    const civil = civ.hand.map((id) => {
      const c = this.card(id);
      // every copy of a card carries its buttons (the same action) or its reason
      const a = play.get(c.index);
      const r = revolt.get(c.index);
      const reasons = (why.hand || {})[id] || {};
      let verb = t("tta.ui.play");
      if (c.type === "technology") {
        const cost = (civ.develop_costs || {})[id] ?? c.science_cost ?? 0;
        verb = c.tech_type === "government" ? t("tta.ui.develop_peacefully", { n: cost }) : t("tta.ui.develop", { n: cost });
      } else if (c.type === "leader") verb = t("tta.ui.play_leader");
      const lines = [];
      if (!a && !general && reasons.play) lines.push(this.whyLine(reasons.play, "hand-why"));
      if (c.tech_type === "government" && !r && !general && reasons.revolution) lines.push(this.whyLine(t("tta.ui.revolution_why", { why: reasons.revolution }), "hand-why"));
      const status = () => [reasons.play, reasons.revolution ? t("tta.ui.revolution_why", { why: reasons.revolution }) : null];
      return h(
        `div.tta-card.tta-hand-card.tta-c-${family(c)}${a || r ? ".can" : ""}`,
        { "data-card": id, "data-testid": "hand-card", title: `${c.name}: ${c.text}`, ...this.opener(c, status) },
        h("div.sub", null, this.typeText(c)),
        h(nameTag(c.name), null, c.name),
        this.costText(c) ? h("div.costs", null, this.costText(c)) : null,
        h("div.text", null, c.text),
        lines,
        a || r ? h("div.acts", null, this.button(a, verb, "play"), this.button(r, t("tta.ui.revolution", { n: c.revolution_cost || 0 }), "revolt")) : null,
      );
    });
    const military = (v.military_hand || []).map((id) => {
      const c = this.card(id);
      const buttons = this.militaryButtons(v, c, play.get(c.index), discard.get(c.index));
      const reason = (why.military || {})[id];
      return h(
        `div.tta-card.tta-hand-card.tta-c-${family(c)}${buttons.some(Boolean) ? ".can" : ""}`,
        { "data-card": id, "data-testid": "military-card", title: `${c.name}: ${c.text}`, ...this.opener(c, () => [reason]) },
        h("div.sub", null, this.typeText(c)),
        h(nameTag(c.name), null, c.name),
        this.costText(c) ? h("div.costs", null, this.costText(c)) : null,
        h("div.text", null, c.text),
        !buttons.some(Boolean) && !general ? this.whyLine(reason, "military-why") : null,
        buttons.some(Boolean) ? h("div.acts", null, buttons) : null,
      );
    });
    const copy = this.by.COPY || new Map();
    const common = (v.common_tactics || []).map((id) => {
      const c = this.card(id);
      return h(
        "div.tta-card.tta-hand-card.tta-c-milcard",
        { "data-card": id, title: `${c.name}: ${c.text}`, ...this.opener(c) },
        h("div.sub", null, t("tta.ui.common_tactic")),
        h(nameTag(c.name), null, c.name),
        this.costText(c) ? h("div.costs", null, this.costText(c)) : null,
        h("div.acts", null, this.button(copy.get(c.index), t("tta.ui.copy_tactic"), "play")),
      );
    });
    return h(
      "section.tta-hand",
      { "aria-label": t("tta.ui.your_hand") },
      h(
        "div.tta-hand-part",
        null,
        h("h3", null, t("tta.ui.civil_hand", { n: civ.hand.length, limit: civ.civil_hand_limit })),
        h("div.tta-cards", null, civil.length ? civil : h("p.none", null, t("tta.ui.no_civil_cards"))),
      ),
      h(
        "div.tta-hand-part",
        null,
        h("h3", null, t("tta.ui.military_hand", { n: (v.military_hand || []).length, limit: civ.military_hand_limit })),
        h("div.tta-cards", null, military.length ? military : h("p.none", null, t("tta.ui.no_military_cards"))),
      ),
      common.length ? h("div.tta-hand-part", null, h("h3", null, t("tta.ui.common_tactics")), h("div.tta-cards", null, common)) : null,
    );
  }

  /** The buttons of a military hand card: its political actions and, in a defence or a
   * colonization, playing or discarding it. */
  militaryButtons(v, c, play, discard) {
    const kind = (v.pending_detail || {}).kind;
    const out = [];
    let playText = t("tta.ui.play_tactic");
    let discardText = t("tta.ui.discard");
    if (kind === "defend") {
      playText = t("tta.ui.defend_with", { n: c.defense || 0 });
      discardText = t("tta.ui.discard_defence");
    } else if (kind === "send") {
      playText = t("tta.ui.colonize_with", { n: c.colonization || 0 });
      discardText = t("tta.ui.discard_cook");
    }
    out.push(this.button(play, playText, "play"));
    out.push(this.button((this.by.PREPARE || new Map()).get(c.index), t(c.type === "territory" ? "tta.ui.prepare_territory" : "tta.ui.prepare_event"), "play"));
    out.push(this.button((this.by.COLUMBUS || new Map()).get(c.index), t("tta.ui.columbus"), "play"));
    for (let target = 0; target < 4; target++) {
      const ag = (this.by.AGGRESS || new Map()).get(c.index * 4 + target);
      if (ag) out.push(this.button(ag, t("tta.ui.attack", { player: this.name(target) }), "attack"));
      const war = (this.by.WAR || new Map()).get(c.index * 4 + target);
      if (war) out.push(this.button(war, t("tta.ui.declare_war", { player: this.name(target) }), "attack"));
      const shared = (this.by.SHARED || new Map()).get(c.index * 4 + target);
      if (shared) out.push(this.button(shared, t("tta.ui.shared_war", { player: this.name(target) }), "attack"));
      for (let side = 0; side < 2; side++) {
        const pact = (this.by.PACT || new Map()).get(c.index * 8 + target * 2 + side);
        if (pact) out.push(this.button(pact, c.symmetric ? t("tta.ui.offer", { player: this.name(target) }) : t("tta.ui.offer_side", { player: this.name(target), side: side ? "B" : "A" }), "play"));
      }
    }
    out.push(this.button(discard, discardText, "discard"));
    return out;
  }

  // --- player boards ---------------------------------------------------------------------------
  playerBoard(v, civ, full) {
    const seat = civ.seat;
    const you = seat === v.seat;
    const gov = this.card(civ.government);
    return h(
      `article.tta-player${you ? ".you" : ""}${v.current === seat ? ".current" : ""}`,
      { "data-seat": seat, style: `border-color:${SEAT_COLORS[seat]}`, "aria-label": you ? t("tta.ui.your_board") : t("tta.ui.board_of", { player: this.name(seat) }) },
      h(
        "header",
        null,
        h("span.swatch", { style: `background:${SEAT_COLORS[seat]}` }),
        h("b", null, this.name(seat)),
        you ? ` ${t("tta.ui.you_mark")}` : null,
        v.first_player === seat ? h("span.first", { title: t("tta.ui.first_player") }, " ①") : null,
        h("span.tta-gov", { title: gov.text, ...this.opener(gov) }, gov.name),
        h(
          "span.tta-acts",
          { title: t("tta.ui.actions_left_title", { player: this.name(seat) }) },
          `${t("tta.ui.ca_short")} ${civ.civil_actions}/${civ.civil_actions_total} · ${t("tta.ui.ma_short")} ${civ.military_actions}/${civ.military_actions_total}`,
        ),
      ),
      this.ratings(civ, you),
      this.banks(civ, you),
      you || full ? this.tableau(v, civ, you) : this.summary(civ),
      !you ? this.handSummary(civ) : null,
    );
  }

  ratings(civ, you) {
    const stat = (cls, label, value, title, testid) => h(`span.tta-stat.${cls}`, { title, "data-testid": you && testid ? testid : null }, h("b", null, value), ` ${label}`);
    const happyOk = civ.happiness >= civ.discontent;
    return h(
      "div.tta-ratings",
      null,
      stat("culture", t("tta.ui.culture"), `${civ.culture} (+${civ.culture_rate})`, t("tta.ui.culture_title"), "my-culture"),
      stat("science", t("tta.ui.science"), `${civ.science} (+${civ.science_rate})`, t("tta.ui.science_title")),
      stat("strength", t("tta.ui.strength"), civ.strength, t("tta.ui.strength_title")),
      stat(`happy${happyOk ? "" : ".unhappy"}`, t("tta.ui.happy"), `${civ.happiness}`, t("tta.ui.happy_title")),
      civ.discontent ? stat("discontent", t("tta.ui.discontent"), civ.discontent, t("tta.ui.discontent_title")) : null,
    );
  }

  banks(civ, you) {
    const pop = this.by.POP && you ? this.by.POP.get(0) : null;
    const why = you ? this.why() : {};
    return h(
      "div.tta-banks",
      null,
      h("span.tta-bank.yellow", { title: t("tta.ui.yellow_title", { n: civ.next_population_cost }) }, h("span.cube.y"), h("b", null, civ.yellow_bank), ` ${t("tta.ui.yellow_bank")}`),
      h("span.tta-bank.blue", { title: t("tta.ui.blue_title", { n: civ.corruption }) }, h("span.cube.b"), h("b", null, civ.blue_bank), ` ${t("tta.ui.blue_bank")}`),
      h("span.tta-bank.pool", { title: t("tta.ui.idle_title") }, h("span.cube.w"), h("b", null, civ.worker_pool), ` ${t("tta.ui.idle_workers")}`),
      h("span.tta-stock", { title: t("tta.ui.food_title") }, t("tta.ui.food_line", { n: civ.food, plus: civ.food_production, minus: civ.consumption })),
      h("span.tta-stock", { title: t("tta.ui.resources_title") }, t("tta.ui.resources_line", { n: civ.resources, plus: civ.resource_production, minus: civ.corruption })),
      h("span.tta-stock", { title: t("tta.ui.pop_title") }, t("tta.ui.pop_line", { n: civ.next_population_cost })),
      pop ? this.button(pop, t("tta.ui.increase_population", { n: civ.next_population_cost }), "build") : null,
      !pop && you && why.population && !why.general && this.p.view.round > 1 ? h("span.tta-why.inline", { "data-testid": "pop-why" }, t("tta.ui.population_why", { why: why.population })) : null,
    );
  }

  /** Another player's board in short: buildings with workers, leader, wonders, colonies. */
  summary(civ) {
    const byKind = new Map();
    for (const [id, n] of Object.entries(civ.workers)) {
      const c = this.card(id);
      if (!byKind.has(c.kind)) byKind.set(c.kind, []);
      byKind.get(c.kind).push(h("span.tta-chip", { title: `${c.name}: ${c.text}`, "data-card": id, ...this.opener(c) }, `${c.name} `, h("b.w", null, `×${n}`)));
    }
    const rows = this.catalog.kinds.filter((k) => byKind.has(k)).map((k) => h("div.tta-sumrow", null, h("span.lbl", null, t(`tta.kinds.${k}`)), byKind.get(k)));
    const chip = (id, cls, text = null) => {
      const c = this.card(id);
      return h(`span.tta-chip.${cls}`, { title: `${c.name}: ${c.text}`, "data-card": id, ...this.opener(c) }, text || c.name);
    };
    const wip = civ.unfinished_wonder ? this.card(civ.unfinished_wonder) : null;
    const other = [
      civ.leader ? chip(civ.leader, "leader", t("tta.ui.leader_chip", { card: this.card(civ.leader).name })) : null,
      civ.wonders.map((id) => chip(id, "wonder")),
      wip ? chip(civ.unfinished_wonder, "wonder.wip", t("tta.ui.wip_chip", { card: wip.name, built: civ.wonder_stages_built, total: wip.stages.length })) : null,
      civ.special.map((id) => chip(id, "special")),
      civ.tactic ? chip(civ.tactic, "tactic", t("tta.ui.tactic_chip", { card: this.card(civ.tactic).name })) : null,
      (civ.colonies || []).map((id) => chip(id, "colony")),
      (civ.ruins || []).map((id) => chip(id, "wonder.ruin", t("tta.ui.ruin_chip", { card: this.card(id).name }))),
      civ.resigned ? h("span.tta-chip.resigned", null, t("tta.ui.resigned")) : null,
    ].flat().filter(Boolean);
    return h("div.tta-summary", null, rows, other.length ? h("div.tta-sumrow", null, h("span.lbl", null, t("tta.ui.other_cards")), other) : null);
  }

  handSummary(civ) {
    const chips = civ.hand.map((id) => {
      const c = this.card(id);
      return h("span.tta-chip.hand", { title: `${c.name}: ${c.text}`, "data-card": id, ...this.opener(c) }, c.name);
    });
    return h(
      "div.tta-sumrow.hand",
      null,
      h("span.lbl", null, t("tta.ui.hand")),
      chips.length ? chips : h("span.none", null, t("tta.ui.no_civil_cards")),
      h("span.tta-mil", { title: t("tta.ui.military_hidden") }, t("tta.ui.military_count", { cards: tn("tta.n.military_card", civ.military_hand_size) })),
    );
  }

  /** Cards in play, grouped by building kind, with the buttons that concern each card. */
  tableau(v, civ, you) {
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
        const urban = this.catalog.urban_kinds.includes(k);
        return h(
          `div.tta-group.k-${k}`,
          { "data-kind": k },
          h("div.lbl", null, t(`tta.kinds.${k}`), urban ? h("small", null, ` ${t("tta.ui.limit", { n: civ.urban_limit })}`) : null),
          cards.map((c) => this.building(civ, c, you)),
        );
      });
    const other = [];
    other.push(this.plainCard(this.card(civ.government), t("tta.ui.government")));
    if (civ.leader) other.push(this.plainCard(this.card(civ.leader), t("tta.ui.leader")));
    for (const id of civ.special) other.push(this.plainCard(this.card(id), t("tta.ui.special_tech")));
    for (const id of civ.wonders) other.push(this.plainCard(this.card(id), t("tta.ui.wonder")));
    if (civ.unfinished_wonder) other.push(this.unfinishedWonder(civ, you));
    if (civ.tactic) other.push(this.plainCard(this.card(civ.tactic), civ.tactic_exclusive ? t("tta.ui.tactic_own") : t("tta.ui.tactic")));
    for (const id of civ.colonies || []) other.push(this.plainCard(this.card(id), t("tta.ui.colony")));
    for (const id of civ.ruins || []) other.push(this.plainCard(this.card(id), t("tta.ui.ruin")));
    for (const pact of (v.pacts || []).filter((x) => x.a === civ.seat || x.b === civ.seat)) other.push(this.pactCard(pact));
    return h("div.tta-tableau", { "data-testid": "tableau" }, h("div.tta-groups", null, groups), h("div.tta-others-cards", null, other));
  }

  building(civ, c, you) {
    const slot = c.slot;
    const workers = civ.workers[c.id] || 0;
    const kindIdx = this.catalog.kinds.indexOf(c.kind);
    const age = AGE_INDEX[c.age];
    const unit = UNIT_KINDS.has(c.kind);
    let cubes = null;
    if (c.kind === "farm" || c.kind === "mine") {
      const n = civ.cubes[(c.kind === "mine" ? 4 : 0) + age];
      cubes = h("span.tta-cubes", { title: t(c.kind === "farm" ? "tta.ui.cubes_food" : "tta.ui.cubes_resources", { n }) }, h("span.cube.b"), `×${n}`);
    }
    const dots = h(
      "span.tta-workers",
      { title: tn("tta.n.worker", workers), "data-testid": "workers" },
      workers ? Array.from({ length: Math.min(workers, 8) }, () => h("span.cube.y")) : h("span.none", null, t("tta.ui.no_workers")),
      workers > 8 ? ` ×${workers}` : null,
    );
    const costs = civ.build_costs || {};
    const cost = costs[c.id] ?? c.build_cost;
    const buttons = [];
    buttons.push(this.button((this.by.BUILD || new Map()).get(slot), t(unit ? "tta.ui.build_unit" : "tta.ui.build", { n: cost }), "build"));
    const pairs = this.catalog.upgrade_pairs;
    for (let i = 0; i < pairs.length; i++) {
      const [lo, hi] = pairs[i];
      if (lo !== age) continue;
      const a = (this.by.UPGRADE || new Map()).get(kindIdx * 6 + i);
      const target = this.catalog.slot_cards[kindIdx * 4 + hi];
      if (a) buttons.push(this.button(a, t("tta.ui.upgrade", { card: this.card(target).name, n: (a.move || {}).cost ?? 0 }), "upgrade"));
    }
    for (let age2 = 0; age2 < 4; age2++) {
      const a = (this.by.BACH || new Map()).get(slot * 4 + age2);
      if (a) buttons.push(this.button(a, t("tta.ui.bach", { card: this.card(this.catalog.slot_cards[6 * 4 + age2]).name }), "upgrade"));
    }
    buttons.push(this.button((this.by.DESTROY || new Map()).get(slot), t(unit ? "tta.ui.disband" : "tta.ui.destroy"), "destroy"));
    if (unit) buttons.push(this.button((this.by.SEND || new Map()).get(slot), t("tta.ui.send", { n: (c.per_worker || {}).strength || 0 }), "play"));
    const why = you ? this.why() : {};
    const reason = you && !why.general && !buttons.some(Boolean) && this.p.view.round > 1 ? (why.build || {})[c.id] : null;
    return h(
      `div.tta-card.tta-bld.tta-c-${family(c)}`,
      { "data-card": c.id, "data-slot": slot, title: `${c.name}: ${c.text}`, ...this.opener(c, () => [(why.build || {})[c.id]]) },
      h(nameTag(c.name), null, c.name, h("small", null, ` ${c.age}`)),
      h("div.sub", null, t(unit ? "tta.ui.build_cost_unit" : "tta.ui.build_cost", { n: cost })),
      h("div.tta-on", null, dots, cubes),
      this.whyLine(reason, "build-why"),
      buttons.some(Boolean) ? h("div.acts", null, buttons) : null,
    );
  }

  plainCard(c, label) {
    const own = this.hooks.get(c.id) || [];
    const buttons = own.map((a) => this.button(a, this.label(a), "play"));
    return h(
      `div.tta-card.tta-c-${family(c)}`,
      { "data-card": c.id, title: `${c.name}: ${c.text}`, ...this.opener(c) },
      h("div.sub", null, label),
      h(nameTag(c.name), null, c.name, h("small", null, ` ${c.age}`)),
      h("div.text", null, c.text),
      buttons.length ? h("div.acts", null, buttons) : null,
    );
  }

  unfinishedWonder(civ, you) {
    const c = this.card(civ.unfinished_wonder);
    const built = civ.wonder_stages_built;
    const stages = c.stages.map((n, i) => h(`span.tta-stage${i < built ? ".built" : ""}`, { title: i < built ? t("tta.ui.stage_built") : tn("tta.n.resources", n) }, n));
    const buttons = [...(this.by.WONDER || new Map()).entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([k, a]) => this.button(a, t("tta.ui.build_stages", { stages: tn("tta.n.stage", k + 1), n: (a.move || {}).cost ?? 0 }), "build"));
    const why = you ? this.why() : {};
    return h(
      "div.tta-card.tta-c-wonder.wip",
      { "data-card": c.id, title: `${c.name}: ${c.text}`, ...this.opener(c, () => [why.wonder]) },
      h("div.sub", null, t("tta.ui.wonder_building")),
      h(nameTag(c.name), null, c.name, h("small", null, ` ${c.age}`)),
      h("div.tta-stages", null, stages),
      h("div.text", null, c.text),
      !buttons.length && you && !why.general ? this.whyLine(why.wonder, "wonder-why") : null,
      buttons.length ? h("div.acts", null, buttons) : null,
    );
  }

  pactCard(pact) {
    const c = this.card(pact.card);
    const cancel = (this.by.CANCEL || new Map()).get(c.index);
    const trade = this.legal.find((a) => (a.move || {}).kind === "trade");
    const tradeHere = trade && c.id === "trade_routes_agreement" ? this.button(trade, this.label(trade), "play") : null;
    return h(
      "div.tta-card.tta-c-milcard.tta-pact",
      { "data-card": pact.card, title: `${c.name}: ${c.text}`, ...this.opener(c) },
      h("div.sub", null, t("tta.ui.pact_sides", { a: this.name(pact.a), b: this.name(pact.b) })),
      h(nameTag(c.name), null, c.name, h("small", null, ` ${c.age}`)),
      h("div.text", null, c.text),
      cancel || tradeHere ? h("div.acts", null, tradeHere, this.button(cancel, t("tta.ui.cancel_pact"), "destroy")) : null,
    );
  }

  // --- the side: log, politics, legend ----------------------------------------------------------
  logPanel(p) {
    const all = logLines(p);
    // the latest entries; the whole story on request (a long game has thousands)
    const lines = this.fullLog ? all : all.slice(-LOG_SHOWN);
    const more =
      all.length > lines.length
        ? h(
            "button.small.tta-log-more",
            {
              type: "button",
              onclick: () => {
                this.fullLog = true;
                this.render(this.p);
              },
            },
            t("tta.ui.log_earlier", { n: all.length - lines.length }),
          )
        : null;
    const list = h(
      "ol.log.tta-log",
      { "aria-label": t("ui.log"), "data-testid": "log" },
      lines.map((l) => h(`li${l.private ? ".private" : ""}`, null, l.text, l.private ? h("span.only", null, ` ${t("tta.ui.only_you")}`) : null)),
    );
    requestAnimationFrame(() => {
      list.scrollTop = list.scrollHeight;
    });
    return h("aside.logpanel.tta-logpanel", null, h("h3", null, t("ui.log")), more, all.length ? list : h("p.none", null, t("tta.ui.log_empty")));
  }

  politics(v) {
    const chips = (ids, cls) => (ids || []).map((id) => {
      const c = this.card(id);
      return h(`span.tta-chip.${cls}`, { title: `${c.name}: ${c.text}`, "data-card": id, ...this.opener(c) }, c.name);
    });
    const pacts = (v.pacts || []).map((pact) => h("li", { "data-card": pact.card }, t("tta.ui.pact_line", { card: this.card(pact.card).name, a: this.name(pact.a), b: this.name(pact.b) })));
    const wars = (v.wars || []).map((war) => h("li", { "data-card": war.card }, t("tta.ui.war_line", { card: this.card(war.card).name, declarer: this.name(war.declarer), target: this.name(war.target) })));
    const past = (v.past_events || []).slice(-8).reverse();
    return h(
      "section.panel.tta-politics",
      { "aria-label": t("tta.ui.politics"), "data-testid": "politics" },
      h("h3", null, t("tta.ui.politics")),
      h(
        "p.tta-decks",
        null,
        h("span", { "data-testid": "current-events", title: t("tta.ui.current_events_title") }, t("tta.ui.current_events", { n: v.current_events })),
        " · ",
        h("span", { "data-testid": "future-events", title: t("tta.ui.future_events_title") }, t("tta.ui.future_events", { n: v.future_events ?? 0 })),
      ),
      v.top_current_event ? h("p", null, t("tta.ui.top_event"), " ", chips([v.top_current_event], "event")) : null,
      past.length ? h("div.tta-chips", { "data-testid": "past-events" }, h("span.lbl", null, t("tta.ui.past_events", { n: v.past_events.length })), chips(past, "event")) : null,
      (v.faceup_events || []).length ? h("div.tta-chips", null, h("span.lbl", null, t("tta.ui.faceup_events")), chips(v.faceup_events, "event")) : null,
      Array.isArray(v.secret_events) && v.secret_events.length ? h("div.tta-chips", null, h("span.lbl", null, t("tta.ui.your_secret_events")), chips(v.secret_events, "event")) : null,
      pacts.length ? h("div", null, h("b", null, t("tta.ui.pacts")), h("ul", null, pacts)) : null,
      wars.length ? h("div", null, h("b", null, t("tta.ui.wars")), h("ul", null, wars)) : null,
    );
  }

  legend() {
    return h(
      "details.tta-legend",
      null,
      h("summary", null, t("tta.ui.legend")),
      h(
        "ul",
        null,
        h("li", null, t("tta.ui.legend_ca")),
        h("li", null, t("tta.ui.legend_ma")),
        h("li", null, h("span.cube.y"), " ", t("tta.ui.legend_yellow")),
        h("li", null, h("span.cube.b"), " ", t("tta.ui.legend_blue")),
        h("li", null, h("span.cube.w"), " ", t("tta.ui.legend_idle")),
        h("li", null, t("tta.ui.legend_first")),
        h("li", null, t("tta.ui.legend_click")),
      ),
    );
  }

  scores(r) {
    const w = this.words().scores || {};
    const seats = r.scores.map((_, s) => s);
    const names = r.winners.map((s) => this.name(s));
    const winner = (s) => r.winners.includes(s);
    return h(
      "section.final.tta-final",
      { "aria-label": t("ui.scores") },
      h("h2", null, t(r.winners.length > 1 ? "ui.winners" : "ui.winner", { players: joinList(names) })),
      h(
        "table.scores",
        { "data-testid": "scores" },
        h("thead", null, h("tr", null, h("th", null, ""), seats.map((s) => h(`th${winner(s) ? ".winner" : ""}`, null, this.name(s))))),
        h(
          "tbody",
          null,
          r.categories.map((cat) => h("tr", null, h("th", null, w[cat] || t(`tta.score.${cat}`)), seats.map((s) => h("td", null, String(r.breakdown[s][cat] ?? 0))))),
          h("tr.total", null, h("th", null, t("ui.total")), seats.map((s) => h("td", null, String(r.scores[s])))),
          h("tr.place", null, h("th", null, t("ui.place")), seats.map((s) => h("td", null, String(r.ranking[s] + 1)))),
        ),
      ),
      this.opts.footer ? this.opts.footer() : null,
    );
  }
}
