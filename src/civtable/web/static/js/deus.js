// The Deus table: the prompt bar (what to do now, with Back/Cancel while a construction or an
// offering is still open), the continent with every region numbered and named, the players'
// boards (columns of cards with their full names, buildings, resources, gold, VP when visible),
// your hand with Construct / Offer buttons (or why a card cannot be built, and what an offering
// gives now), the log and the final scores. Every word comes from the payload's player words
// (payload.words, made by civtable.games.deus.words on the server), the deus catalogue (t/tn)
// and the card catalogue; clicks send ids from view.legal.

import { h } from "./api.js";
import { has, loadLanguage, t, tn } from "./i18n.js";
import { hexMap } from "./hexmap.js";
import { actionLabel, confirmMove, logLines, playerName, promptBar, showDetail } from "./ui.js";

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
// the piece types drawn on the map, each as a letter of the catalogue (deus.ui.letter.<piece>),
// explained by the legend under the map
const PIECE_KINDS = ["civ", "sci", "ship", "army", "prod", "temple"];
const pieceLetter = (piece) => (PIECE_KINDS.includes(piece) ? t(`deus.ui.letter.${piece}`) : "");
const PROMPT_KINDS = new Set(["DONE", "PAY", "RES", "PIECE", "AMOUNT", "CARD", "COLUMN"]);
const HAND_KINDS = new Set(["BUILD", "OFFER", "ADD", "BLIND"]);
const MAP_KINDS = new Set(["REGION", "EDGE"]);

let catalogueAsked = false;

export class DeusTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/deus/catalog
   * @param {{onAction?: (id:number, label:string)=>void, onCancel?: (steps?:number)=>void,
   *          readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.A = catalog.actions;
    this.byIndex = [];
    for (const c of Object.values(catalog.cards)) this.byIndex[c.index] = c;
    this.order = Object.entries(this.A)
      .filter(([k]) => k !== "SPACE")
      .sort((x, y) => x[1] - y[1]);
    this.busy = false;
    this.showLegend = false;
  }

  /** [kind, argument] of an action id, e.g. ["REGION", 12]. */
  kind(a) {
    let found = null;
    for (const [k, lo] of this.order) if (a >= lo) found = [k, a - lo];
    return found;
  }

  act(a, label = "") {
    if (this.opts.readOnly || this.busy || !this.opts.onAction) return;
    this.opts.onAction(a.id, label || actionLabel(this.p, a));
  }

  words() {
    return (this.p && this.p.words) || {};
  }

  card(id) {
    return this.catalog.cards[String(id).replace(/\*$/, "")];
  }

  render(p) {
    this.p = p;
    const v = p.view;
    if (!has("deus.ui.deck") && !catalogueAsked) {
      // a page that did not load the Deus words (the replay viewer): load them, then redraw
      catalogueAsked = true;
      loadLanguage(["common", "deus"])
        .then(() => this.p && this.render(this.p))
        .catch(() => {});
    }
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    this.root.classList.add("deus-table");
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const legal = mine && !this.opts.readOnly && !v.result ? v.legal || [] : [];
    const targets = new Map();
    for (const a of legal) {
      const k = this.kind(a.id);
      if (k && MAP_KINDS.has(k[0]) && !targets.has(k[1])) targets.set(k[1], { a, edge: k[0] === "EDGE" });
    }
    this.root.append(this.prompt(p, v, legal));
    this.root.append(this.topbar(p, v));
    if (v.result) this.root.append(this.scores(p, v.result));
    const board = h("section.deus-map.panel", { "aria-label": t("deus.ui.map") }, this.map(v, targets), this.targetList(targets), this.legend());
    const side = h("section.deus-players", { "aria-label": t("deus.ui.players") }, v.player_states.map((ps) => this.playerBoard(p, v, ps)));
    // desktop: the map on the left, your hand then the players on the right; phones: the hand
    // first (the decision), then the map, the players and the log
    this.root.append(h(`div.deus-main${targets.size ? ".map-first" : ""}`, null, board, mine && v.hand ? this.hand(v, legal) : null, side));
    this.root.append(this.log(p));
  }

  // --- the decision ------------------------------------------------------------------------
  prompt(p, v, legal) {
    const w = this.words();
    const yours = legal.length > 0;
    const rest = legal.filter((a) => {
      const k = this.kind(a.id);
      return k && PROMPT_KINDS.has(k[0]);
    });
    const many = rest.length > 7;
    const previews = w.previews || {};
    const actions = rest.map((a) => {
      const k = this.kind(a.id);
      const label = actionLabel(p, a);
      const preview = previews[String(a.id)];
      let text = label;
      if (k[0] === "AMOUNT" && many) text = k[1] === 0 ? label : String(k[1]);
      if (preview && k[0] === "DONE" && v.phase !== "offering") text = `${label}: ${preview}`;
      if (preview && k[0] === "CARD") text = `${label} (${preview})`;
      return {
        id: a.id,
        label: text,
        title: text !== label ? label : null,
        primary: k[0] === "DONE" && v.phase === "offering",
        onclick: () => this.act(a, label),
      };
    });
    let hint = w.hint || "";
    if (v.phase === "pick_pieces" && v.my_picks) {
      const picked = Object.entries(v.my_picks)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => tn(`deus.n.piece.${k}`, n));
      if (picked.length) hint = `${hint} ${t("deus.ui.picked", { what: picked.join(", ") })}`;
    }
    return promptBar(p, {
      text: w.prompt || "",
      hint,
      actions,
      busy: this.busy,
      tone: yours ? "yours" : "",
      onBack: this.opts.onCancel && !this.opts.readOnly ? (n) => this.opts.onCancel(n) : null,
      onCancel: this.opts.onCancel && !this.opts.readOnly ? () => this.opts.onCancel() : null,
    });
  }

  topbar(p, v) {
    const w = this.words();
    const top = v.discard_top ? this.card(v.discard_top) : null;
    const supply = Object.entries(v.supply).map(([r, n]) => tn(`deus.n.${r}`, n));
    return h(
      "header.topbar.deus-top",
      null,
      h("span.age", { "data-testid": "round" }, w.round || ""),
      h("span.discard", null, t("deus.ui.deck", { n: v.deck_size })),
      h("span.discard", null, t("deus.ui.discard", { n: v.discard_size })),
      top
        ? h(
            "button.linkish.deus-top-card",
            { type: "button", title: `${top.name}: ${top.text}`, onclick: () => this.cardDetail(top) },
            t("deus.ui.top_card"),
            " ",
            h("b", { style: `color:${COLOR_FILL[top.color]}` }, top.name),
          )
        : null,
      h("span.discard", { title: t("deus.ui.temples_title") }, t("deus.ui.temples_left", { n: v.temples_left })),
      h("span.discard", { title: t("deus.ui.supply_title") }, t("deus.ui.supply", { what: supply.join(", ") })),
      h("a.button.small", { href: "/rules/deus", target: "_blank", rel: "noopener" }, t("ui.rules")),
    );
  }

  // --- the map -----------------------------------------------------------------------------
  map(v, targets) {
    const w = this.words();
    const places = w.places || [];
    const titles = w.regions || [];
    const villages = new Map(v.villages.map((x) => [x.id, x]));
    const cells = v.regions.map((reg, i) => {
      const marks = [];
      const village = villages.get(reg.id);
      if (village) {
        marks.push({
          color: village.attacked ? "#555" : "#f4d03f",
          ink: village.attacked ? null : "#222",
          text: village.attacked ? "✕" : village.vp,
          title: titles[i] || "",
        });
      }
      for (const piece of reg.pieces) {
        const name = t(`deus.piece.${piece}`);
        marks.push({
          color: piece === "temple" ? "#ecf0f1" : SEAT_COLORS[reg.owner] || "#333",
          ink: piece === "temple" ? "#222" : null,
          shape: piece === "temple" ? "square" : "circle",
          text: pieceLetter(piece),
          cls: piece === "temple" ? "temple" : "",
          title: reg.owner !== null && reg.owner !== undefined ? `${name} · ${playerName(this.p, reg.owner)}` : name,
        });
      }
      const target = targets.get(i);
      const label = target ? actionLabel(this.p, target.a) : "";
      const title = [titles[i] || places[i] || "", label && label !== places[i] ? `→ ${label}` : ""].filter(Boolean).join("\n");
      return {
        q: reg.q,
        r: reg.r,
        fill: TERRAIN_FILL[reg.terrain] || "#ccc",
        label: String(i + 1),
        title,
        cls: `${reg.terrain}${target ? " target" : ""}${target && target.edge ? " edge-target" : ""}${reg.owner !== null && reg.owner !== undefined ? ` owned owner-${reg.owner}` : ""}`,
        data: { region: i + 1, testid: target ? "target" : null, action: target ? target.a.id : null },
        marks,
        onclick: target ? () => this.pickRegion(target, label) : () => this.regionDetail(v, i),
      };
    });
    const svg = hexMap(cells, { size: 28, ariaLabel: t("deus.ui.map_label") });
    // owned regions get their owner's colour as an outline
    for (const g of svg.querySelectorAll("g.cell.owned")) {
      const owner = Number((g.getAttribute("class").match(/owner-(\d)/) || [])[1]);
      const poly = g.querySelector("polygon");
      if (poly && SEAT_COLORS[owner]) poly.setAttribute("stroke", SEAT_COLORS[owner]);
    }
    return svg;
  }

  async pickRegion(target, label) {
    if (this.opts.readOnly || this.busy) return;
    if (target.edge) {
      const ok = await confirmMove(t("deus.ui.confirm_edge", { choice: label }), { confirmLabel: t("deus.ui.confirm_edge_yes") });
      if (!ok) return;
    }
    this.act(target.a, label);
  }

  /** The same choices as buttons (for touch screens and keyboards), under the map. */
  targetList(targets) {
    if (!targets.size) return null;
    const items = [...targets.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([, target]) => {
        const label = actionLabel(this.p, target.a);
        return h(
          `button.act.deus-target${target.edge ? ".edge" : ""}`,
          { type: "button", "data-action": target.a.id, disabled: this.busy, onclick: () => this.pickRegion(target, label) },
          label,
        );
      });
    return h("div.deus-targets", { role: "group", "aria-label": t("deus.ui.targets") }, h("span.deus-targets-head", null, t("deus.ui.targets")), items);
  }

  legend() {
    const terrains = ["field", "forest", "swamp", "mountain", "sea", "village"];
    const res = this.catalog.land_resource || {};
    const swatches = terrains.map((x) =>
      h(
        "li",
        null,
        h("span.sw", { style: `background:${TERRAIN_FILL[x]}` }),
        res[x] ? t("deus.ui.legend_land", { land: t(`deus.terrain.${x}`), res: t(`deus.res.${res[x]}`) }) : t(`deus.terrain.${x}`),
      ),
    );
    const pieces = PIECE_KINDS.map((k) => h("li", null, h(`span.pc${k === "temple" ? ".temple" : ""}`, null, pieceLetter(k)), t(`deus.piece.${k}`)));
    const extra = [
      h("li", null, h("span.pc.village", null, "5"), t("deus.ui.legend_village")),
      h("li", null, h("span.pc.attacked", null, "✕"), t("deus.ui.legend_attacked")),
      h("li", null, h("span.sw.target"), t("deus.ui.legend_target")),
      h("li", null, h("span.sw.edge"), t("deus.ui.legend_edge")),
      h("li", null, h("span.num", null, "12"), t("deus.ui.legend_number")),
    ];
    const players = (this.p.view.player_states || []).map((ps) => h("li", null, h("span.pc", { style: `background:${SEAT_COLORS[ps.seat]}` }, ""), playerName(this.p, ps.seat)));
    const nowByGod = this.words().gods || {};
    const gods = this.catalog.colors.map((color) => {
      const god = this.catalog.gods[color];
      const now = (nowByGod[color] || {}).now;
      return h(
        "li.deus-god",
        null,
        h("span.sw", { style: `background:${COLOR_FILL[color]}` }),
        h("span", null, h("b", null, god.name), ` (${t(`deus.color.${color}`)}): ${god.text}`, now ? h("span.deus-god-now", null, ` ${now}.`) : null),
      );
    });
    return h(
      "details.deus-legend",
      { open: this.showLegend || null, ontoggle: (ev) => (this.showLegend = ev.target.open) },
      h("summary", null, t("deus.ui.legend")),
      h("ul", null, swatches, pieces, extra, players),
      h("h4", null, t("deus.ui.gods")),
      h("ul.deus-gods", null, gods),
    );
  }

  regionDetail(v, i) {
    const w = this.words();
    const title = (w.places || [])[i] || String(i + 1);
    const full = (w.regions || [])[i] || "";
    // the description starts with the name, already the popup's title
    const text = full.startsWith(title) ? full.slice(title.length).replace(/^\s*·\s*/, "") : full;
    const reg = v.regions[i];
    const rule = reg.terrain === "village" ? t("deus.ui.rule_village") : reg.terrain === "sea" ? t("deus.ui.rule_sea") : t("deus.ui.rule_land");
    showDetail(title, h("p", null, text), h("p.deus-rule", null, rule));
  }

  // --- the players -------------------------------------------------------------------------
  cardDetail(c, extra = []) {
    const god = this.catalog.gods[c.color];
    const body = [
      h("p.deus-detail-cost", null, t("deus.ui.cost", { cost: c.cost_text })),
      h("p", null, c.text),
      ...extra.filter(Boolean).map((x) => h("p.deus-now", null, x)),
    ];
    if (god) body.push(h("p.deus-rule", null, t("deus.ui.god_of_card", { god: god.name, color: t(`deus.color.${c.color}`) }), " ", god.text));
    showDetail(c.name, ...body);
  }

  cardChip(id, seat) {
    if (id === "blind") {
      return h("button.deus-card.blind", { type: "button", title: t("deus.ui.blind_title"), onclick: () => showDetail(t("deus.ui.blind"), h("p", null, t("deus.ui.blind_title"))) }, t("deus.ui.blind"));
    }
    const own = id.endsWith("*");
    const c = this.card(id);
    if (!c) return null;
    const now = ((this.words().now || [])[seat] || {})[c.id];
    const title = [`${c.name}: ${c.text}`, now, own ? t("deus.ui.own_blind") : ""].filter(Boolean).join("\n");
    return h(
      `button.deus-card.c-${c.color}`,
      { type: "button", title, "data-card": c.id, onclick: () => this.cardDetail(c, [now, own ? t("deus.ui.own_blind") : ""]) },
      c.name,
      own ? h("span.own-blind", null, ` (${t("deus.ui.face_down")})`) : null,
    );
  }

  playerBoard(p, v, ps) {
    const you = ps.seat === v.seat;
    const cols = this.catalog.colors.map((color) =>
      h(
        `div.deus-col.c-${color}`,
        { "data-color": color },
        h("span.col-head", { style: `background:${COLOR_FILL[color]}`, title: t(`deus.color.${color}`) }, t(`deus.column.${color}`)),
        (ps.columns[color] || []).map((id) => this.cardChip(id, ps.seat)),
      ),
    );
    const pieces = Object.entries(ps.board_pieces).map(([k, n]) =>
      h(
        "span.piece",
        { title: t("deus.ui.pieces_title", { piece: t(`deus.piece.${k}`), board: n, supply: ps.personal_supply[k] }) },
        h("span.pc", { style: `background:${SEAT_COLORS[ps.seat]}` }, pieceLetter(k)),
        ` ${t(`deus.piece.${k}`)} `,
        h("b", null, n),
        h("span.supply", null, ` (+${ps.personal_supply[k]})`),
      ),
    );
    const vpText = ps.vp === null || ps.vp === undefined ? t("deus.ui.vp_secret") : tn("deus.n.vp", ps.vp);
    const status = [];
    if (v.current === ps.seat && !v.result) status.push(h("span.deus-turn", null, t("deus.ui.their_turn")));
    if (ps.picked !== null && ps.picked !== undefined) status.push(h("span.deus-turn", null, t("deus.ui.picked_n", { n: ps.picked })));
    if (ps.blind_used) status.push(h("span.deus-flag", { title: t("deus.ui.blind_used_title") }, t("deus.ui.blind_used")));
    return h(
      `article.deus-player${you ? ".you" : ""}${v.current === ps.seat ? ".current" : ""}`,
      { "data-seat": ps.seat, style: `border-color:${SEAT_COLORS[ps.seat]}` },
      h(
        "header",
        null,
        h("span.swatch", { style: `background:${SEAT_COLORS[ps.seat]}` }),
        h("b", null, playerName(p, ps.seat)),
        you ? h("span.you-tag", null, ` (${t("player.you")})`) : null,
        v.first_player === ps.seat ? h("span.first", { title: t("deus.ui.first_player") }, ` ${t("deus.ui.first")}`) : null,
        status,
      ),
      h(
        "div.stats",
        null,
        h("span.gold", { title: t("deus.gold") }, tn("deus.n.gold", ps.gold)),
        h("span.vp", { title: t("deus.ui.vp_title"), "data-testid": you ? "my-vp" : null }, vpText),
        Object.entries(ps.resources).map(([r, n]) => h(`span.res.r-${r}`, null, tn(`deus.n.${r}`, n))),
        h("span", null, tn("deus.ui.hand_n", ps.hand_size)),
      ),
      h("div.pieces", { title: t("deus.ui.pieces_help") }, h("span.pieces-head", null, t("deus.ui.on_board")), pieces),
      h("div.deus-cols", null, cols),
    );
  }

  // --- your hand ---------------------------------------------------------------------------
  hand(v, legal) {
    const w = this.words();
    const by = new Map();
    for (const a of legal) {
      const k = this.kind(a.id);
      if (!k || !HAND_KINDS.has(k[0])) continue;
      const c = this.byIndex[k[1]];
      if (!by.has(c.id)) by.set(c.id, {});
      by.get(c.id)[k[0]] = a;
    }
    const reasons = w.reasons || {};
    const previews = w.previews || {};
    const seen = new Set();
    const main = v.phase === "main" && legal.length > 0;
    const cards = v.hand.map((id) => {
      const c = this.card(id);
      const acts = by.get(id) || {};
      const first = !seen.has(id);
      seen.add(id);
      const god = this.catalog.gods[c.color];
      const button = (key, text, extra = {}) =>
        first && acts[key]
          ? h(
              `button.act.${key.toLowerCase()}${extra.primary ? ".primary" : ""}`,
              {
                type: "button",
                "data-action": acts[key].id,
                "data-kind": key.toLowerCase(),
                title: extra.title || actionLabel(this.p, acts[key]),
                disabled: this.busy,
                onclick: () => this.act(acts[key]),
              },
              text,
            )
          : null;
      const buttons = [
        button("BUILD", t("deus.ui.construct")),
        button("OFFER", t("deus.ui.offer_to", { god: god ? god.name : "" }), {
          title: god && acts.OFFER ? [`${god.name}: ${previews[String(acts.OFFER.id)] || ""}`, god.text].join("\n") : null,
        }),
        button("ADD", t("deus.ui.add")),
        button("BLIND", t("deus.ui.build_blind"), { title: t("deus.ui.blind_help") }),
      ].filter(Boolean);
      const notes = [];
      if (main && first && !acts.BUILD && reasons[id]) notes.push(h("p.why", { "data-testid": "why" }, reasons[id]));
      if (first && acts.BUILD && previews[String(acts.BUILD.id)]) notes.push(h("p.preview", null, previews[String(acts.BUILD.id)]));
      if (first && acts.OFFER && previews[String(acts.OFFER.id)]) notes.push(h("p.preview.offer", null, `${god ? god.name : ""}: ${previews[String(acts.OFFER.id)]}`));
      if (first && acts.ADD && previews[String(acts.ADD.id)]) notes.push(h("p.preview.offer", null, previews[String(acts.ADD.id)]));
      return h(
        `div.deus-hand-card.c-${c.color}`,
        { "data-testid": "hand-card", "data-card": id },
        h(
          "button.name",
          { type: "button", style: `border-color:${COLOR_FILL[c.color]}`, title: t("deus.ui.card_more"), onclick: () => this.cardDetail(c) },
          c.name,
        ),
        h("div.cost", null, t("deus.ui.cost", { cost: c.cost_text })),
        h("div.text", null, c.text),
        notes,
        buttons.length ? h("div.acts", null, buttons) : null,
      );
    });
    const offering = v.offering && v.offering.length
      ? h(
          "div.deus-offering",
          { "data-testid": "offering" },
          h("b", null, t("deus.ui.offering", { god: (this.catalog.gods[this.card(v.offering[0]).color] || {}).name || "" })),
          " ",
          v.offering.map((id, i) => h(`span.deus-card.c-${this.card(id).color}${i === 0 ? ".top" : ""}`, { title: this.card(id).text }, this.card(id).name, i === 0 ? ` (${t("deus.ui.on_top")})` : "")),
        )
      : null;
    const me = v.player_states.find((ps) => ps.seat === v.seat) || {};
    const stock = [tn("deus.n.gold", me.gold || 0), me.vp === null || me.vp === undefined ? null : tn("deus.n.vp", me.vp)]
      .concat(Object.entries(me.resources || {}).map(([r, n]) => tn(`deus.n.${r}`, n)))
      .filter(Boolean);
    return h(
      "section.deus-hand",
      { "aria-label": t("deus.ui.your_hand") },
      h("h3", null, tn("deus.ui.hand_title", v.hand.length), h("span.deus-stock", { title: t("deus.ui.stock_title") }, stock.join(" · "))),
      offering,
      h("div.deus-hand-cards", null, cards),
    );
  }

  // --- log and scores ----------------------------------------------------------------------
  log(p) {
    const lines = logLines(p).filter((l) => l.text);
    const list = h(
      "ol.log",
      { "aria-label": t("ui.log") },
      lines.map((l) => h(`li${l.private ? ".private" : ""}`, null, l.text)),
    );
    requestAnimationFrame(() => {
      list.scrollTop = list.scrollHeight;
    });
    return h("aside.logpanel.deus-log", null, h("h3", null, t("ui.log")), list);
  }

  scores(p, r) {
    const w = this.words();
    const labels = w.scores || {};
    const seats = r.scores.map((_, s) => s);
    const winner = (s) => r.winners.includes(s);
    const names = r.winners.map((s) => playerName(p, s));
    const head = names.length > 1 ? t("ui.winners", { players: names.join(", ") }) : t("ui.winner", { players: names[0] || "" });
    return h(
      "section.final",
      { "aria-label": t("ui.scores") },
      h("h2", null, head),
      h(
        "div.deus-scroll",
        null,
        h(
          "table.scores",
          { "data-testid": "scores" },
          h("thead", null, h("tr", null, h("th", null, ""), seats.map((s) => h(`th${winner(s) ? ".winner" : ""}`, null, playerName(p, s))))),
          h(
            "tbody",
            null,
            r.categories.map((cat) => h("tr", null, h("th", null, labels[cat] || ""), seats.map((s) => h("td", null, String(r.breakdown[s][cat] ?? 0))))),
            h("tr.total", null, h("th", null, t("ui.total")), seats.map((s) => h(`td${winner(s) ? ".winner" : ""}`, null, String(r.scores[s])))),
            h("tr.place", null, h("th", null, t("ui.place")), seats.map((s) => h("td", null, String(r.ranking[s] + 1)))),
          ),
        ),
      ),
      this.opts.footer ? this.opts.footer() : null,
    );
  }
}
