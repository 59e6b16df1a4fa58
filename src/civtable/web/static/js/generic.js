// The generic table: draws any game from what every game provides — the seat's legal actions,
// the log and the final result, in the player words the server makes from the view
// (payload.words: labels, log lines, prompt, score categories; see docs/presentation.md) — so a
// game is playable in the browser before it has a dedicated view. The raw view is kept for
// developers in a collapsed section marked data-dev (the vocabulary scanner skips it).
//
// It also exports the pieces every table shares: statusBadge, scoresSection, logPanel, seatName.

import { h } from "./api.js";
import { gameName, t, tn } from "./i18n.js";
import { actionLabel, playerName, promptBar } from "./ui.js";

const SKIP = new Set(["legal", "log", "result", "game"]);
const MANY = 12; // more legal actions than this: show a filter box

/** A key as words, for the developer section and for a score category without a label. */
function humanize(key) {
  return String(key).replace(/_/g, " ");
}

/** A seat's name as the table shows it: the name typed, or "Player N" / "Bot N (level)". */
export function seatName(p, seat) {
  return playerName(p, seat);
}

function isScalar(x) {
  return x === null || ["string", "number", "boolean"].includes(typeof x);
}

function scalarText(x) {
  if (x === null) return "—";
  if (x === true) return "yes";
  if (x === false) return "no";
  return String(x);
}

/** Any JSON value as nested, readable HTML (tables for lists of similar records); for the
 *  developer section only: its words are the engine's. */
export function jsonBlock(value, depth = 0) {
  if (isScalar(value)) return h("span.val", null, scalarText(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span.val.empty", null, "none");
    if (value.every(isScalar)) return h("span.val", null, value.map(scalarText).join(", "));
    if (value.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      const keys = [...new Set(value.flatMap((x) => Object.keys(x)))];
      return h(
        "table.records",
        null,
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            h("th", null, "#"),
            keys.map((k) => h("th", null, humanize(k))),
          ),
        ),
        h(
          "tbody",
          null,
          value.map((row, i) =>
            h(
              "tr",
              null,
              h("th", null, String(i + 1)),
              keys.map((k) => h("td", null, k in row ? jsonBlock(row[k], depth + 1) : "")),
            ),
          ),
        ),
      );
    }
    return h(
      "ol.list",
      null,
      value.map((x) => h("li", null, jsonBlock(x, depth + 1))),
    );
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span.val.empty", null, "none");
  const dl = h(
    "dl.fields",
    null,
    entries.map(([k, v]) => [h("dt", null, humanize(k)), h("dd", null, jsonBlock(v, depth + 1))]),
  );
  return depth >= 2 ? h("details", null, h("summary", null, `${entries.length} fields`), dl) : dl;
}

/** The status badge of a table's top bar: game over, your move, or whom the table waits for. */
export function statusBadge(p, v, readOnly, yours) {
  const waiting = (v.to_move || []).filter((s) => s !== v.seat);
  if (readOnly) return h("span.st.wait", null, t(v.result ? "status.over" : "status.replay"));
  if (v.result) return h("span.st.over", null, t("status.over"));
  if (yours) return h("span.st.yours", null, t("status.your_move"));
  if (waiting.length) return h("span.st.wait", null, t("status.waiting", { players: waiting.map((s) => seatName(p, s)).join(", ") }));
  return h("span.st", null, "…");
}

/** The final scores with their per-category breakdown (rows labelled by `words.scores`) and
 *  places. */
export function scoresSection(p, r, footer) {
  const seats = r.scores.map((_, s) => s);
  const winner = (s) => r.winners.includes(s);
  const labels = (p && p.words && p.words.scores) || {};
  const names = r.winners.map((s) => seatName(p, s)).join(", ");
  return h(
    "section.final",
    { "aria-label": t("ui.scores") },
    h("h2", null, t(r.winners.length > 1 ? "ui.winners" : "ui.winner", { players: names })),
    h(
      "div.scores-wrap",
      null,
      h(
        "table.scores",
        { "data-testid": "scores" },
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            h("th", null, ""),
            seats.map((s) => h(`th${winner(s) ? ".winner" : ""}`, null, seatName(p, s))),
          ),
        ),
        h(
          "tbody",
          null,
          r.categories.map((cat) =>
            h(
              "tr",
              { "data-category": cat },
              h("th", null, labels[cat] || humanize(cat)),
              seats.map((s) => h("td", null, String(r.breakdown[s][cat] ?? 0))),
            ),
          ),
          h(
            "tr.total",
            null,
            h("th", null, t("ui.total")),
            seats.map((s) => h(`td${winner(s) ? ".winner" : ""}`, null, String(r.scores[s]))),
          ),
          h(
            "tr.place",
            null,
            h("th", null, t("ui.place")),
            seats.map((s) => h("td", null, String(r.ranking[s] + 1))),
          ),
        ),
      ),
    ),
    footer ? footer() : null,
  );
}

/**
 * The seat's log, newest last, private events marked. The lines are the server's player words
 * (`words.log`, one per event of the view's log):
 *   logPanel(p)            the payload: its view's log and words
 *   logPanel(events, p)    events of p's view (same order; e.g. mapped copies of them)
 *   logPanel(events)       no words: each event's own `text` (older callers)
 */
export function logPanel(source, p = null) {
  const payload = source && !Array.isArray(source) && source.view !== undefined ? source : p;
  const events = Array.isArray(source) ? source : (payload && payload.view && payload.view.log) || [];
  const lines = (payload && payload.words && payload.words.log) || [];
  const own = (payload && payload.view && payload.view.log) || [];
  const worded = lines.length === own.length && events.length === own.length;
  const list = h(
    "ol.log",
    { "aria-label": t("ui.log") },
    events.map((e, i) => {
      const mine = e.seat !== undefined && e.seat !== null;
      const text = (worded && lines[i]) || e.text || "";
      return h(`li${mine ? ".private" : ""}`, null, text, mine ? h("span.only", null, ` ${t("ui.only_you")}`) : null);
    }),
  );
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return h("aside.logpanel", null, h("h3", null, t("ui.log")), list);
}

export class GenericTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/{id}/catalog (only the name is used)
   * @param {{onAction?: (id:number, label:string)=>void, onCancel?: (steps?:number)=>void,
   *          readOnly?: boolean, footer?: ()=>Node}} opts
   */
  constructor(root, catalog, opts = {}) {
    this.root = root;
    this.catalog = catalog;
    this.opts = opts;
    this.busy = false;
    this.filter = "";
  }

  render(p) {
    const v = p.view;
    if (this.seq !== p.seq) this.filter = "";
    this.seq = p.seq;
    this.root.replaceChildren();
    this.root.classList.toggle("readonly", !!this.opts.readOnly);
    if (!v) return;
    const mine = v.seat !== null && v.seat !== undefined;
    const yours = mine && !v.result && (v.legal || []).length > 0;
    if (!this.opts.readOnly) {
      const prompt = (p.words && p.words.prompt) || (yours ? t("generic.choose") : "");
      this.root.append(promptBar(p, { text: prompt, onCancel: this.opts.onCancel || null, busy: this.busy, tone: yours ? "yours" : "" }));
    }
    this.root.append(this.topbar(p, v));
    if (v.result) this.root.append(scoresSection(p, v.result, this.opts.footer));
    if (yours && !this.opts.readOnly) this.root.append(this.decision(p, v));
    const state = {};
    for (const [k, x] of Object.entries(v)) if (!SKIP.has(k)) state[k] = x;
    this.root.append(
      h(
        "div.main.generic",
        null,
        h("details.panel.state.dev", { "data-dev": "", "aria-label": t("generic.dev") }, h("summary", null, t("generic.dev")), jsonBlock(state)),
        logPanel(p),
      ),
    );
  }

  topbar(p, v) {
    const status = statusBadge(p, v, this.opts.readOnly, v.seat !== null && v.seat !== undefined && (v.legal || []).length > 0);
    return h("header.topbar", null, h("span.age", null, gameName(p.game, p.game_name || this.catalog.name || "")), h("span.status", { "data-testid": "status" }, status));
  }

  decision(p, v) {
    const legal = v.legal;
    const list = h("div.acts.generic-acts", { role: "group", "aria-label": t("generic.moves") });
    const label = (a) => actionLabel(p, a) || t("generic.move_n", { n: a.id });
    const draw = () => {
      const f = this.filter.toLowerCase();
      list.replaceChildren(
        ...legal
          .filter((a) => !f || label(a).toLowerCase().includes(f))
          .map((a) =>
            h(
              "button.act.generic",
              { type: "button", "data-action": a.id, disabled: this.busy, onclick: () => this.opts.onAction && this.opts.onAction(a.id, label(a)) },
              label(a),
            ),
          ),
      );
    };
    draw();
    const filter =
      legal.length > MANY
        ? h("input.filter", {
            type: "search",
            placeholder: t("generic.filter", { n: legal.length }),
            value: this.filter,
            "aria-label": t("generic.filter_label"),
            oninput: (ev) => {
              this.filter = ev.target.value;
              draw();
            },
          })
        : null;
    return h("section.decision", { "aria-label": t("generic.your_decision") }, h("h3", null, tn("generic.your_move", legal.length)), filter, list);
  }
}
