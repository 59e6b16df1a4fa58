// The 7 Wonders table: renders one payload (built by the server from view(seat)) and turns
// clicks into action ids. Everything shown comes from the payload and the card catalog.

import { h, roman } from "./api.js";
import { icon, RESOURCE_ORDER } from "./icons.js";

const COLOR_LABEL = {
  brown: "raw materials",
  grey: "manufactured goods",
  blue: "civilian",
  green: "science",
  yellow: "commercial",
  red: "military",
  purple: "guilds",
};
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
  return icon(code, { label: catalog.resources[code] || code, cls });
}

/** Resource cost + coins as icons ("free" when nothing). */
export function costIcons(catalog, cost, coins) {
  const out = [];
  for (const code of RESOURCE_ORDER) {
    for (let i = 0; i < (cost[code] || 0); i++) out.push(resIcon(catalog, code, "sm"));
  }
  if (coins) out.push(icon("coin", { label: `${coins} coin${coins > 1 ? "s" : ""}`, text: coins, cls: "sm" }));
  if (!out.length) out.push(h("span.free", null, "free"));
  return h("span.cost", null, out);
}

function perText(per, what) {
  const things = per.count.map((c) => c.replace("_", " ")).join("/");
  const where = per.cities
    .map((c) => ({ self: "you", left: "◀", right: "▶" })[c] || c)
    .join(" ");
  return `${per.amount} ${what} per ${things} (${where})`;
}

/** A card's or stage's effect as icons, with a readable title. */
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
    for (let i = 0; i < effect.shields; i++) out.push(icon("shield", { label: "shield" }));
  }
  if (effect.vp) out.push(icon("vp", { label: `${effect.vp} victory points`, text: effect.vp }));
  if (effect.coins) out.push(icon("coin", { label: `${effect.coins} coins`, text: effect.coins }));
  if (effect.science) out.push(icon(effect.science, { label: effect.science }));
  if (effect.science_wild) out.push(icon("wild", { label: "science symbol of your choice" }));
  if (effect.trade_discount) {
    const d = effect.trade_discount;
    const sides = d.neighbours.map((n) => icon(n, { cls: "arrow", label: `${n} neighbour` }));
    out.push(
      h(
        "span.trade",
        { title: `buy ${d.resources.join(" ")} from ${d.neighbours.join(" and ")} for 1 coin` },
        d.neighbours.includes("left") ? sides[0] : null,
        d.resources.map((r) => resIcon(catalog, r, "sm")),
        icon("coin", { text: 1, cls: "sm" }),
        d.neighbours.includes("right") ? sides[sides.length - 1] : null,
      ),
    );
  }
  if (effect.coins_per) out.push(h("span.per", null, icon("coin", { cls: "sm" }), perText(effect.coins_per, "coin")));
  if (effect.vp_per) out.push(h("span.per", null, icon("vp", { cls: "sm" }), perText(effect.vp_per, "VP")));
  if (effect.power) out.push(h("span.power", null, effect.power.replaceAll("_", " ")));
  return h("span.effect", { title: text || null }, out);
}

function payText(l, r, coins = 0) {
  const parts = [];
  if (coins) parts.push(`${coins} to bank`);
  if (l) parts.push(`${l} ◀`);
  if (r) parts.push(`${r} ▶`);
  return parts.length ? `pay ${parts.join(" + ")}` : "no payment";
}

function payIcons(l, r, coins = 0) {
  const out = [];
  if (coins) out.push(icon("coin", { text: coins, cls: "sm", label: `${coins} coin(s) to the bank` }));
  if (l) out.push(h("span.pay", { title: `${l} coin(s) to your left neighbour` }, "◀", icon("coin", { text: l, cls: "sm" })));
  if (r) out.push(h("span.pay", { title: `${r} coin(s) to your right neighbour` }, icon("coin", { text: r, cls: "sm" }), "▶"));
  if (!out.length) out.push(h("span.free", { title: "your own resources cover it: no coins to pay" }, "no coins"));
  return out;
}

// --- the table -------------------------------------------------------------------------------
export class SevenWondersTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/seven-wonders/catalog
   * @param {{onAction?: (id:number, label:string)=>void, onIllegal?: (msg:string)=>void, readOnly?: boolean}} opts
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

  seatName(p, seat) {
    const s = p.seats && p.seats[seat];
    const base = `Player ${seat + 1}`;
    if (!s) return base;
    if (s.kind === "bot") return `${base} · ${s.bot} bot`;
    return s.name ? `${s.name}` : base;
  }

  cityName(p, city) {
    if (city.seat === null || city.seat === undefined) return "Free City";
    return this.seatName(p, city.seat);
  }

  render(p) {
    this.p = p;
    const v = p.view;
    const root = this.root;
    root.replaceChildren();
    root.classList.toggle("readonly", !!this.opts.readOnly);
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined ? v.city : null;
    root.append(this.topbar(p, v, mine));
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
      { "aria-label": "other cities" },
      others.map((c) => this.city(p, v, c, { compact: mine !== null, mine })),
    );
    const main = h("div.main");
    if (mine !== null) {
      main.append(this.city(p, v, mine, { compact: false, mine, own: true }));
    }
    main.append(this.logPanel(v));
    root.append(strip, main);
    if (mine !== null && !v.result) root.append(this.decision(p, v, mine));
  }

  topbar(p, v, mine) {
    const dir = v.direction === "right" ? "right" : "left";
    let status;
    const waiting = v.cities.filter((c) => c.deciding && !c.committed).map((c) => this.cityName(p, c));
    const you = v.seat;
    if (this.opts.readOnly) status = h("span.st.wait", null, v.result ? "Game over" : "Replay");
    else if (v.result) status = h("span.st.over", null, "Game over");
    else if (you !== null && v.legal && v.legal.length) status = h("span.st.yours", null, "Your move");
    else if (waiting.length) status = h("span.st.wait", null, `Waiting for ${waiting.join(", ")}`);
    else status = h("span.st", null, "…");
    const phase = {
      babylon_extra_step: "Babylon plays the seventh card",
      halikarnassus: "Halikarnassus builds from the discard pile",
    }[v.phase];
    return h(
      "header.topbar",
      null,
      h("span.age", { "data-testid": "age" }, `Age ${roman(v.age)}`),
      h("span.turn", null, `Turn ${v.turn} of 6`),
      h(
        "span.dir",
        { title: `cards pass to the ${dir}` },
        "pass ",
        icon(dir, { cls: "arrow", label: `to the ${dir}` }),
        ` ${dir}`,
      ),
      phase ? h("span.phase", null, phase) : null,
      h("span.discard", { title: "cards in the discard pile" }, `discard pile: ${v.discard_size}`),
      h("span.grow"),
      status,
    );
  }

  city(p, v, c, { compact, mine, own = false }) {
    const city = v.cities[c];
    const board = this.catalog.boards[city.board];
    const n = v.cities.length;
    let rel = null;
    if (mine !== null && !own) {
      if (c === (mine + 1) % n) rel = "left neighbour";
      if (c === (mine - 1 + n) % n) rel = rel ? "both neighbours" : "right neighbour";
    }
    let badge = null;
    if (city.deciding) {
      badge = city.committed
        ? h("span.badge.chosen", { "data-testid": "chosen" }, icon("check", { cls: "sm" }), "chosen")
        : h("span.badge.choosing", null, icon("hourglass", { cls: "sm" }), "choosing");
    }
    const stages = board.sides[city.side];
    const tokens = city.tokens || [];
    const wins = tokens.filter((t) => t > 0);
    const head = h(
      "header.city-head",
      null,
      h("span.city-name", null, this.cityName(p, city)),
      rel ? h("span.rel", null, rel) : null,
      badge,
    );
    const wonder = h(
      "div.wonder",
      { title: `${board.wonder} (side ${city.side}); starts with ${this.catalog.resources[board.start_resource]}` },
      resIcon(this.catalog, board.start_resource, "sm"),
      h("span.wname", null, `${board.name} ${city.side}`),
      h(
        "span.pips",
        { "aria-label": `${city.stages_built} of ${city.stages_total} wonder stages built` },
        stages.map((_, i) => h(`span.pip${i < city.stages_built ? ".built" : ""}`)),
      ),
    );
    const stats = h(
      "div.stats",
      null,
      icon("coin", { text: city.coins, label: `${city.coins} coins` }),
      icon("shield", { text: city.shields, label: `${city.shields} shields` }),
      h(
        "span.tokens",
        { title: `military: ${city.military_points} points` },
        wins.map((t) => icon("victory", { text: t, cls: "sm", label: `victory token ${t}` })),
        city.defeat_tokens ? icon("defeat", { text: city.defeat_tokens, cls: "sm", label: `${city.defeat_tokens} defeat tokens` }) : null,
      ),
      h(
        "span.sci",
        null,
        ["compass", "gear", "tablet"].map((s) =>
          city.science[s] ? icon(s, { text: city.science[s], cls: "sm", label: `${city.science[s]} ${s}` }) : null,
        ),
        city.science_wilds ? icon("wild", { text: city.science_wilds, cls: "sm" }) : null,
      ),
      city.seat !== null && !own && city.hand_size ? icon("cards", { text: city.hand_size, cls: "sm", label: `${city.hand_size} cards in hand` }) : null,
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
            { title: COLOR_LABEL[col] },
            groups[col].map((card) =>
              h(
                `span.chip.${col}`,
                { title: `${card.name}: ${card.text}`, "data-card": card.id },
                compact ? null : effectIcons(this.catalog, card.effect),
                h("span.chip-name", null, card.name),
              ),
            ),
          ),
        ),
    );
    const el = h(
      `section.city${compact ? ".compact" : ""}${own ? ".own" : ""}${city.deciding && !city.committed ? ".thinking" : ""}`,
      { "data-city": c, "aria-label": this.cityName(p, city) },
      head,
      wonder,
      stats,
    );
    if (own) el.append(this.stagesPanel(v, city, stages));
    el.append(structures);
    return el;
  }

  stagesPanel(v, city, stages) {
    return h(
      "div.stages",
      null,
      stages.map((st, i) =>
        h(
          `div.stage${i < city.stages_built ? ".built" : ""}`,
          { title: st.text },
          h("span.num", null, roman(i + 1)),
          costIcons(this.catalog, st.cost, st.coins),
          h("span.arrow-to", null, "→"),
          effectIcons(this.catalog, st.effect, st.text),
        ),
      ),
    );
  }

  logPanel(v) {
    const events = v.log || [];
    const list = h(
      "ol.log",
      { "aria-label": "game log" },
      events.map((e) =>
        h(
          `li${e.seat !== undefined ? ".private" : ""}`,
          null,
          h("span.when", null, `${roman(e.age)}·${e.turn}`),
          " ",
          e.text,
          e.seat !== undefined ? h("span.only", null, " (only you)") : null,
        ),
      ),
    );
    const panel = h("aside.logpanel", null, h("h3", null, "Game log"), list);
    requestAnimationFrame(() => {
      list.scrollTop = list.scrollHeight;
    });
    return panel;
  }

  // --- decisions -------------------------------------------------------------------------
  decision(p, v, mine) {
    const legal = v.legal || [];
    const box = h("section.decision", { "aria-label": "your hand" });
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
    if (commit && commit.action && !legal.length) {
      const card = this.catalog.cards[commit.card];
      const what = { build: `build ${card.name}`, stage: `build a wonder stage with ${card.name}`, discard: `discard ${card.name}` }[commit.action];
      box.append(
        h(
          "div.chosen-banner",
          { "data-testid": "chosen-banner" },
          icon("check"),
          ` You chose to ${what}`,
          commit.free ? ` (free: ${commit.free})` : ` (${payText(commit.pay_left, commit.pay_right)})`,
          " — waiting for the others.",
        ),
      );
    }
    const forFree = v.deciding_for === 0 && v.cities[0].seat === null;
    let title = forFree ? "The Free City's choice (its hand is yours this turn)" : legal.length ? "Your hand: choose a card" : "Your hand";
    if (this.opts.readOnly) title = `${this.seatName(p, v.seat)}'s hand`;
    box.append(h("h3", null, title));
    const hand = h("div.hand", { "data-testid": "hand" });
    const byCard = {};
    for (const a of legal) {
      const kind = this.kindOf(a.id);
      if (kind === "pay" || kind.startsWith("hali")) continue;
      const card = this.cardOf(a.id);
      (byCard[card.id] = byCard[card.id] || {})[kind] = a;
    }
    const seen = new Set();
    for (const id of v.hand || []) {
      hand.append(this.handCard(v, id, byCard[id] || {}, legal.length > 0, seen.has(id)));
      seen.add(id);
    }
    box.append(hand);
    return box;
  }

  act(a) {
    if (this.busy || this.opts.readOnly || !this.opts.onAction) return;
    this.opts.onAction(a.id, a.label);
  }

  refuse(msg) {
    if (this.opts.onIllegal) this.opts.onIllegal(msg);
  }

  handCard(v, id, acts, deciding, dup) {
    const card = this.catalog.cards[id];
    const hint = (this.p.hints && this.p.hints.cards && this.p.hints.cards[id]) || null;
    const stageHint = (this.p.hints && this.p.hints.stage) || null;
    const canBuild = !!acts.build;
    const chain = hint && hint.chain;
    let buildLabel = "Build";
    let buildNote = null;
    if (canBuild) {
      if (chain) buildNote = h("span.note", null, icon("chain", { cls: "sm" }), ` free (chain: ${chain})`);
      else if (hint && hint.payments.length) {
        const [l, r] = hint.payments[0];
        buildNote = h(
          "span.note",
          null,
          payIcons(l, r, hint.coin_cost),
          hint.payments.length > 1 ? h("span.more", null, ` · ${hint.payments.length} ways to pay`) : null,
        );
      }
    }
    const reason = hint && hint.reason ? hint.reason : "not possible now";
    const button = (kind, label, a, note, why) => {
      const b = h(
        `button.act.${kind}${a ? "" : ".off"}`,
        {
          type: "button",
          "data-kind": kind,
          "data-card": id,
          "data-action": a ? a.id : null,
          "aria-disabled": a ? null : "true",
          title: a ? a.label : why,
          onclick: (ev) => {
            ev.stopPropagation();
            if (a) this.act(a);
            else if (deciding) this.refuse(`You cannot ${label.toLowerCase()} ${card.name}: ${why}.`);
          },
        },
        h("span.lbl", null, label),
        note,
      );
      return b;
    };
    const actions = h("footer.acts");
    if (deciding || canBuild) {
      actions.append(button("build", buildLabel, acts.build, buildNote, reason));
      const stageNote =
        acts.stage && stageHint && stageHint.payments.length
          ? h("span.note", null, payIcons(stageHint.payments[0][0], stageHint.payments[0][1]))
          : null;
      const stageWhy = stageHint && stageHint.reason ? stageHint.reason : "no wonder stage can be built now";
      actions.append(button("stage", stageHint && stageHint.number ? `Stage ${roman(stageHint.number)}` : "Stage", acts.stage, stageNote, stageWhy));
      actions.append(button("discard", "Sell", acts.discard, h("span.note", null, "+", icon("coin", { text: 3, cls: "sm" })), "not possible now"));
      if (acts.free) actions.append(button("free", "Free build", acts.free, h("span.note", null, "Olympia"), ""));
    }
    const cls = !deciding ? "" : canBuild ? ".affordable" : ".unaffordable";
    return h(
      `article.card.${card.color}${cls}`,
      { "data-testid": "hand-card", "data-card": id, "aria-label": card.name, title: card.text },
      h("header.card-head", null, costIcons(this.catalog, card.cost, card.coins), h("span.card-name", null, card.name)),
      h("div.card-body", null, effectIcons(this.catalog, card.effect, card.text)),
      card.chains_to.length || card.chains_from.length
        ? h(
            "div.chains",
            null,
            card.chains_from.length ? h("span", { title: "free if you own" }, icon("chain", { cls: "sm" }), card.chains_from.map((c) => this.catalog.cards[c].name).join(", ")) : null,
            card.chains_to.length ? h("span", { title: "makes free" }, " → ", card.chains_to.map((c) => this.catalog.cards[c].name).join(", ")) : null,
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
    const what = commit.action === "stage" ? `the wonder stage (with ${card.name})` : card.name;
    const n = v.cities.length;
    const c = v.deciding_for ?? v.city;
    const leftName = this.cityName(this.p, v.cities[(c + 1) % n]);
    const rightName = this.cityName(this.p, v.cities[(c - 1 + n) % n]);
    return h(
      "div.paychoice",
      { "data-testid": "payment-choice" },
      h("h3", null, `How do you pay for ${what}?`),
      h(
        "div.payopts",
        null,
        opts.map((o, i) =>
          h(
            "button.payopt",
            { type: "button", "data-kind": "pay", "data-action": o.a.id, title: o.a.label, onclick: () => this.act(o.a) },
            h("span.left", { title: `to ${leftName} (left)` }, "◀ ", icon("coin", { text: o.l, cls: "sm" })),
            h("span.right", { title: `to ${rightName} (right)` }, icon("coin", { text: o.r, cls: "sm" }), " ▶"),
            h("span.who", null, leftName),
            h("span.who", null, rightName),
            h("span.total", null, `${o.l + o.r} coin${o.l + o.r === 1 ? "" : "s"}`),
            i === 0 ? h("span.cheapest", null, "cheapest") : null,
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
      h("h3", null, "Halikarnassus: build one card from the discard pile for free"),
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
              h("header.card-head", null, h("span.card-name", null, card.name)),
              h("div.card-body", null, effectIcons(this.catalog, card.effect, card.text)),
              h(
                "footer.acts",
                null,
                h(
                  `button.act.build${a ? "" : ".off"}`,
                  { type: "button", "data-kind": "hali", "data-action": a ? a.id : null, onclick: () => (a ? this.act(a) : this.refuse(`You already have ${card.name}.`)) },
                  "Build free",
                ),
              ),
            );
          }),
      ),
      pass ? h("button.act.pass", { type: "button", "data-kind": "hali_pass", "data-action": pass.id, onclick: () => this.act(pass) }, "Take nothing") : null,
    );
  }

  // --- the end -----------------------------------------------------------------------------
  scores(p, v) {
    const r = v.result;
    const seatsN = r.scores.length;
    const cols = [];
    for (let s = 0; s < seatsN; s++) cols.push(s);
    const freeCity = r.extra && r.extra.free_city;
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
          cols.map((s) => h(`th${r.winners.includes(s) ? ".winner" : ""}`, null, r.winners.includes(s) ? icon("crown", { cls: "sm", label: "winner" }) : null, this.seatName(p, s))),
          freeCity ? h("th.fc", null, "Free City") : null,
        ),
      ),
      h(
        "tbody",
        null,
        r.categories.map((cat) =>
          h(
            `tr.cat-${cat}`,
            null,
            h("th", null, icon(CATEGORY_ICON[cat] || "vp", { cls: "sm" }), " ", cat),
            cols.map((s) => h("td", null, String(r.breakdown[s][cat]))),
            freeCity ? h("td.fc", null, String(freeCity.breakdown[cat])) : null,
          ),
        ),
        h(
          "tr.total",
          null,
          h("th", null, "Total"),
          cols.map((s) => h(`td${r.winners.includes(s) ? ".winner" : ""}`, null, String(r.scores[s]))),
          freeCity ? h("td.fc", null, String(freeCity.score)) : null,
        ),
        h(
          "tr.place",
          null,
          h("th", null, "Place"),
          cols.map((s) => h("td", null, `${r.ranking[s] + 1}${["st", "nd", "rd"][r.ranking[s]] || "th"}`)),
          freeCity ? h("td.fc", null, "—") : null,
        ),
      ),
    );
    const names = r.winners.map((s) => this.seatName(p, s)).join(" and ");
    return h(
      "section.final",
      { "aria-label": "final scores" },
      h("h2", null, `${names} win${r.winners.length > 1 ? "" : "s"}!`),
      table,
      this.opts.footer ? this.opts.footer() : null,
    );
  }
}
