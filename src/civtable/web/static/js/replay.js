// The replay viewer: /replay/{id} steps through a finished game, as a spectator or as any seat,
// in the reader's language: the tables draw the player words of each step (payload.words) and
// the step label names the move that led there as its mover read it.

import { api, h, toast } from "./api.js";
import { currentLanguage, gameName, loadLanguage, pageTitle, t, tn } from "./i18n.js";
import { installSprite } from "./icons.js";
import { tableClassFor } from "./tables.js";
import { playerName } from "./ui.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const root = document.getElementById("app");
const slider = document.getElementById("slider");
const asSelect = document.getElementById("as");
const label = document.getElementById("step-label");
let index = null;
let meta = null;
let table = null;
let step = 0;
let token = 0;

installSprite();

async function show(n) {
  step = Math.max(0, Math.min(n, index.steps.length));
  slider.value = String(step);
  const seat = asSelect.value === "" ? null : Number(asSelect.value);
  const mine = ++token;
  const q = new URLSearchParams({ lang: currentLanguage() });
  if (seat !== null) q.set("seat", String(seat));
  const p = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/${step}?${q}`);
  if (mine !== token) return;
  const payload = { ...p, seq: step, status: "replay", game_name: gameName(index.game, meta.game_name) };
  const move = p.move;
  label.textContent = move
    ? t("replay.step", { step, total: index.steps.length, name: playerName(payload, move.seat), move: move.label })
    : t("replay.start", { total: index.steps.length });
  document.body.dataset.step = String(step);
  table.render(payload);
}

function turnStart(from, dir) {
  const key = (i) => {
    if (i === 0) return "0";
    const s = index.steps[i - 1];
    return `${s.age}-${s.round}-${s.turn}`;
  };
  let i = from;
  const here = key(i);
  while (i + dir >= 0 && i + dir <= index.steps.length && key(i + dir) === here) i += dir;
  return Math.max(0, Math.min(i + dir, index.steps.length));
}

function translateChrome() {
  const titles = {
    first: "replay.first",
    "prev-turn": "replay.prev_turn",
    prev: "replay.prev",
    next: "replay.next",
    "next-turn": "replay.next_turn",
    last: "replay.last",
  };
  for (const [id, key] of Object.entries(titles)) {
    const el = document.getElementById(id);
    el.title = t(key);
    el.setAttribute("aria-label", t(key));
  }
  slider.setAttribute("aria-label", t("replay.slider"));
  document.getElementById("as-label").textContent = t("replay.view_as");
  document.querySelector(".replay-bar").setAttribute("aria-label", t("replay.controls"));
  const loading = root.querySelector(".loading");
  if (loading) loading.textContent = t("replay.loading");
  document.title = pageTitle(t("status.replay"));
}

async function init() {
  await loadLanguage(["common"]);
  translateChrome();
  try {
    index = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
  } catch (e) {
    root.replaceChildren(h("div.panel.error", null, h("h2", null, t("replay.none")), h("p", null, e.message), h("a", { href: "/" }, t("table.back_to_lobby"))));
    return;
  }
  await loadLanguage(["common", index.game.replaceAll("-", "_")]);
  const catalog = await api("GET", `/api/game-types/${index.game}/catalog?lang=${encodeURIComponent(currentLanguage())}`);
  meta = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  const first = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/0?lang=${encodeURIComponent(currentLanguage())}`);
  const named = { ...first, seats: meta.seats };
  const title = t("replay.title", { game: gameName(index.game, meta.game_name), players: tn("n.player", index.players) });
  document.getElementById("game-title").textContent = title;
  document.title = pageTitle(title);
  const rules = document.getElementById("rules-link");
  if (rules) {
    rules.href = `/rules/${encodeURIComponent(index.game)}`;
    rules.textContent = t("ui.rules");
    rules.hidden = false;
  }
  asSelect.append(h("option", { value: "" }, t("replay.spectator")));
  for (const s of meta.seats) asSelect.append(h("option", { value: s.seat }, playerName(named, s.seat)));
  const Table = await tableClassFor(new URLSearchParams(location.search).get("view") === "generic" ? null : index.game);
  table = new Table(root, catalog, { readOnly: true });
  slider.max = String(index.steps.length);
  slider.addEventListener("input", () => show(Number(slider.value)));
  asSelect.addEventListener("change", () => show(step));
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("last").onclick = () => show(index.steps.length);
  document.getElementById("prev").onclick = () => show(step - 1);
  document.getElementById("next").onclick = () => show(step + 1);
  document.getElementById("prev-turn").onclick = () => show(turnStart(step, -1));
  document.getElementById("next-turn").onclick = () => show(turnStart(step, +1));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    if (ev.key === "ArrowRight") show(step + 1);
    if (ev.key === "ArrowLeft") show(step - 1);
  });
  await show(index.steps.length);
}

init().catch((e) => toast(e.message, "error"));
