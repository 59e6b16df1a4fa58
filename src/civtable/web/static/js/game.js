// The table page: /game/{id}. A seat token (from this browser's storage or a "#token=" link)
// makes you that seat; without one you watch as a spectator.

import { adoptTokenFromHash, api, connect, forgetSeat, h, rememberSeat, seatFor, toast } from "./api.js";
import { currentLanguage, loadLanguage } from "./i18n.js";
import { installSprite } from "./icons.js";
import { tableClassFor } from "./tables.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const spectating = params.has("spectate");
const root = document.getElementById("app");
const STATUS_RANK = { lobby: 0, active: 1, over: 2 };

let token = null;
let current = null;
let table = null;
let catalogs = {};
let busy = false;
let socket = null;

installSprite();
adoptTokenFromHash(gameId);
if (!spectating) token = (seatFor(gameId) || {}).token || null;

function newer(p) {
  if (!current) return true;
  const a = STATUS_RANK[p.status] ?? 0;
  const b = STATUS_RANK[current.status] ?? 0;
  if (a !== b || p.you !== current.you) return a > b || p.you !== current.you;
  // the server's version orders every payload of one game (moves, tentative steps, cancels)
  if (p.version !== undefined && current.version !== undefined) return p.version >= current.version;
  return p.seq >= current.seq;
}

let domainsLoaded = null;

/** The catalogues of the page: common words, and the game's own once its id is known. */
async function wordsFor(game) {
  const want = game ? ["common", game.replaceAll("-", "_")] : ["common"];
  const key = want.join(",");
  if (domainsLoaded === key) return;
  await loadLanguage(want); // a domain the server does not have is left out
  domainsLoaded = key;
}

/** `?lang=` for API calls: the payload then carries the player words (payload.words). */
function langQuery(sep = "?") {
  return `${sep}lang=${encodeURIComponent(currentLanguage())}`;
}

async function catalogFor(game) {
  if (!catalogs[game]) catalogs[game] = await api("GET", `/api/game-types/${game}/catalog${langQuery()}`);
  return catalogs[game];
}

async function accept(p) {
  if (!newer(p)) {
    // an older payload (a move's reply that a push overtook): nothing new to show, but the
    // table may have been drawn while the move was in flight, with its buttons disabled
    if (table && current && current.status !== "lobby" && table.busy !== busy) {
      table.busy = busy;
      table.render(current);
      root.classList.toggle("busy", busy);
    }
    return;
  }
  current = p;
  const yourTurn = !!(p.view && p.view.legal && p.view.legal.length);
  // The body's data-* attributes (which tests and scripts wait on) change only once the page
  // shows this payload, never before the table below has been drawn.
  const mark = () => {
    document.body.dataset.seq = String(p.seq);
    // the position shown: moves committed, then this seat's tentative steps (tests wait on it)
    document.body.dataset.view = `${p.seq}.${p.tentative || 0}`;
    document.body.dataset.status = p.status;
    document.body.dataset.yourTurn = yourTurn ? "1" : "0";
  };
  document.title = `${yourTurn ? "● " : ""}civtable · ${p.game_name}${p.name ? ` · ${p.name}` : ""}`;
  document.getElementById("game-title").textContent = `${p.game_name}${p.name ? ` · ${p.name}` : ""} · ${p.players} players`;
  const who = document.getElementById("whoami");
  document.getElementById("seat-link").hidden = !(token && p.you !== null && p.you !== undefined);
  if (p.you !== null && p.you !== undefined) {
    const s = p.seats[p.you];
    who.textContent = `you: ${s.name || `Player ${p.you + 1}`} (seat ${p.you + 1})`;
    const known = seatFor(gameId);
    if (known && known.seat === null) rememberSeat(gameId, p.you, known.token, s.name);
  } else {
    who.textContent = "spectating";
  }
  if (p.status === "lobby") {
    table = null;
    renderLobby(p);
    mark();
    return;
  }
  await wordsFor(p.game);
  const catalog = await catalogFor(p.game);
  const Table = await tableClassFor(params.get("view") === "generic" ? null : p.game);
  if (current !== p) return; // a newer payload arrived while the catalogue loaded
  if (!table || table.root !== root) {
    table = new Table(root, catalog, {
      onAction: play,
      onCancel: cancel,
      onIllegal: (msg) => toast(msg, "error"),
      footer: () =>
        h(
          "p.final-links",
          null,
          h("a.button", { href: `/replay/${encodeURIComponent(gameId)}`, "data-testid": "replay-link" }, "Watch the replay"),
          " ",
          h("a.button", { href: "/" }, "Back to the lobby"),
        ),
    });
  }
  table.busy = busy;
  table.render(p);
  root.classList.toggle("busy", busy);
  mark();
}

async function refresh() {
  try {
    await accept(await api("GET", `/api/games/${encodeURIComponent(gameId)}/state${langQuery()}`, { token }));
  } catch (e) {
    if (e.status === 403 && token) {
      toast("This browser's seat token is not valid for this game any more; you are watching.", "warn");
      forgetSeat(gameId);
      token = null;
      current = null;
      return refresh();
    }
    root.replaceChildren(h("div.panel.error", null, h("h2", null, "Cannot open this game"), h("p", null, e.message), h("a", { href: "/" }, "Back to the lobby")));
    throw e;
  }
}

async function play(action, label) {
  if (busy || !current) return;
  busy = true;
  root.classList.add("busy");
  if (table) table.busy = true;
  try {
    const p = await api("POST", `/api/games/${encodeURIComponent(gameId)}/moves${langQuery()}`, {
      token,
      body: { seq: current.seq, action },
    });
    busy = false;
    await accept(p);
  } catch (e) {
    busy = false;
    if (e.status === 409) {
      toast(`${e.message}`, "warn");
      current = null;
      await refresh();
    } else {
      toast(`Move refused: ${e.message}`, "error");
      if (current) await accept({ ...current, seq: current.seq });
    }
  } finally {
    busy = false;
    root.classList.remove("busy");
    if (table) table.busy = false;
  }
}

/** Withdraw the tentative steps of a compound move (all, or the last `steps`). */
async function cancel(steps = null) {
  if (busy || !current) return;
  busy = true;
  root.classList.add("busy");
  try {
    const body = steps ? { seq: current.seq, steps } : { seq: current.seq };
    const p = await api("POST", `/api/games/${encodeURIComponent(gameId)}/cancel${langQuery()}`, { token, body });
    busy = false;
    current = null;
    await accept(p);
  } catch (e) {
    busy = false;
    toast(e.message, "error");
    current = null;
    await refresh();
  } finally {
    busy = false;
    root.classList.remove("busy");
    if (table) table.busy = false;
  }
}

// --- lobby view of one game -----------------------------------------------------------------
function renderLobby(p) {
  const youSit = p.you !== null && p.you !== undefined;
  const nameInput = h("input", { id: "join-name", maxlength: "60", placeholder: "your name" });
  const seatsList = h(
    "ul.seats",
    null,
    p.seats.map((s) =>
      h(
        `li.seat${s.taken ? ".taken" : ".free"}`,
        null,
        h("b", null, `Seat ${s.seat + 1}: `),
        s.kind === "bot" ? `${s.bot} bot` : s.taken ? s.name || "a player" : "free",
        p.you === s.seat ? h("em", null, " (you)") : null,
        !s.taken && !youSit
          ? h("button", { type: "button", "data-testid": `join-${s.seat}`, onclick: () => join(s.seat, nameInput.value) }, "Sit here")
          : null,
      ),
    ),
  );
  const share = `${location.origin}/game/${encodeURIComponent(gameId)}`;
  root.replaceChildren(
    h(
      "section.panel.waiting",
      null,
      h("h2", null, "Waiting for players"),
      h("p", null, "Send this link to your friends so they can take a free seat:"),
      h("p", null, h("input.share", { value: share, readonly: true, onclick: (ev) => ev.target.select() })),
      !youSit ? h("p", null, h("label", null, "Your name ", nameInput)) : null,
      seatsList,
      youSit
        ? h(
            "p",
            null,
            h("button.primary", { type: "button", onclick: () => start() }, "Start now (free seats become bots)"),
            " The game also starts by itself when every seat is taken.",
          )
        : null,
    ),
  );
}

async function join(seat, name) {
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { body: { seat, name } });
    rememberSeat(gameId, r.seat, r.token, name);
    token = r.token;
    current = null;
    reconnect();
    await refresh();
  } catch (e) {
    toast(e.message, "error");
  }
}

async function start() {
  try {
    await accept(await api("POST", `/api/games/${encodeURIComponent(gameId)}/start`, { token, body: { fill_with: "normal" } }));
  } catch (e) {
    toast(e.message, "error");
  }
}

function reconnect() {
  if (socket) socket.close();
  const conn = document.getElementById("conn");
  socket = connect(gameId, token, {
    lang: currentLanguage(),
    onPayload: (p) => accept(p),
    onStatus: (s, detail) => {
      conn.className = `conn ${s}`;
      conn.title = s === "live" ? "live connection" : detail || s;
      if (s === "live" && current) refresh().catch(() => {});
    },
  });
}

document.getElementById("seat-link").addEventListener("click", () => {
  const link = `${location.origin}/game/${encodeURIComponent(gameId)}#token=${token}`;
  const input = h("input.share", { value: link, readonly: true, "aria-label": "your private seat link" });
  toast(h("span", null, "Your private seat link (keep it secret: it is your seat): ", input), "info", 20000);
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
});

wordsFor(null)
  .then(() => refresh())
  .then(() => reconnect())
  .catch(() => {});
