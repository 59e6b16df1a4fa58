// The lobby: create a game (seats: you, bots, friends invited by link, or friends at this same
// screen — hot seat), your games, open tables. Every word comes from the catalogues (i18n.js);
// each game's variants are described where they are chosen, and its rules page is linked.

import { allTokens, api, h, rememberSeat, toast } from "./api.js";
import { chosenLanguage, currentLanguage, gameName, has, languages, loadLanguage, pageTitle, rememberLanguage, t, tn } from "./i18n.js";

const form = document.getElementById("new-game");
const gameSelect = document.getElementById("game-select");
const playersSelect = document.getElementById("players");
const seatBox = document.getElementById("seat-setup");
const sidesLabel = document.getElementById("sides-label");
const sidesSelect = document.getElementById("sides");
const presetLabel = document.getElementById("preset-label");
const presetSelect = document.getElementById("preset");
const optionHelp = document.getElementById("option-help");
const rulesLink = document.getElementById("rules-link");
let types = [];
let bots = [];

/** The catalogue prefix of each game's keys (locale/<lang>/<domain>.po). */
const PREFIX = {
  "seven-wonders": "sw",
  "through-the-ages": "tta",
  "civilization-a-new-dawn": "civ",
  deus: "deus",
};

/** "first-game" → "First game": the name of a preset whose catalogue key is not written yet. */
function humanize(name) {
  const words = String(name).replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function presetName(game, name) {
  const key = `${PREFIX[game] || game}.preset.${name}`;
  return has(key) ? t(key) : humanize(name);
}

function presetHelp(game, name) {
  const key = `${PREFIX[game] || game}.preset.${name}.help`;
  return has(key) ? t(key) : "";
}

// --- the options row: 7 Wonders' wonder sides, or another game's named option sets (presets) --
function fillOptions(g) {
  const sevenWonders = g.id === "seven-wonders";
  sidesLabel.hidden = !sevenWonders;
  const presets = Object.keys(g.option_presets || {});
  presetLabel.hidden = sevenWonders || !presets.length;
  presetSelect.replaceChildren(...presets.map((p) => h("option", { value: p }, presetName(g.id, p))));
  rulesLink.href = `/rules/${encodeURIComponent(g.id)}`;
  rulesLink.title = t("lobby.rules_of", { game: gameName(g.id, g.name) });
  describeOption();
}

/** The chosen variant in a sentence, right under the choice. */
function describeOption() {
  const g = types.find((x) => x.id === gameSelect.value);
  if (!g) return;
  let text = "";
  if (g.id === "seven-wonders") text = t(`sw.option.sides.${sidesSelect.value}.help`);
  else if (!presetLabel.hidden) text = presetHelp(g.id, presetSelect.value);
  optionHelp.textContent = text;
  optionHelp.hidden = !text;
}

function optionsOf(data) {
  const g = types.find((x) => x.id === data.get("game"));
  if (!g) return {};
  if (g.id === "seven-wonders") return data.get("sides") ? { sides: data.get("sides") } : {};
  const preset = data.get("preset");
  return preset && g.option_presets && g.option_presets[preset] ? { ...g.option_presets[preset] } : {};
}

function fillPlayers() {
  const g = types.find((x) => x.id === gameSelect.value);
  if (!g) return;
  fillOptions(g);
  const keep = Number(playersSelect.value) || 4;
  playersSelect.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    playersSelect.append(h("option", { value: n, selected: n === Math.min(Math.max(keep, g.min_players), g.max_players) }, String(n)));
  }
  fillSeats();
}

function botLabel(b) {
  const key = `bot.${b.split(":")[0]}`;
  return t("lobby.seat.bot", { level: has(key) ? t(key) : b });
}

// --- seats: you, bots, friends by link, friends here (hot seat) -------------------------------
function fillSeats() {
  const n = Number(playersSelect.value);
  const old = [...seatBox.querySelectorAll(".seat-row[data-seat]")].map((row) => ({
    kind: row.querySelector("select").value,
    name: row.querySelector("input").value,
  }));
  seatBox.replaceChildren(h("legend", null, t("lobby.seats")));
  seatBox.append(h("div.seat-row", null, h("b", null, t("wait.seat", { n: 1 })), " ", t("lobby.seat.you")));
  for (let i = 1; i < n; i++) {
    const nameInput = h("input.seat-name", {
      name: `seat-name-${i}`,
      maxlength: "60",
      placeholder: t("player.default", { n: i + 1 }),
      "aria-label": t("lobby.seat.name_of", { n: i + 1 }),
      "data-testid": `seat-name-${i}`,
    });
    const sel = h(
      "select",
      { name: `seat-${i}`, "aria-label": t("wait.seat", { n: i + 1 }), "data-testid": `seat-kind-${i}` },
      bots.map((b) => h("option", { value: `bot:${b}` }, botLabel(b))),
      h("option", { value: "human" }, t("lobby.seat.friend")),
      h("option", { value: "local" }, t("lobby.seat.local")),
    );
    const prev = old[i - 1];
    sel.value = prev ? prev.kind : bots.includes("normal") ? "bot:normal" : `bot:${bots[0]}`;
    nameInput.value = prev ? prev.name : "";
    const sync = () => {
      nameInput.hidden = sel.value !== "local";
    };
    sel.addEventListener("change", sync);
    sel.addEventListener("change", suggestDefault);
    sync();
    seatBox.append(h("div.seat-row", { "data-seat": i }, h("b", null, t("wait.seat", { n: i + 1 })), " ", sel, " ", nameInput));
  }
  seatBox.append(h("p.seat-help", null, t("lobby.seat.local_help")));
  suggestDefault();
}

// "Suggest a move" is on by default when one person plays against bots; once the creator ticks
// or clears the box, their choice stays
const suggestBox = document.getElementById("suggestions");
let suggestTouched = false;
suggestBox.addEventListener("change", () => {
  suggestTouched = true;
});

function suggestDefault() {
  if (suggestTouched) return;
  const people = [...form.querySelectorAll("#seat-setup select")].filter((s) => !s.value.startsWith("bot:")).length + 1;
  suggestBox.checked = people <= 1;
}

async function create(ev) {
  ev.preventDefault();
  const data = new FormData(form);
  const n = Number(data.get("players"));
  const seatSpecs = [{ kind: "human", name: data.get("player_name") || "" }];
  const local = [];
  for (let i = 1; i < n; i++) {
    const v = data.get(`seat-${i}`);
    const name = String(data.get(`seat-name-${i}`) || "").trim();
    if (v === "local") local.push({ seat: i, name });
    seatSpecs.push(v.startsWith("bot:") ? { kind: "bot", bot: v.slice(4) } : { kind: "human", name: v === "local" ? name : "" });
  }
  const body = {
    game: data.get("game"),
    players: n,
    seats: seatSpecs,
    options: optionsOf(data),
    name: data.get("name") || "",
    take_seat: 0,
    player_name: data.get("player_name") || "",
    suggestions: suggestBox.checked,
  };
  const seed = String(data.get("seed") || "").trim();
  if (seed) body.seed = Number(seed);
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    const r = await api("POST", "/api/games", { body });
    const id = r.game.id;
    rememberSeat(id, r.seat, r.token, body.player_name);
    // hot seat: this browser takes the seats of the players at this screen too
    for (const s of local) {
      const j = await api("POST", `/api/games/${encodeURIComponent(id)}/join`, { body: { seat: s.seat, name: s.name } });
      rememberSeat(id, j.seat, j.token, s.name);
    }
    location.href = `/game/${encodeURIComponent(id)}`;
  } catch (e) {
    toast(e.message, "error");
    button.disabled = false;
  }
}

// --- the lists of games -----------------------------------------------------------------------
function seatText(s) {
  if (s.kind === "bot") return botLabel(s.bot || "");
  return s.name || (s.taken ? t("wait.a_player") : t("wait.free"));
}

function gameLine(g, extra) {
  const status = t(`lobby.status.${g.status}`);
  return h(
    "li.game",
    { "data-game": g.id },
    h("span.g-name", null, `${gameName(g.game, g.game_name)}${g.name ? ` · ${g.name}` : ""}`),
    h("span.g-meta", null, [tn("n.player", g.players), status, g.status === "active" ? tn("n.move", g.seq) : null].filter(Boolean).join(" · ")),
    h("span.g-seats", null, g.seats.map(seatText).join(", ")),
    extra,
  );
}

async function loadLists() {
  const tokens = allTokens();
  const myList = document.getElementById("my-games");
  const mineIds = new Set();
  try {
    const r = tokens.length ? await api("POST", "/api/my-games", { body: { tokens: tokens.slice(0, 200) } }) : { games: [] };
    myList.replaceChildren();
    const byGame = new Map();
    for (const g of r.games) {
      const seen = byGame.get(g.id);
      if (seen) {
        seen.yous.push(g.you);
        continue;
      }
      byGame.set(g.id, { ...g, yous: [g.you] });
    }
    for (const g of byGame.values()) {
      mineIds.add(g.id);
      const turn = g.status === "active" && g.yous.some((y) => g.to_move.includes(y));
      myList.append(
        gameLine(g, [
          g.yous.length > 1 ? h("span.badge", null, t("lobby.hot_seat")) : null,
          turn ? h("span.badge.yours", null, t("lobby.your_move")) : null,
          h("a.button", { href: `/game/${encodeURIComponent(g.id)}` }, t(g.status === "over" ? "lobby.see_result" : "lobby.continue")),
          g.status === "over" ? h("a.button", { href: `/replay/${encodeURIComponent(g.id)}` }, t("status.replay")) : null,
        ]),
      );
    }
    if (!byGame.size) myList.append(h("li.empty", null, t("lobby.none_yet")));
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
      open.append(gameLine(g, h("a.button", { href: `/game/${encodeURIComponent(g.id)}` }, t("lobby.join"))));
    } else if (g.status !== "lobby") {
      other.append(
        gameLine(
          g,
          g.status === "over"
            ? h("a.button", { href: `/replay/${encodeURIComponent(g.id)}` }, t("status.replay"))
            : h("a.button", { href: `/game/${encodeURIComponent(g.id)}?spectate=1` }, t("lobby.watch")),
        ),
      );
    }
  }
  if (!open.children.length) open.append(h("li.empty", null, t("lobby.none")));
  if (!other.children.length) other.append(h("li.empty", null, t("lobby.none")));
}

// --- language ---------------------------------------------------------------------------------
function fillLanguages() {
  const select = document.getElementById("lang-select");
  const list = languages();
  // each language named in itself (and marked as such for screen readers)
  select.replaceChildren(...list.map((l) => h("option", { value: l.code, lang: l.code }, l.name)));
  select.value = currentLanguage();
  select.addEventListener("change", () => {
    rememberLanguage(select.value);
    const url = new URL(location.href);
    url.searchParams.delete("lang"); // the remembered choice wins over a shared link's from now on
    location.href = url.toString();
  });
}

/** The page's static words (elements marked data-t) in the chosen language. */
function translateStatic() {
  for (const el of document.querySelectorAll("[data-t]")) {
    if (has(el.dataset.t)) el.textContent = t(el.dataset.t);
  }
  document.getElementById("player-name").placeholder = t("player.default", { n: 1 });
  document.getElementById("table-name").placeholder = t("lobby.optional");
  document.getElementById("seed").placeholder = t("lobby.random");
  document.title = pageTitle(t("nav.lobby"));
  sidesSelect.replaceChildren(...["random", "A", "B"].map((s) => h("option", { value: s }, t(`sw.option.sides.${s}`))));
}

async function init() {
  const r = await api("GET", "/api/game-types");
  types = r.games.filter((g) => g.playable);
  bots = r.bots;
  chosenLanguage(); // ?lang= in the address, else this browser's choice, else Accept-Language
  await loadLanguage(["common", ...types.map((g) => g.id.replaceAll("-", "_"))]);
  translateStatic();
  fillLanguages();
  gameSelect.replaceChildren(...types.map((g) => h("option", { value: g.id }, gameName(g.id, g.name))));
  gameSelect.addEventListener("change", fillPlayers);
  playersSelect.addEventListener("change", fillSeats);
  sidesSelect.addEventListener("change", describeOption);
  presetSelect.addEventListener("change", describeOption);
  playersSelect.append(h("option", { value: 4 }, "4"));
  fillPlayers();
  form.addEventListener("submit", create);
  await loadLists();
  document.body.dataset.ready = "1";
}

init().catch((e) => toast(e.message, "error"));
