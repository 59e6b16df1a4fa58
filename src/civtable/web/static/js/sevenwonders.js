// The 7 Wonders table: renders one payload (built by the server from view(seat)) and turns
// clicks into action ids. What it shows comes from the payload — the view, and the player words
// made from it on the server (payload.words: labels, log, prompt, reasons, names) —, the card
// catalogue (names and full texts in the reader's language) and the seven_wonders catalogue of
// i18n.js (t("sw.…")). No English is written here.

import { h, roman } from "./api.js";
import { icon, RESOURCE_ORDER } from "./icons.js";
import { t, tn } from "./i18n.js";
import { actionLabel, logLines, playerName, promptBar, showDetail } from "./ui.js";

const CATEGORY_ICON = {
  military: "shield",
  treasury: "coin",
  wonder: "pyramid",
  civilian: "vp",
  science: "gear",
  commercial: "coin",
  guilds: "vp",
};

// --- small pieces ----------------------------------------------------------------------------
function resIcon(catalog, code, cls = "") {
  return icon(code, { label: catalog.resources[code] || "", cls });
}

/** Resource cost + coins as icons ("free" when nothing). */
export function costIcons(catalog, cost, coins) {
  const out = [];
  for (const code of RESOURCE_ORDER) {
    for (let i = 0; i < (cost[code] || 0); i++) out.push(resIcon(catalog, code, "sm"));
  }
  if (coins) out.push(icon("coin", { label: tn("n.coin", coins), text: coins, cls: "sm" }));
  if (!out.length) out.push(h("span.free", null, t("sw.cost.free")));
  return h("span.cost", null, out);
}

/** A card's or stage's effect as icons; `text` (the full player text) is its title. */
export function effectIcons(catalog, effect, text = "") {
  const out = [];
  const units = (list, priv) =>
    list.forEach((unit, i) => {
      if (i) out.push(h("span.sep", null, " "));
      unit.forEach((code, j) => {
        if (j) out.push(h("span.slash", null, "/"));
        out.push(resIcon(catalog, code, priv ? "private" : ""));
      });
    });
  if (effect.produce) units(effect.produce, false);
  if (effect.produce_private) units(effect.produce_private, true);
  if (effect.shields) {
    for (let i = 0; i < effect.shields; i++) out.push(icon("shield", { label: tn("sw.ui.shields", 1) }));
  }
  if (effect.vp) out.push(icon("vp", { label: tn("n.point", effect.vp), text: effect.vp }));
  if (effect.coins) out.push(icon("coin", { label: tn("n.coin", effect.coins), text: effect.coins }));
  if (effect.science) out.push(icon(effect.science, { label: t(`sw.science.${effect.science}`) }));
  if (effect.science_wild) out.push(icon("wild", { label: t("sw.ui.wild") }));
  if (effect.trade_discount) {
    const d = effect.trade_discount;
    const left = d.neighbours.includes("left");
    const right = d.neighbours.includes("right");
    out.push(
      h(
        "span.trade",
        null,
        left ? icon("left", { cls: "arrow", label: t("sw.ui.rel.left") }) : null,
        d.resources.map((r) => resIcon(catalog, r, "sm")),
        icon("coin", { text: 1, cls: "sm" }),
        right ? icon("right", { cls: "arrow", label: t("sw.ui.rel.right") }) : null,
      ),
    );
  }
  if (effect.coins_per) out.push(h("span.per", null, icon("coin", { cls: "sm" }), perText(effect.coins_per)));
  if (effect.vp_per) out.push(h("span.per", null, icon("vp", { cls: "sm" }), perText(effect.vp_per)));
  if (effect.power) out.push(h("span.power", null, t(`sw.power_short.${effect.power}`)));
  return h("span.effect", { title: text || null }, out);
}

/** A counting effect in a few symbols: "1 × brown ◀ ● ▶". */
function perText(per) {
  const where = per.cities.map((c) => ({ self: "●", left: "◀", right: "▶" })[c] || "").join(" ");
  return `${per.amount} × ${per.count.map((c) => t(`sw.count.${c}`)).join(" / ")} ${where}`;
}

function payIcons(l, r, coins = 0) {
  const out = [];
  if (coins) out.push(icon("coin", { text: coins, cls: "sm", label: tn("sw.pay.bank", coins) }));
  if (l) out.push(h("span.pay", null, "◀", icon("coin", { text: l, cls: "sm", label: tn("n.coin", l) })));
  if (r) out.push(h("span.pay", null, icon("coin", { text: r, cls: "sm", label: tn("n.coin", r) }), "▶"));
  if (!out.length) out.push(h("span.free", null, t("sw.ui.no_coins")));
  return out;
}

// --- the table -------------------------------------------------------------------------------
export class SevenWondersTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/seven-wonders/catalog
   * @param {{onAction?: (id:number, label:string)=>void, onCancel?: (steps?:number)=>void,
   *          onIllegal?: (msg:string)=>void, readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.byIndex = [];
    for (const c of Object.values(catalog.cards)) this.byIndex[c.index] = c;
    this.A = catalog.actions;
    this.busy = false;
  }

  kindOf(a) {
    const A = this.A;
    if (a >= A.PAY) return "pay";
    if (a === A.HALI_PASS) return "hali_pass";
    if (a >= A.HALI) return "hali";
    if (a >= A.FREE) return "free";
    if (a >= A.DISCARD) return "discard";
    if (a >= A.STAGE) return "stage";
    return "build";
  }

  cardOf(a) {
    return this.byIndex[a % this.A.STAGE];
  }

  words() {
    return (this.p && this.p.words) || {};
  }

  seatName(p, seat) {
    return playerName(p, seat);
  }

  cityName(p, city) {
    const names = this.words().cities;
    if (names && names[city.index]) return names[city.index];
    if (city.seat === null || city.seat === undefined) return t("sw.free_city");
    return playerName(p, city.seat);
  }

  render(p) {
    this.p = p;
    const v = p.view;
    const root = this.root;
    root.replaceChildren();
    root.classList.toggle("readonly", !!this.opts.readOnly);
    root.classList.add("sw-table");
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined ? v.city : null;
    if (!this.opts.readOnly) root.append(this.prompt(p, v));
    root.append(this.topbar(p, v));
    if (v.result) root.append(this.scores(p, v));
    const n = v.cities.length;
    const others = [];
    if (mine === null) {
      for (let c = 0; c < n; c++) others.push(c);
    } else {
      for (let k = 1; k < n; k++) others.push((mine + k) % n); // left neighbour first
    }
    const strip = h(
      "section.others",
      { "aria-label": t("sw.ui.other_cities") },
      others.map((c) => this.city(p, v, c, { compact: mine !== null, mine })),
    );
    const main = h("div.main");
    if (mine !== null) {
      main.append(this.city(p, v, mine, { compact: false, mine, own: true }));
    }
    main.append(this.logPanel(p, v));
    // the hand right under the prompt: the decision first, then the cities and the log
    if (mine !== null && !v.result) root.append(this.decision(p, v, mine));
    root.append(strip, main);
  }

  /** The decision, always in view: what to do now; Cancel while a payment is being chosen. */
  prompt(p, v) {
    const w = this.words();
    const yours = !!(v.legal && v.legal.length);
    const actions = [];
    if (v.phase === "halikarnassus" && yours) {
      const pass = v.legal.find((a) => this.kindOf(a.id) === "hali_pass");
      if (pass) actions.push({ id: pass.id, label: actionLabel(p, pass), onclick: () => this.act(pass), testid: "hali-pass" });
    }
    return promptBar(p, {
      text: w.prompt || "",
      actions,
      onCancel: this.opts.onCancel || null,
      busy: this.busy,
      tone: yours ? "yours" : "",
    });
  }

  topbar(p, v) {
    const dir = v.direction === "right" ? "right" : "left";
    let status;
    const you = v.seat;
    const waiting = v.cities.filter((c) => c.deciding && !c.committed).map((c) => this.cityName(p, c));
    if (this.opts.readOnly) status = h("span.st.wait", null, t(v.result ? "status.over" : "status.replay"));
    else if (v.result) status = h("span.st.over", null, t("status.over"));
    else if (you !== null && v.legal && v.legal.length) status = h("span.st.yours", null, t("status.your_move"));
    else if (waiting.length) status = h("span.st.wait", null, t("status.waiting", { players: waiting.join(", ") }));
    else status = h("span.st", null, "…");
    const phase = v.phase === "babylon_extra_step" || v.phase === "halikarnassus" ? t(`sw.ui.phase.${v.phase}`) : null;
    return h(
      "header.topbar",
      null,
      h("span.age", { "data-testid": "age" }, t("sw.ui.age", { age: roman(v.age) })),
      h("span.turn", null, t("sw.ui.turn", { turn: v.turn })),
      h("span.dir", null, icon(dir, { cls: "arrow", label: "" }), ` ${t(`sw.ui.pass.${dir}`)}`),
      phase ? h("span.phase", null, phase) : null,
      h("span.discard", null, tn("sw.ui.discard_pile", v.discard_size)),
      h("span.grow"),
      h("span.status", { "data-testid": "status" }, status),
    );
  }

  city(p, v, c, { compact, mine, own = false }) {
    const city = v.cities[c];
    const board = this.catalog.boards[city.board];
    const n = v.cities.length;
    let rel = null;
    if (mine !== null && !own) {
      const left = c === (mine + 1) % n;
      const right = c === (mine - 1 + n) % n;
      rel = left && right ? t("sw.ui.rel.both") : left ? t("sw.ui.rel.left") : right ? t("sw.ui.rel.right") : null;
    }
    let badge = null;
    if (city.deciding) {
      badge = city.committed
        ? h("span.badge.chosen", { "data-testid": "chosen" }, icon("check", { cls: "sm" }), t("sw.ui.chosen"))
        : h("span.badge.choosing", null, icon("hourglass", { cls: "sm" }), t("sw.ui.choosing"));
    }
    const stages = board.sides[city.side];
    const tokens = city.tokens || [];
    const wins = tokens.filter((x) => x > 0);
    const name = this.cityName(p, city);
    const head = h(
      "header.city-head",
      null,
      h("span.city-name", null, name),
      own ? h("span.rel", null, t("sw.ui.you")) : null,
      rel ? h("span.rel", null, rel) : null,
      badge,
    );
    const wonder = h(
      "button.wonder",
      {
        type: "button",
        title: t("sw.ui.wonder_title", { wonder: board.wonder, side: city.side, resource: this.catalog.resources[board.start_resource] }),
        onclick: () => this.wonderDetail(city, board),
      },
      resIcon(this.catalog, board.start_resource, "sm"),
      h("span.wname", null, `${board.name} ${city.side}`),
      h(
        "span.pips",
        { "aria-label": t("sw.ui.stages", { built: city.stages_built, total: city.stages_total }) },
        stages.map((_, i) => h(`span.pip${i < city.stages_built ? ".built" : ""}`)),
      ),
    );
    const stats = h(
      "div.stats",
      null,
      icon("coin", { text: city.coins, label: tn("n.coin", city.coins) }),
      icon("shield", { text: city.shields, label: tn("sw.ui.shields", city.shields) }),
      h(
        "span.tokens",
        { title: t("sw.ui.military", { points: city.military_points }) },
        wins.map((x) => icon("victory", { text: x, cls: "sm", label: tn("sw.ui.victory", x) })),
        city.defeat_tokens ? icon("defeat", { text: city.defeat_tokens, cls: "sm", label: tn("sw.ui.defeats", city.defeat_tokens) }) : null,
      ),
      h(
        "span.sci",
        null,
        ["compass", "gear", "tablet"].map((s) =>
          city.science[s]
            ? icon(s, { text: city.science[s], cls: "sm", label: t("sw.ui.science", { n: city.science[s], symbol: t(`sw.science.${s}`) }) })
            : null,
        ),
        city.science_wilds ? icon("wild", { text: city.science_wilds, cls: "sm", label: tn("sw.ui.wilds", city.science_wilds) }) : null,
      ),
      city.seat !== null && !own && city.hand_size ? icon("cards", { text: city.hand_size, cls: "sm", label: tn("sw.ui.hand_size", city.hand_size) }) : null,
    );
    const groups = {};
    for (const id of city.structures) {
      const card = this.catalog.cards[id];
      (groups[card.color] = groups[card.color] || []).push(card);
    }
    const structures = h(
      "div.structures",
      null,
      this.catalog.colors
        .filter((col) => groups[col])
        .map((col) =>
          h(
            `div.col.${col}`,
            { title: t(`sw.color.${col}`) },
            groups[col].map((card) =>
              h(
                `button.chip.${col}`,
                { type: "button", title: `${card.name}: ${card.text}`, "data-card": card.id, onclick: () => this.cardDetail(card) },
                compact ? null : effectIcons(this.catalog, card.effect),
                h("span.chip-name", null, card.name),
              ),
            ),
          ),
        ),
    );
    const el = h(
      `section.city${compact ? ".compact" : ""}${own ? ".own" : ""}${city.deciding && !city.committed ? ".thinking" : ""}`,
      { "data-city": c, "aria-label": name },
      head,
      wonder,
      stats,
    );
    if (own) el.append(this.stagesPanel(city, stages));
    el.append(structures);
    return el;
  }

  stagesPanel(city, stages) {
    return h(
      "div.stages",
      null,
      stages.map((st, i) =>
        h(
          `div.stage${i < city.stages_built ? ".built" : ""}`,
          { title: `${t("sw.stage_n", { stage: i + 1 })}: ${st.text} (${t("sw.ui.cost", { cost: st.cost_text })})` },
          h("span.num", null, roman(i + 1)),
          costIcons(this.catalog, st.cost, st.coins),
          h("span.arrow-to", null, "→"),
          effectIcons(this.catalog, st.effect, st.text),
        ),
      ),
    );
  }

  /** A card's full text, cost, chains and (in the hand) why it cannot be built now. */
  cardDetail(card, why = null) {
    const name = (id) => this.catalog.cards[id].name;
    showDetail(
      card.name,
      h("p.detail-meta", null, t("sw.ui.detail_meta", { age: roman(card.age), color: t(`sw.color.${card.color}`) })),
      h("p", null, t("sw.ui.cost", { cost: card.cost_text })),
      h("p", null, card.text),
      card.chains_from.length ? h("p", null, t("sw.ui.chains_from", { cards: card.chains_from.map(name).join(", ") })) : null,
      card.chains_to.length ? h("p", null, t("sw.ui.chains_to", { cards: card.chains_to.map(name).join(", ") })) : null,
      why ? h("p.why", null, why) : null,
    );
  }

  wonderDetail(city, board) {
    const stages = board.sides[city.side];
    showDetail(
      `${board.wonder} (${board.name} ${city.side})`,
      h("p", null, t("sw.ui.starts_with", { resource: this.catalog.resources[board.start_resource] })),
      h(
        "ol.stage-list",
        null,
        stages.map((st, i) => h("li", null, `${st.text} (${t("sw.ui.cost", { cost: st.cost_text })})`, i < city.stages_built ? ` ✓` : null)),
      ),
    );
  }

  logPanel(p, v) {
    const events = v.log || [];
    const lines = logLines(p);
    const list = h(
      "ol.log",
      { "aria-label": t("ui.log") },
      events.map((e, i) =>
        h(
          `li${lines[i].private ? ".private" : ""}`,
          null,
          h("span.when", null, `${roman(e.age)}·${e.turn}`),
          " ",
          lines[i].text,
          lines[i].private ? h("span.only", null, ` ${t("sw.ui.only_you")}`) : null,
        ),
      ),
    );
    const panel = h("aside.logpanel", null, h("h3", null, t("ui.log")), list);
    requestAnimationFrame(() => {
      list.scrollTop = list.scrollHeight;
    });
    return panel;
  }

  // --- decisions -------------------------------------------------------------------------
  decision(p, v, mine) {
    const legal = v.legal || [];
    const box = h("section.decision", { "aria-label": t("sw.ui.hand") });
    const c = v.deciding_for ?? mine;
    const commit = (v.commitments || {})[String(c)] || (v.commitments || {})[String(mine)];
    if (commit && commit.choosing_payment) {
      box.append(this.paymentChoice(v, commit, legal));
      return box;
    }
    if (v.phase === "halikarnassus" && legal.length) {
      box.append(this.haliChoice(v, legal));
      return box;
    }
    const chosen = Object.values(this.words().chosen || {});
    if (chosen.length && !legal.length) {
      box.append(h("div.chosen-banner", { "data-testid": "chosen-banner" }, icon("check"), " ", t("sw.ui.your_choice", { choice: chosen.join("; ") })));
    }
    const forFree = legal.length && v.deciding_for !== null && v.deciding_for !== undefined && v.cities[v.deciding_for].seat === null;
    let title = forFree ? t("sw.ui.free_city_hand") : t("sw.ui.hand");
    if (this.opts.readOnly) title = t("sw.ui.hand_of", { name: this.seatName(p, v.seat) });
    box.append(h("h3", null, title));
    const hand = h("div.hand", { "data-testid": "hand" });
    const byCard = {};
    for (const a of legal) {
      const kind = this.kindOf(a.id);
      if (kind === "pay" || kind.startsWith("hali")) continue;
      const card = this.cardOf(a.id);
      (byCard[card.id] = byCard[card.id] || {})[kind] = a;
    }
    for (const id of v.hand || []) hand.append(this.handCard(v, id, byCard[id] || {}, legal.length > 0));
    box.append(hand);
    return box;
  }

  act(a) {
    if (this.busy || this.opts.readOnly || !this.opts.onAction) return;
    this.opts.onAction(a.id, actionLabel(this.p, a));
  }

  refuse(msg) {
    if (this.opts.onIllegal) this.opts.onIllegal(msg);
  }

  handCard(v, id, acts, deciding) {
    const card = this.catalog.cards[id];
    const w = this.words();
    const hint = (this.p.hints && this.p.hints.cards && this.p.hints.cards[id]) || null;
    const stageHint = (this.p.hints && this.p.hints.stage) || null;
    const canBuild = !!acts.build;
    const chain = hint && hint.chain;
    let buildNote = null;
    if (canBuild) {
      if (chain) buildNote = h("span.note", null, icon("chain", { cls: "sm" }), ` ${t("sw.ui.note_chain", { card: this.catalog.cards[chain].name })}`);
      else if (hint && hint.payments.length) {
        const [l, r] = hint.payments[0];
        buildNote = h(
          "span.note",
          null,
          payIcons(l, r, hint.coin_cost),
          hint.payments.length > 1 ? h("span.more", null, ` · ${tn("sw.ui.ways", hint.payments.length)}`) : null,
        );
      }
    }
    const notNow = t("sw.why.not_now");
    const reason = (w.reasons && w.reasons[id]) || notNow;
    const button = (kind, label, a, note, why, refusal) =>
      h(
        `button.act.${kind}${a ? "" : ".off"}`,
        {
          type: "button",
          "data-kind": kind,
          "data-card": id,
          "data-action": a ? a.id : null,
          "aria-disabled": a ? null : "true",
          title: a ? actionLabel(this.p, a) : why,
          onclick: (ev) => {
            ev.stopPropagation();
            if (a) this.act(a);
            else if (deciding) this.refuse(t(refusal, { card: card.name, why }));
          },
        },
        h("span.lbl", null, label),
        note,
      );
    const actions = h("footer.acts");
    if (deciding || canBuild) {
      actions.append(button("build", t("sw.btn.build"), acts.build, buildNote, reason, "sw.ui.refuse.build"));
      const stageNote =
        acts.stage && stageHint && stageHint.payments.length ? h("span.note", null, payIcons(stageHint.payments[0][0], stageHint.payments[0][1])) : null;
      const stageWhy = w.stage_reason || notNow;
      const stageLabel = stageHint && stageHint.number ? t("sw.btn.stage", { stage: roman(stageHint.number) }) : t("sw.btn.stage_any");
      actions.append(button("stage", stageLabel, acts.stage, stageNote, stageWhy, "sw.ui.refuse.stage"));
      const sellWhy = w.sell_reason || notNow;
      actions.append(
        button(
          "discard",
          t("sw.btn.sell"),
          acts.discard,
          h("span.note", null, "+", icon("coin", { text: 3, cls: "sm", label: tn("n.coin", 3) })),
          sellWhy,
          "sw.ui.refuse.sell",
        ),
      );
      if (acts.free) actions.append(button("free", t("sw.btn.free"), acts.free, h("span.note", null, t("sw.ui.olympia")), "", "sw.ui.refuse.build"));
    }
    const cls = !deciding ? "" : canBuild ? ".affordable" : ".unaffordable";
    return h(
      `article.card.${card.color}${cls}`,
      { "data-testid": "hand-card", "data-card": id, "aria-label": card.name, title: card.text },
      h(
        "button.card-head",
        { type: "button", title: card.text, onclick: () => this.cardDetail(card, deciding && !canBuild ? reason : null) },
        costIcons(this.catalog, card.cost, card.coins),
        h("span.card-name", null, card.name),
      ),
      h("div.card-body", null, effectIcons(this.catalog, card.effect, card.text), h("p.card-text", null, card.text)),
      card.chains_to.length || card.chains_from.length
        ? h(
            "div.chains",
            null,
            card.chains_from.length
              ? h(
                  "span",
                  null,
                  icon("chain", { cls: "sm", label: "" }),
                  " ",
                  t("sw.ui.chains_from", { cards: card.chains_from.map((c) => this.catalog.cards[c].name).join(", ") }),
                )
              : null,
            card.chains_to.length
              ? h("span", null, " ", t("sw.ui.chains_to", { cards: card.chains_to.map((c) => this.catalog.cards[c].name).join(", ") }))
              : null,
          )
        : null,
      deciding && !canBuild ? h("div.why", null, reason) : null,
      actions,
    );
  }

  paymentChoice(v, commit, legal) {
    const card = this.catalog.cards[commit.card];
    const opts = legal
      .filter((a) => this.kindOf(a.id) === "pay")
      .map((a) => {
        const k = a.id - this.A.PAY;
        return { a, l: Math.floor(k / this.A.PAY_BASE), r: k % this.A.PAY_BASE };
      })
      .sort((x, y) => x.l + x.r - (y.l + y.r) || x.l - y.l);
    const n = v.cities.length;
    const c = v.deciding_for ?? v.city;
    const leftName = this.cityName(this.p, v.cities[(c + 1) % n]);
    const rightName = this.cityName(this.p, v.cities[(c - 1 + n) % n]);
    return h(
      "div.paychoice",
      { "data-testid": "payment-choice" },
      h("h3", null, t("sw.ui.pay_title", { card: card.name })),
      h(
        "div.payopts",
        null,
        opts.map((o, i) =>
          h(
            "button.payopt",
            { type: "button", "data-kind": "pay", "data-action": o.a.id, title: actionLabel(this.p, o.a), onclick: () => this.act(o.a) },
            h("span.left", { title: t("sw.ui.to_left", { name: leftName }) }, "◀ ", icon("coin", { text: o.l, cls: "sm", label: tn("n.coin", o.l) })),
            h("span.right", { title: t("sw.ui.to_right", { name: rightName }) }, icon("coin", { text: o.r, cls: "sm", label: tn("n.coin", o.r) }), " ▶"),
            h("span.who", null, leftName),
            h("span.who", null, rightName),
            h("span.total", null, tn("sw.ui.pay_total", o.l + o.r)),
            i === 0 ? h("span.cheapest", null, t("sw.ui.cheapest")) : null,
          ),
        ),
      ),
    );
  }

  haliChoice(v, legal) {
    const pile = v.discard_pile || [];
    const byCard = {};
    let pass = null;
    for (const a of legal) {
      if (this.kindOf(a.id) === "hali_pass") pass = a;
      else byCard[this.cardOf(a.id).id] = a;
    }
    const seen = new Set();
    return h(
      "div.hali",
      null,
      h("h3", null, t("sw.ui.hali_title")),
      h(
        "div.hand",
        null,
        pile
          .filter((id) => !seen.has(id) && seen.add(id))
          .map((id) => {
            const card = this.catalog.cards[id];
            const a = byCard[id];
            return h(
              `article.card.${card.color}${a ? ".affordable" : ".unaffordable"}`,
              { "data-card": id, title: card.text },
              h("button.card-head", { type: "button", onclick: () => this.cardDetail(card) }, h("span.card-name", null, card.name)),
              h("div.card-body", null, effectIcons(this.catalog, card.effect, card.text), h("p.card-text", null, card.text)),
              h(
                "footer.acts",
                null,
                h(
                  `button.act.build${a ? "" : ".off"}`,
                  {
                    type: "button",
                    "data-kind": "hali",
                    "data-action": a ? a.id : null,
                    title: a ? actionLabel(this.p, a) : t("sw.why.owned", { card: card.name }),
                    onclick: () => (a ? this.act(a) : this.refuse(t("sw.ui.refuse.hali", { card: card.name }))),
                  },
                  t("sw.btn.hali"),
                ),
              ),
            );
          }),
      ),
      pass
        ? h("button.act.pass", { type: "button", "data-kind": "hali_pass", "data-action": pass.id, onclick: () => this.act(pass) }, t("sw.btn.hali_pass"))
        : null,
    );
  }

  // --- the end -----------------------------------------------------------------------------
  scores(p, v) {
    const r = v.result;
    const labels = this.words().scores || {};
    const cols = r.scores.map((_, s) => s);
    const freeCity = r.extra && r.extra.free_city;
    const winner = (s) => r.winners.includes(s);
    const table = h(
      "table.scores",
      { "data-testid": "scores" },
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, ""),
          cols.map((s) =>
            h(`th${winner(s) ? ".winner" : ""}`, null, winner(s) ? icon("crown", { cls: "sm", label: t("sw.ui.winner") }) : null, this.seatName(p, s)),
          ),
          freeCity ? h("th.fc", null, t("sw.free_city")) : null,
        ),
      ),
      h(
        "tbody",
        null,
        r.categories.map((cat) =>
          h(
            `tr.cat-${cat}`,
            null,
            h("th", null, icon(CATEGORY_ICON[cat] || "vp", { cls: "sm" }), " ", labels[cat] || t(`sw.score.${cat}`)),
            cols.map((s) => h("td", null, String(r.breakdown[s][cat]))),
            freeCity ? h("td.fc", null, String(freeCity.breakdown[cat])) : null,
          ),
        ),
        h(
          "tr.total",
          null,
          h("th", null, t("ui.total")),
          cols.map((s) => h(`td${winner(s) ? ".winner" : ""}`, null, String(r.scores[s]))),
          freeCity ? h("td.fc", null, String(freeCity.score)) : null,
        ),
        h(
          "tr.place",
          null,
          h("th", null, t("ui.place")),
          cols.map((s) => h("td", null, String(r.ranking[s] + 1))),
          freeCity ? h("td.fc", null, "—") : null,
        ),
      ),
    );
    const names = r.winners.map((s) => this.seatName(p, s)).join(", ");
    return h(
      "section.final",
      { "aria-label": t("ui.scores") },
      h("h2", null, t(r.winners.length > 1 ? "ui.winners" : "ui.winner", { players: names })),
      h("div.scores-wrap", null, table),
      this.opts.footer ? this.opts.footer() : null,
    );
  }
}
