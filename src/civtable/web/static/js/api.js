// Talking to the civtable server: JSON over HTTP, push over a WebSocket, seat tokens kept in
// this browser's localStorage (the token is the only proof of a seat; it never leaves this
// origin and is sent as "Authorization: Bearer").

import { has, t } from "./i18n.js";

const STORE_KEY = "civtable.seats";

/** The words a player reads for a refused request: chosen by the error's code in the reader's
 *  language (error.<code> of the common catalogue), else a general sentence with the HTTP status;
 *  the server's own English `detail` is for developers and shows only when no catalogue is
 *  loaded (it stays on the error as `detail`, and in the browser's console). */
export function errorText(code, status = 0, detail = "") {
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  if (status && has("error.http")) return t("error.http", { status });
  if (has("error.unknown")) return t("error.unknown");
  return detail || (status ? `HTTP ${status}` : "error");
}

export class ApiError extends Error {
  constructor(status, body) {
    const code = body && body.code;
    const detail = (body && body.detail) || "";
    super(errorText(code, status, detail));
    this.status = status;
    this.code = code;
    this.detail = detail;
    if (detail) console.warn(`civtable: ${status} ${code || ""}: ${detail}`);
  }
}

export async function api(method, path, { body = undefined, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (e) {
    // the server cannot be reached: no answer to read
    throw new ApiError(0, { code: "network", detail: String((e && e.message) || e) });
  }
  let data = null;
  try {
    data = await res.json();
  } catch (_e) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// --- seat tokens ---------------------------------------------------------------------------
// localStorage "civtable.seats": {gameId: {seat, token, name, at, seats?: [{seat, token, name}]}}.
// A browser may hold several seats of one game (hot seat: friends around one screen); they are
// listed in `seats`. An entry without `seats` (written before hot seat existed) holds one seat:
// its own seat/token/name, which stay the first seat's so that older code still reads them.
export function seats() {
  try {
    return JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
  } catch (_e) {
    return {};
  }
}

function store(all) {
  localStorage.setItem(STORE_KEY, JSON.stringify(all));
}

/** Every seat this browser holds in a game: [{seat, token, name}] (seat may be null until the
 *  server has said which seat a token holds). */
export function seatsFor(gameId) {
  const entry = seats()[gameId];
  if (!entry) return [];
  const list = Array.isArray(entry.seats) && entry.seats.length ? entry.seats : [entry];
  return list.filter((s) => s && s.token).map((s) => ({ seat: s.seat ?? null, token: s.token, name: s.name || "" }));
}

/** The (first) seat this browser holds in a game, or null. */
export function seatFor(gameId) {
  const list = seatsFor(gameId);
  return list.length ? { ...seats()[gameId], ...list[0] } : null;
}

/** Every token this browser holds, for every game (the lobby's "your games"). */
export function allTokens() {
  return Object.keys(seats()).flatMap((g) => seatsFor(g).map((s) => s.token));
}

/** Remember a seat of a game (added beside the seats already held, or updated by token). */
export function rememberSeat(gameId, seat, token, name = "") {
  const all = seats();
  const list = seatsFor(gameId).filter((s) => s.token !== token && (seat === null || s.seat !== seat));
  const mine = { seat, token, name };
  const kept = [...list, mine].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
  const first = kept[0];
  all[gameId] = { seat: first.seat, token: first.token, name: first.name, at: Date.now(), seats: kept };
  store(all);
}

/** Forget one seat of a game (by token), or every seat of it. */
export function forgetSeat(gameId, token = null) {
  const all = seats();
  const kept = token ? seatsFor(gameId).filter((s) => s.token !== token) : [];
  if (kept.length) {
    all[gameId] = { seat: kept[0].seat, token: kept[0].token, name: kept[0].name, at: Date.now(), seats: kept };
  } else {
    delete all[gameId];
  }
  store(all);
}

/** "#token=..." in the address (a private seat link) is stored and removed from the bar. */
export function adoptTokenFromHash(gameId) {
  const m = /(?:^|[#&])token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return;
  if (!seatsFor(gameId).some((s) => s.token === m[1])) rememberSeat(gameId, null, m[1]);
  history.replaceState(null, "", location.pathname + location.search);
}

// --- push ----------------------------------------------------------------------------------
/** The payload after a delta push: `held` (the payload this socket received last) with what
 *  changed. The delta's view is the new view except its log, which holds only the entries after
 *  the first `log_from` of the held one (the same for the words' log and `words_log_from`).
 *  Null when the delta is not based on the held payload (a gap): ask for the whole state. */
export function mergeDelta(held, delta) {
  if (!held || held.version !== delta.base) return null;
  const p = { ...delta, type: "state" };
  delete p.base;
  delete p.log_from;
  delete p.words_log_from;
  if (delta.log_from !== undefined && delta.view) {
    const old = (held.view && held.view.log) || [];
    p.view = { ...delta.view, log: old.slice(0, delta.log_from).concat(delta.view.log || []) };
  }
  if (delta.words_log_from !== undefined && delta.words) {
    const old = (held.words && held.words.log) || [];
    p.words = { ...delta.words, log: old.slice(0, delta.words_log_from).concat(delta.words.log || []) };
  }
  return p;
}

/** A self-reconnecting WebSocket; `onPayload` gets every state pushed (whole: the server's
 *  deltas are merged here, and a gap asks the server for the whole state). */
export function connect(gameId, token, { onPayload, onStatus, lang = null }) {
  let ws = null;
  let closed = false;
  let delay = 250;
  let pinger = null;
  let held = null; // the payload this connection received last: the base of the next delta
  const open = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    held = null; // a new connection starts with the whole payload
    ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
    ws.onopen = () => {
      const hello = token ? { token } : {};
      if (lang) hello.lang = lang;
      ws.send(JSON.stringify(hello));
      delay = 250;
      onStatus && onStatus("live");
      pinger = setInterval(() => ws.readyState === 1 && ws.send("ping"), 25000);
    };
    ws.onmessage = (ev) => {
      if (ev.data === "pong") return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_e) {
        return;
      }
      if (msg.type === "error") {
        onStatus && onStatus("error", errorText(msg.code, msg.status, msg.detail));
        closed = msg.status === 403 || msg.status === 404;
        return;
      }
      if (msg.type === "delta") {
        const whole = mergeDelta(held, msg);
        if (!whole) {
          held = null;
          ws.send(JSON.stringify({ type: "full" }));
          return;
        }
        msg = whole;
      }
      held = msg;
      onPayload(msg);
    };
    ws.onclose = () => {
      clearInterval(pinger);
      if (closed) return;
      onStatus && onStatus("reconnecting");
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
  return {
    close() {
      closed = true;
      ws && ws.close();
    },
  };
}

// --- tiny DOM helper -----------------------------------------------------------------------
/** h("div.card.blue", {title: "x", onclick: f}, child, "text", [more]) */
export function h(spec, attrs = null, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className += (el.className ? " " : "") + v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "text") el.textContent = v;
      else el.setAttribute(k, v === true ? "" : v);
    }
  }
  appendAll(el, children);
  return el;
}

function appendAll(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) appendAll(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function toast(text, kind = "info", ms = 4500) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const t = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(t);
  setTimeout(() => t.classList.add("fade"), ms);
  setTimeout(() => t.remove(), ms + 700);
  return t;
}

export function roman(n) {
  return ["", "I", "II", "III"][n] || String(n);
}
