// The replay viewer: /replay/{id} steps through a finished game, as a spectator or as any seat.

import { api, h, toast } from "./api.js";
import { installSprite } from "./icons.js";
import { tableClassFor } from "./tables.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const root = document.getElementById("app");
const slider = document.getElementById("slider");
const asSelect = document.getElementById("as");
const label = document.getElementById("step-label");
let index = null;
let table = null;
let step = 0;
let token = 0;

installSprite();

async function show(n) {
  step = Math.max(0, Math.min(n, index.steps.length));
  slider.value = String(step);
  const seat = asSelect.value === "" ? null : Number(asSelect.value);
  const mine = ++token;
  const q = seat === null ? "" : `?seat=${seat}`;
  const p = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/${step}${q}`);
  if (mine !== token) return;
  const s = step ? index.steps[step - 1] : null;
  label.textContent = s ? `${step}/${index.steps.length} · Player ${s.seat + 1}: ${s.label}` : `start · ${index.steps.length} moves`;
  document.body.dataset.step = String(step);
  table.render({ ...p, seq: step, status: "replay" });
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

async function init() {
  try {
    index = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
  } catch (e) {
    root.replaceChildren(h("div.panel.error", null, h("h2", null, "No replay"), h("p", null, e.message), h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const catalog = await api("GET", `/api/game-types/${index.game}/catalog`);
  const meta = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  document.getElementById("game-title").textContent = `${meta.game_name} · replay · ${index.players} players`;
  asSelect.append(h("option", { value: "" }, "spectator"));
  for (const s of meta.seats) asSelect.append(h("option", { value: s.seat }, `Player ${s.seat + 1}${s.name ? ` (${s.name})` : ""}`));
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
