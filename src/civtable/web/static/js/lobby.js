// The lobby: create a game (seats: you, bots or invited players), your games, open tables.

import { api, h, rememberSeat, seats, toast } from "./api.js";

const form = document.getElementById("new-game");
const gameSelect = document.getElementById("game-select");
const playersSelect = document.getElementById("players");
const seatBox = document.getElementById("seat-setup");
let types = [];
let bots = [];

const sidesLabel = document.getElementById("sides-label");
const presetLabel = document.getElementById("preset-label");
const presetSelect = document.getElementById("preset");

// The options row: 7 Wonders' wonder sides, or another game's named option sets (its presets).
function fillOptions(t) {
  const sevenWonders = t.id === "seven-wonders";
  sidesLabel.hidden = !sevenWonders;
  const presets = Object.keys(t.option_presets || {});
  presetLabel.hidden = sevenWonders || !presets.length;
  presetSelect.replaceChildren(...presets.map((p) => h("option", { value: p }, p.replaceAll("-", " "))));
}

function optionsOf(data) {
  const t = types.find((g) => g.id === data.get("game"));
  if (!t) return {};
  if (t.id === "seven-wonders") return data.get("sides") ? { sides: data.get("sides") } : {};
  const preset = data.get("preset");
  return preset && t.option_presets && t.option_presets[preset] ? { ...t.option_presets[preset] } : {};
}

function fillPlayers() {
  const t = types.find((g) => g.id === gameSelect.value);
  if (!t) return;
  fillOptions(t);
  const keep = Number(playersSelect.value) || 4;
  playersSelect.replaceChildren();
  for (let n = t.min_players; n <= t.max_players; n++) {
    playersSelect.append(h("option", { value: n, selected: n === Math.min(Math.max(keep, t.min_players), t.max_players) }, String(n)));
  }
  fillSeats();
}

function fillSeats() {
  const n = Number(playersSelect.value);
  const old = [...seatBox.querySelectorAll("select")].map((s) => s.value);
  seatBox.replaceChildren(h("legend", null, "Seats"));
  seatBox.append(h("div.seat-row", null, h("b", null, "Seat 1"), " you"));
  for (let i = 1; i < n; i++) {
    const sel = h(
      "select",
      { name: `seat-${i}`, "aria-label": `seat ${i + 1}`, "data-testid": `seat-kind-${i}` },
      bots.map((b) => h("option", { value: `bot:${b}` }, `${b} bot`)),
      h("option", { value: "human" }, "a friend (invite by link)"),
    );
    sel.value = old[i - 1] || (bots.includes("normal") ? "bot:normal" : `bot:${bots[0]}`);
    seatBox.append(h("div.seat-row", null, h("b", null, `Seat ${i + 1}`), " ", sel));
  }
}

async function create(ev) {
  ev.preventDefault();
  const data = new FormData(form);
  const n = Number(data.get("players"));
  const seatSpecs = [{ kind: "human", name: data.get("player_name") || "" }];
  for (let i = 1; i < n; i++) {
    const v = data.get(`seat-${i}`);
    seatSpecs.push(v.startsWith("bot:") ? { kind: "bot", bot: v.slice(4) } : { kind: "human" });
  }
  const body = {
    game: data.get("game"),
    players: n,
    seats: seatSpecs,
    options: optionsOf(data),
    name: data.get("name") || "",
    take_seat: 0,
    player_name: data.get("player_name") || "",
  };
  const seed = String(data.get("seed") || "").trim();
  if (seed) body.seed = Number(seed);
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    const r = await api("POST", "/api/games", { body });
    rememberSeat(r.game.id, r.seat, r.token, body.player_name);
    location.href = `/game/${encodeURIComponent(r.game.id)}`;
  } catch (e) {
    toast(e.message, "error");
    button.disabled = false;
  }
}

function gameLine(g, extra) {
  const seatsText = g.seats.map((s) => (s.kind === "bot" ? `${s.bot} bot` : s.name || (s.taken ? "player" : "free"))).join(", ");
  return h(
    "li.game",
    { "data-game": g.id },
    h("span.g-name", null, `${g.game_name}${g.name ? ` · ${g.name}` : ""}`),
    h("span.g-meta", null, `${g.players} players · ${g.status}${g.status === "active" ? ` · move ${g.seq}` : ""}`),
    h("span.g-seats", null, seatsText),
    extra,
  );
}

async function loadLists() {
  const mine = seats();
  const tokens = Object.values(mine).map((s) => s.token).filter(Boolean);
  const myList = document.getElementById("my-games");
  const mineIds = new Set();
  try {
    const r = tokens.length ? await api("POST", "/api/my-games", { body: { tokens: tokens.slice(0, 200) } }) : { games: [] };
    myList.replaceChildren();
    for (const g of r.games) {
      mineIds.add(g.id);
      const turn = g.status === "active" && g.to_move.includes(g.you);
      myList.append(
        gameLine(g, [
          turn ? h("span.badge.yours", null, "your move") : null,
          h("a.button", { href: `/game/${encodeURIComponent(g.id)}` }, g.status === "over" ? "See result" : "Continue"),
          g.status === "over" ? h("a.button", { href: `/replay/${encodeURIComponent(g.id)}` }, "Replay") : null,
        ]),
      );
    }
    if (!r.games.length) myList.append(h("li.empty", null, "None yet."));
  } catch (e) {
    toast(e.message, "error");
  }
  const all = (await api("GET", "/api/games?limit=60")).games;
  const open = document.getElementById("open-games");
  const other = document.getElementById("other-games");
  open.replaceChildren();
  other.replaceChildren();
  for (const g of all) {
    if (mineIds.has(g.id)) continue;
    if (g.status === "lobby" && g.free_seats.length) {
      open.append(gameLine(g, h("a.button", { href: `/game/${encodeURIComponent(g.id)}` }, "Join")));
    } else if (g.status !== "lobby") {
      other.append(
        gameLine(
          g,
          g.status === "over"
            ? h("a.button", { href: `/replay/${encodeURIComponent(g.id)}` }, "Replay")
            : h("a.button", { href: `/game/${encodeURIComponent(g.id)}?spectate=1` }, "Watch"),
        ),
      );
    }
  }
  if (!open.children.length) open.append(h("li.empty", null, "None."));
  if (!other.children.length) other.append(h("li.empty", null, "None."));
}

async function init() {
  const r = await api("GET", "/api/game-types");
  types = r.games.filter((g) => g.playable);
  bots = r.bots;
  gameSelect.replaceChildren(...types.map((g) => h("option", { value: g.id }, g.name)));
  gameSelect.addEventListener("change", fillPlayers);
  playersSelect.addEventListener("change", fillSeats);
  playersSelect.append(h("option", { value: 4 }, "4"));
  fillPlayers();
  form.addEventListener("submit", create);
  await loadLists();
}

init().catch((e) => toast(e.message, "error"));
