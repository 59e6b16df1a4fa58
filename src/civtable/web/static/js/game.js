// The table page: /game/{id}. A seat token (from this browser's storage or a "#token=" link)
// makes you that seat; without one you watch as a spectator.
//
// Hot seat: a browser may hold several seats of one game (friends around one screen, set up in
// the lobby). The page then follows every held seat (one push connection each) and shows the
// seat whose decision it is. When the decision passes to another held seat, a hand-over screen
// replaces the table — nothing of the previous seat's hand stays on the page — until the next
// player confirms; simultaneous decisions (7 Wonders) ask each held seat in turn.

import { adoptTokenFromHash, api, connect, forgetSeat, h, rememberSeat, seatsFor, toast } from "./api.js";
import { currentLanguage, gameName, joinList, loadLanguage, pageTitle, t, tn } from "./i18n.js";
import { installSprite } from "./icons.js";
import { tableClassFor } from "./tables.js";
import { setSuggester } from "./ui.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const spectating = params.has("spectate");
const root = document.getElementById("app");
const STATUS_RANK = { lobby: 0, active: 1, over: 2 };

let current = null; // the payload on screen
let table = null;
let catalogs = {};
let busy = false;
let sockets = [];
let shown = null; // the held seat on screen (hot seat), or the one seat held
let handover = null; // the held seat the device is being passed to (hand-over screen)
const payloads = new Map(); // token -> the newest payload for that token's seat

installSprite();
adoptTokenFromHash(gameId);

/** The tokens this page plays with: every seat this browser holds in the game. */
function tokens() {
  return spectating ? [] : seatsFor(gameId).map((s) => s.token);
}

function tokenOf(seat) {
  for (const [tok, p] of payloads) if (p.you === seat) return tok;
  return null;
}

function newer(p, than) {
  if (!than) return true;
  const a = STATUS_RANK[p.status] ?? 0;
  const b = STATUS_RANK[than.status] ?? 0;
  if (a !== b || p.you !== than.you) return a > b || p.you !== than.you;
  // more moves is newer, whichever server process sent it (several processes' clocks may
  // differ); at one seq, the version orders the payloads (tentative steps, cancels, lobby)
  if (p.seq !== undefined && than.seq !== undefined && p.seq !== than.seq) return p.seq > than.seq;
  if (p.version !== undefined && than.version !== undefined) return p.version >= than.version;
  return p.seq >= than.seq;
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

const decides = (p) => !!(p && p.status === "active" && p.view && p.view.legal && p.view.legal.length);

/** A payload arrived for the seat of `tok` (or for a spectator: tok null). */
async function receive(tok, p) {
  const key = tok || "";
  if (!newer(p, payloads.get(key))) {
    // an older payload (a move's reply that a push overtook): nothing new to show, but the
    // table may have been drawn while the move was in flight, with its buttons disabled
    if (table && current && current.status !== "lobby" && table.busy !== busy) {
      table.busy = busy;
      table.render(current);
      root.classList.toggle("busy", busy);
    }
    return;
  }
  payloads.set(key, p);
  if (tok && p.you !== null && p.you !== undefined) {
    const known = seatsFor(gameId).find((s) => s.token === tok);
    if (known && known.seat === null) rememberSeat(gameId, p.you, tok, p.seats[p.you].name);
  }
  await choose();
}

/** Which payload to show: the one seat held; or, holding several, the seat to move — behind a
 *  hand-over screen when the device changes hands. */
async function choose() {
  const held = [...payloads.values()].filter((p) => p.you !== null && p.you !== undefined);
  if (tokens().length > 1 && held.length < tokens().length && !current) return; // wait for every held seat
  if (held.length <= 1) {
    const p = held[0] || payloads.get("");
    if (p) await show(p);
    return;
  }
  held.sort((a, b) => a.you - b.you);
  const bySeat = new Map(held.map((p) => [p.you, p]));
  const anyOver = held.some((p) => p.status !== "active");
  if (anyOver) {
    handover = null;
    const p = bySeat.get(shown) || held[0];
    shown = p.you;
    return show(p);
  }
  const toMove = held.filter(decides).map((p) => p.you);
  if (handover !== null) {
    if (toMove.length && !toMove.includes(handover)) handover = nextAfter(toMove, shown);
    return drawHandover(bySeat.get(handover));
  }
  if (shown !== null && toMove.includes(shown)) return show(bySeat.get(shown));
  // no seat of this device decides (bots or remote players are moving): no one's private table
  // stays on screen while the device may change hands
  if (!toMove.length) return drawWaiting(held[0]);
  // the decision passes to another seat of this browser (or the page has just opened)
  handover = nextAfter(toMove, shown);
  return drawHandover(bySeat.get(handover));
}

/** Draw `p` unless it is on screen already (a push for another held seat changes nothing here). */
function show(p) {
  if (p === current && table && document.body.dataset.handover === undefined) return;
  return draw(p);
}

function nextAfter(seats, seat) {
  if (seat === null) return seats[0];
  return seats.find((s) => s > seat) ?? seats[0];
}

function seatName(p, seat) {
  const names = p.words && p.words.names;
  if (names && names[seat]) return names[seat];
  const s = p.seats[seat];
  return (s && s.name) || t("player.default", { n: seat + 1 });
}

/** The hand-over screen: the table is gone until the next player says they are ready. */
function drawHandover(p) {
  table = null;
  current = null;
  const name = seatName(p, p.you);
  const ready = h(
    "button.primary.handover-ready",
    {
      type: "button",
      "data-testid": "handover-ready",
      onclick: () => {
        shown = p.you;
        handover = null;
        choose();
      },
    },
    t("handover.ready", { name }),
  );
  root.replaceChildren(
    h(
      "section.panel.handover",
      { "data-testid": "handover", "data-seat": p.you, role: "dialog", "aria-label": t("handover.title", { name }) },
      h("h2", null, t("handover.title", { name })),
      h("p", null, t("handover.hint")),
      ready,
    ),
  );
  document.title = pageTitle(gameName(p.game, p.game_name));
  document.getElementById("game-title").textContent = gameName(p.game, p.game_name);
  document.getElementById("whoami").textContent = t("handover.whoami", { name });
  document.getElementById("seat-link").hidden = true;
  document.body.dataset.handover = String(p.you);
  document.body.dataset.yourTurn = "0";
  document.body.dataset.status = p.status;
  document.body.dataset.view = `handover.${p.you}.${p.version}`;
  ready.focus();
}

/** Between two hot-seat players, while others move: a neutral screen, nothing private on it. */
function drawWaiting(p) {
  table = null;
  current = null;
  const others = ((p.view && p.view.to_move) || []).map((s) => seatName(p, s));
  root.replaceChildren(
    h(
      "section.panel.handover",
      { "data-testid": "handover-waiting", role: "status" },
      h("h2", null, others.length ? t("status.waiting", { players: joinList(others) }) : "…"),
      h("p", null, t("handover.waiting_hint")),
    ),
  );
  document.title = pageTitle(gameName(p.game, p.game_name));
  document.getElementById("game-title").textContent = gameName(p.game, p.game_name);
  document.getElementById("whoami").textContent = "";
  document.getElementById("seat-link").hidden = true;
  document.body.dataset.handover = "waiting";
  document.body.dataset.yourTurn = "0";
  document.body.dataset.status = p.status;
  document.body.dataset.view = `waiting.${p.version}`;
}

/** The body's data-your-turn: "1" while the table shown waits for this seat's decision and no
 *  move of this page is on its way to the server. A push of other seats' moves can be drawn while
 *  the page's own move is in flight; its table is this seat's turn without that move, but the
 *  move is already made, so the page does not say "your turn" again until the reply is shown. */
function markTurn() {
  const waiting = document.body.dataset.handover !== undefined || !current || !table;
  const yours = !waiting && !busy && decides(current);
  document.body.dataset.yourTurn = yours ? "1" : "0";
  document.body.dataset.busy = busy ? "1" : "0";
}

async function draw(p) {
  current = p;
  delete document.body.dataset.handover;
  const yourTurn = decides(p);
  // The body's data-* attributes (which tests and scripts wait on) change only once the page
  // shows this payload, never before the table below has been drawn.
  const mark = () => {
    document.body.dataset.seq = String(p.seq);
    // the position shown: moves committed, then this seat's tentative steps (tests wait on it);
    // data-seat says whose view it is (hot seat: several seats take turns on one page)
    document.body.dataset.view = `${p.seq}.${p.tentative || 0}`;
    document.body.dataset.seat = p.you ?? "s";
    document.body.dataset.status = p.status;
    markTurn();
  };
  const heading = `${gameName(p.game, p.game_name)}${p.name ? ` · ${p.name}` : ""}`;
  document.title = `${yourTurn ? "● " : ""}${pageTitle(heading)}`;
  document.getElementById("game-title").textContent = `${heading} · ${tn("n.player", p.players)}`;
  const who = document.getElementById("whoami");
  document.getElementById("seat-link").hidden = !(p.you !== null && p.you !== undefined && tokenOf(p.you));
  const rules = document.getElementById("rules-link");
  if (rules) {
    rules.href = `/rules/${encodeURIComponent(p.game)}`;
    rules.hidden = false;
  }
  if (p.you !== null && p.you !== undefined) {
    shown = p.you;
    who.textContent = t("table.you_are", { name: seatName(p, p.you), n: p.you + 1 });
  } else {
    who.textContent = t("status.spectating");
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
  if (!table || table.root !== root || table.constructor !== Table) {
    table = new Table(root, catalog, {
      onAction: play,
      onCancel: cancel,
      onIllegal: (msg) => toast(msg, "error"),
      footer: () =>
        h(
          "p.final-links",
          null,
          h("a.button", { href: `/replay/${encodeURIComponent(gameId)}`, "data-testid": "replay-link" }, t("table.replay")),
          " ",
          h("a.button", { href: "/" }, t("table.back_to_lobby")),
        ),
    });
  }
  table.busy = busy;
  table.render(p);
  root.classList.toggle("busy", busy);
  mark();
}

async function fetchState(tok) {
  return api("GET", `/api/games/${encodeURIComponent(gameId)}/state${langQuery()}`, { token: tok });
}

async function refresh() {
  const list = tokens();
  try {
    if (!list.length) {
      await receive(null, await fetchState(null));
      return;
    }
    for (const tok of list) {
      try {
        await receive(tok, await fetchState(tok));
      } catch (e) {
        if (e.status !== 403) throw e;
        toast(t("table.token_invalid"), "warn");
        forgetSeat(gameId, tok);
        payloads.delete(tok);
      }
    }
    if (!tokens().length) await receive(null, await fetchState(null));
  } catch (e) {
    root.replaceChildren(
      h("div.panel.error", null, h("h2", null, t("table.cannot_open")), h("p", null, e.message), h("a", { href: "/" }, t("table.back_to_lobby"))),
    );
    throw e;
  }
}

async function play(action) {
  if (busy || !current) return;
  const tok = tokenOf(current.you);
  busy = true;
  root.classList.add("busy");
  if (table) table.busy = true;
  markTurn();
  try {
    const p = await api("POST", `/api/games/${encodeURIComponent(gameId)}/moves${langQuery()}`, {
      token: tok,
      body: { seq: current.seq, action, tentative: current.tentative || 0 },
    });
    busy = false;
    await receive(tok, p);
  } catch (e) {
    busy = false;
    if (e.status === 409) {
      toast(`${e.message}`, "warn");
      payloads.delete(tok);
      await refresh();
    } else {
      toast(t("table.move_refused", { reason: e.message }), "error");
      if (current) await draw(current);
    }
  } finally {
    busy = false;
    root.classList.remove("busy");
    if (table) table.busy = false;
    markTurn();
  }
}

// "Suggest a move": the bot's best moves for the seat whose table is shown (issue 22)
setSuggester((p) =>
  api("POST", `/api/games/${encodeURIComponent(gameId)}/suggest${langQuery()}`, { token: tokenOf(p.you), body: { seq: p.seq } }),
);

/** Withdraw the tentative steps of a compound move (all, or the last `steps`). */
async function cancel(steps = null) {
  if (busy || !current) return;
  const tok = tokenOf(current.you);
  busy = true;
  root.classList.add("busy");
  markTurn();
  try {
    const body = steps ? { seq: current.seq, steps } : { seq: current.seq };
    const p = await api("POST", `/api/games/${encodeURIComponent(gameId)}/cancel${langQuery()}`, { token: tok, body });
    busy = false;
    payloads.delete(tok);
    await receive(tok, p);
  } catch (e) {
    busy = false;
    toast(e.message, "error");
    payloads.delete(tok);
    await refresh();
  } finally {
    busy = false;
    root.classList.remove("busy");
    if (table) table.busy = false;
    markTurn();
  }
}

// --- lobby view of one game -----------------------------------------------------------------
function renderLobby(p) {
  const youSit = p.you !== null && p.you !== undefined;
  const nameInput = h("input", { id: "join-name", maxlength: "60", placeholder: t("wait.name_placeholder") });
  const seatsList = h(
    "ul.seats",
    null,
    p.seats.map((s) =>
      h(
        `li.seat${s.taken ? ".taken" : ".free"}`,
        null,
        h("b", null, t("wait.seat", { n: s.seat + 1 })),
        " ",
        s.kind === "bot" ? seatName(p, s.seat) : s.taken ? s.name || t("wait.a_player") : t("wait.free"),
        p.you === s.seat ? h("em", null, ` ${t("wait.you")}`) : null,
        !s.taken && !youSit
          ? h("button", { type: "button", "data-testid": `join-${s.seat}`, onclick: () => join(s.seat, nameInput.value) }, t("wait.sit"))
          : null,
      ),
    ),
  );
  const share = `${location.origin}/game/${encodeURIComponent(gameId)}`;
  root.replaceChildren(
    h(
      "section.panel.waiting",
      null,
      h("h2", null, t("wait.title")),
      h("p", null, t("wait.share")),
      h("p", null, h("input.share", { value: share, readonly: true, "aria-label": t("wait.share"), onclick: (ev) => ev.target.select() })),
      !youSit ? h("p", null, h("label", null, `${t("wait.your_name")} `, nameInput)) : null,
      seatsList,
      youSit ? h("p", null, h("button.primary", { type: "button", onclick: () => start() }, t("wait.start")), " ", t("wait.autostart")) : null,
    ),
  );
}

async function join(seat, name) {
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { body: { seat, name } });
    rememberSeat(gameId, r.seat, r.token, name);
    reconnect();
    await refresh();
  } catch (e) {
    toast(e.message, "error");
  }
}

async function start() {
  try {
    const tok = tokenOf(current.you);
    await receive(tok, await api("POST", `/api/games/${encodeURIComponent(gameId)}/start`, { token: tok, body: { fill_with: "normal" } }));
  } catch (e) {
    toast(e.message, "error");
  }
}

function reconnect() {
  for (const s of sockets) s.close();
  const conn = document.getElementById("conn");
  const list = tokens();
  sockets = (list.length ? list : [null]).map((tok) =>
    connect(gameId, tok, {
      lang: currentLanguage(),
      onPayload: (p) => receive(tok, p),
      onStatus: (s, detail) => {
        conn.className = `conn ${s}`;
        conn.title = s === "live" ? t("table.live") : detail || t("table.reconnecting");
        if (s === "live" && current) refresh().catch(() => {});
      },
    }),
  );
}

document.getElementById("seat-link").addEventListener("click", () => {
  const tok = current && tokenOf(current.you);
  if (!tok) return;
  const link = `${location.origin}/game/${encodeURIComponent(gameId)}#token=${tok}`;
  const input = h("input.share", { value: link, readonly: true, "aria-label": t("table.seat_link_aria") });
  toast(h("span", null, `${t("table.seat_link_text")} `, input), "info", 20000);
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
});

/** The page's own words (the nav bar is static HTML written in English until this runs). */
function translateChrome() {
  const link = document.getElementById("seat-link");
  link.textContent = t("table.seat_link");
  link.title = t("table.seat_link_title");
  const rules = document.getElementById("rules-link");
  if (rules) rules.textContent = t("ui.rules");
  const lobby = document.getElementById("lobby-link");
  if (lobby) lobby.textContent = t("nav.lobby");
  const loading = root.querySelector(".loading");
  if (loading) loading.textContent = t("table.loading");
  const conn = document.getElementById("conn");
  if (conn) conn.title = t("table.live");
  document.title = pageTitle(t("page.table"));
}

wordsFor(null)
  .then(() => translateChrome())
  .then(() => refresh())
  .then(() => reconnect())
  .catch(() => {});
