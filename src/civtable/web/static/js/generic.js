// The generic table: draws any game from what every game's view() provides — the seat's legal
// actions with their labels ("legal": [{id, label}]), the public and private state, the log and
// the final result — so a game is playable in the browser before it has a dedicated view.

import { h } from "./api.js";

const SKIP = new Set(["legal", "log", "result", "game"]);
const MANY = 12; // more legal actions than this: show a filter box

function humanize(key) {
  return String(key).replace(/_/g, " ");
}

export function seatName(p, seat) {
  const s = p.seats && p.seats[seat];
  const base = `Player ${seat + 1}`;
  if (!s) return base;
  if (s.kind === "bot") return `${base} · ${s.bot} bot`;
  return s.name || base;
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

/** Any JSON value as nested, readable HTML (tables for lists of similar records). */
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
        h("thead", null, h("tr", null, h("th", null, "#"), keys.map((k) => h("th", null, humanize(k))))),
        h(
          "tbody",
          null,
          value.map((row, i) =>
            h("tr", null, h("th", null, String(i + 1)), keys.map((k) => h("td", null, k in row ? jsonBlock(row[k], depth + 1) : ""))),
          ),
        ),
      );
    }
    return h("ol.list", null, value.map((x) => h("li", null, jsonBlock(x, depth + 1))));
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
  if (readOnly) return h("span.st.wait", null, v.result ? "Game over" : "Replay");
  if (v.result) return h("span.st.over", null, "Game over");
  if (yours) return h("span.st.yours", null, "Your move");
  if (waiting.length) return h("span.st.wait", null, `Waiting for ${waiting.map((s) => seatName(p, s)).join(", ")}`);
  return h("span.st", null, "…");
}

/** The final scores with their per-category breakdown and places. */
export function scoresSection(p, r, footer) {
  const seats = r.scores.map((_, s) => s);
  const winner = (s) => r.winners.includes(s);
  const names = r.winners.map((s) => seatName(p, s)).join(" and ");
  return h(
    "section.final",
    { "aria-label": "final scores" },
    h("h2", null, `${names} win${r.winners.length > 1 ? "" : "s"}!`),
    h(
      "table.scores",
      { "data-testid": "scores" },
      h("thead", null, h("tr", null, h("th", null, ""), seats.map((s) => h(`th${winner(s) ? ".winner" : ""}`, null, seatName(p, s))))),
      h(
        "tbody",
        null,
        r.categories.map((cat) => h("tr", null, h("th", null, humanize(cat)), seats.map((s) => h("td", null, String(r.breakdown[s][cat] ?? 0))))),
        h("tr.total", null, h("th", null, "Total"), seats.map((s) => h(`td${winner(s) ? ".winner" : ""}`, null, String(r.scores[s])))),
        h("tr.place", null, h("th", null, "Place"), seats.map((s) => h("td", null, String(r.ranking[s] + 1)))),
      ),
    ),
    footer ? footer() : null,
  );
}

/** The seat's log (private events marked). */
export function logPanel(events) {
  const list = h(
    "ol.log",
    { "aria-label": "game log" },
    (events || []).map((e) =>
      h(`li${e.seat !== undefined ? ".private" : ""}`, null, e.text || JSON.stringify(e), e.seat !== undefined ? h("span.only", null, " (only you)") : null),
    ),
  );
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return h("aside.logpanel", null, h("h3", null, "Game log"), list);
}

export class GenericTable {
  /**
   * @param {HTMLElement} root
   * @param {object} catalog  from /api/game-types/{id}/catalog (only the name is used)
   * @param {{onAction?: (id:number, label:string)=>void, readOnly?: boolean, footer?: ()=>Node}} opts
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
    this.root.append(this.topbar(p, v));
    if (v.result) this.root.append(scoresSection(p, v.result, this.opts.footer));
    const mine = v.seat !== null && v.seat !== undefined;
    if (mine && !v.result && !this.opts.readOnly && (v.legal || []).length) this.root.append(this.decision(v));
    const state = {};
    for (const [k, x] of Object.entries(v)) if (!SKIP.has(k)) state[k] = x;
    this.root.append(
      h("div.main.generic", null, h("section.panel.state", { "aria-label": "game state" }, h("h3", null, "Table"), jsonBlock(state)), logPanel(v.log)),
    );
  }

  topbar(p, v) {
    const status = statusBadge(p, v, this.opts.readOnly, v.seat !== null && v.seat !== undefined && (v.legal || []).length > 0);
    return h("header.topbar", null, h("span.age", null, p.game_name || this.catalog.name || v.game), h("span.status", { "data-testid": "status" }, status));
  }

  decision(v) {
    const legal = v.legal;
    const list = h("div.acts.generic-acts", { role: "group", "aria-label": "your legal moves" });
    const draw = () => {
      const f = this.filter.toLowerCase();
      list.replaceChildren(
        ...legal
          .filter((a) => !f || (a.label || "").toLowerCase().includes(f))
          .map((a) =>
            h(
              "button.act.generic",
              { type: "button", "data-action": a.id, disabled: this.busy, onclick: () => this.opts.onAction && this.opts.onAction(a.id, a.label) },
              a.label || `action ${a.id}`,
            ),
          ),
      );
    };
    draw();
    const filter =
      legal.length > MANY
        ? h("input.filter", {
            type: "search",
            placeholder: `filter ${legal.length} moves…`,
            value: this.filter,
            "aria-label": "filter moves",
            oninput: (ev) => {
              this.filter = ev.target.value;
              draw();
            },
          })
        : null;
    return h("section.decision", { "aria-label": "your decision" }, h("h3", null, `Your move (${legal.length} choices)`), filter, list);
  }
}
