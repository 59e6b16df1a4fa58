// Building blocks every table shares: the prompt bar (what to do now, always in view), a
// confirmation dialog for irreversible moves, a detail popup for a card's or a space's full
// text and rules, and the helpers that read the payload's player words (payload.words, made on
// the server by civtable.present in the reader's language).

import { h, toast } from "./api.js";
import { t, tn } from "./i18n.js";

let suggester = null;

/** What "Suggest a move" asks (the game page sets it: `(payload) => Promise<suggestion>`;
 *  replays set none, so their prompt has no such button). */
export function setSuggester(fn) {
  suggester = fn;
}

/** Ask the bot for the seat's best moves and show the top three with their figures. */
async function askSuggestion(p, button) {
  button.disabled = true;
  const label = button.textContent;
  button.textContent = t("suggest.thinking");
  try {
    const r = await suggester(p);
    const moves = (r && r.moves) || [];
    const list = moves.length
      ? h(
          "ol.suggestions",
          { "data-testid": "suggestions" },
          moves.map((m) =>
            h(
              "li",
              { "data-action": m.action },
              h("b", null, m.label),
              h("span.suggest-stat", null, ` — ${tn("n.playout", m.visits)}, ${t("suggest.rate", { pct: Math.round(m.win_rate * 100) })}`),
            ),
          ),
        )
      : h("p", null, t("suggest.none"));
    showDetail(t("suggest.title"), list, h("p.suggest-note", null, t("suggest.note")));
  } catch (e) {
    toast(e.message, "error");
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

/** The player label of a legal action: the server's words, else the developer's label. */
export function actionLabel(p, a) {
  const w = p && p.words && p.words.legal;
  return (w && w[String(a.id)]) || a.label || "";
}

/** A seat's name as the table shows it (the name typed, or "Player N" / "Bot N (level)"). */
export function playerName(p, seat) {
  const names = p && p.words && p.words.names;
  if (names && names[seat]) return names[seat];
  const s = p && p.seats && p.seats[seat];
  if (s && s.name && !(s.kind === "bot" && s.name.endsWith(" bot"))) return s.name;
  return t("player.default", { n: seat + 1 });
}

/** The log lines of the payload (the server's words), newest last; private ones marked. */
export function logLines(p) {
  const v = p.view || {};
  const events = v.log || [];
  const lines = (p.words && p.words.log) || [];
  return events.map((e, i) => ({ text: lines[i] || e.text || "", private: e.seat !== undefined && e.seat !== null }));
}

/**
 * The prompt bar: what to do now, with the choices that belong in it and, during a compound move,
 * Back and Cancel. Sticky at the top of the table, so it is in view at any scroll position.
 *   promptBar(p, {text, hint, actions: [{label, onclick, primary, danger, testid, title}],
 *                 onBack, onCancel, busy})
 */
export function promptBar(p, { text = "", hint = "", actions = [], onBack = null, onCancel = null, busy = false, tone = "" } = {}) {
  const steps = (p && p.tentative) || 0;
  const buttons = actions.map((a) =>
    h(
      `button.act.prompt-act${a.primary ? ".primary" : ""}${a.danger ? ".danger" : ""}`,
      {
        type: "button",
        disabled: busy || a.disabled,
        title: a.title || null,
        "data-testid": a.testid || null,
        "data-action": a.id ?? null,
        onclick: a.onclick,
      },
      a.label,
    ),
  );
  if (steps && onBack && steps > 1) buttons.push(h("button.act.prompt-back", { type: "button", disabled: busy, "data-testid": "back", onclick: () => onBack(1) }, t("ui.back")));
  if (steps && onCancel) buttons.push(h("button.act.prompt-cancel", { type: "button", disabled: busy, "data-testid": "cancel", onclick: () => onCancel() }, t("ui.cancel")));
  const choices = p && p.status === "active" && p.view && p.view.legal ? p.view.legal.length : 0;
  if (suggester && p.suggestions && choices > 1) {
    buttons.push(
      h("button.act.prompt-suggest", { type: "button", disabled: busy, "data-testid": "suggest", onclick: (ev) => askSuggestion(p, ev.currentTarget) }, t("suggest.button")),
    );
  }
  return h(
    `section.prompt-bar${tone ? `.${tone}` : ""}`,
    { "data-testid": "prompt", role: "region", "aria-label": text || t("ui.prompt"), "aria-live": "polite" },
    h("div.prompt-text", null, h("b", null, text), hint ? h("span.prompt-hint", null, " ", hint) : null),
    buttons.length ? h("div.prompt-acts", null, buttons) : null,
  );
}

function modal(content, { label = "", onClose = null } = {}) {
  const dialog = h("dialog.civ-dialog", { "aria-label": label || null });
  dialog.append(content);
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (onClose) onClose();
  });
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close("cancel"); // a click on the backdrop
  });
  dialog.showModal();
  return dialog;
}

/** Ask before an irreversible move; resolves true when confirmed. */
export function confirmMove(message, { confirmLabel = null, detail = "" } = {}) {
  return new Promise((resolve) => {
    let answer = false;
    const yes = h("button.primary", { type: "button", "data-testid": "confirm-yes" }, confirmLabel || t("ui.confirm"));
    const no = h("button", { type: "button", "data-testid": "confirm-no" }, t("ui.cancel"));
    const dialog = modal(
      h("form.confirm", { method: "dialog" }, h("p.confirm-q", null, message), detail ? h("p.confirm-detail", null, detail) : null, h("p.confirm-acts", null, no, " ", yes)),
      { label: message, onClose: () => resolve(answer) },
    );
    yes.addEventListener("click", (ev) => {
      ev.preventDefault();
      answer = true;
      dialog.close("yes");
    });
    no.addEventListener("click", (ev) => {
      ev.preventDefault();
      dialog.close("no");
    });
    no.focus();
  });
}

/** A card's, leader's or space's full text and rules, on click or tap. */
export function showDetail(title, ...body) {
  const close = h("button.close", { type: "button", "data-testid": "detail-close", "aria-label": t("ui.close") }, "×");
  const dialog = modal(h("article.detail", { "data-testid": "detail" }, h("header", null, h("h3", null, title), close), body), { label: title });
  close.addEventListener("click", () => dialog.close());
  return dialog;
}
