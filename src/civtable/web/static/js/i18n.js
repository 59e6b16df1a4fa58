// Words in the reader's language. The catalogues are the server's gettext PO files
// (civtable/locale/<lang>/<domain>.po), served as JSON by /api/i18n/{lang}; plural forms are
// picked with the browser's Intl.PluralRules, in the order the server gives
// (plural_categories), so the browser and the server choose the same form.
//
//   await loadLanguage(["common", "deus"]);   // once per page, before drawing
//   t("ui.cancel")                             // "Cancel"
//   tn("n.card", 5)                            // "5 cards"  (ru: "5 карт")
//   t("status.waiting", { players: "Ann" })    // "Waiting for Ann"

const STORE_KEY = "civtable.lang";
let messages = {};
let lang = "en";
let categories = ["one", "other"];
let rules = null;
let available = [{ code: "en", name: "English" }];

/** The language chosen for this page: ?lang=, then this browser's remembered choice, then the
 *  server's reading of Accept-Language (passed in), then English. */
export function chosenLanguage(serverDefault = "en", codes = null) {
  const ok = (c) => c && (!codes || codes.includes(c));
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (ok(fromUrl)) return fromUrl;
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch (_e) {
    stored = null;
  }
  if (ok(stored)) return stored;
  return ok(serverDefault) ? serverDefault : "en";
}

/** Remember a language choice for this browser (the lobby's picker calls it). */
export function rememberLanguage(code) {
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch (_e) {
    /* private mode: the choice lasts for this page only */
  }
}

/** Load the catalogues of some domains in the chosen language; returns the language code. */
export async function loadLanguage(domains = ["common"]) {
  let info = null;
  try {
    const res = await fetch("/api/languages", { headers: { Accept: "application/json" } });
    info = res.ok ? await res.json() : null;
  } catch (_e) {
    info = null;
  }
  if (info) available = info.languages;
  const code = chosenLanguage(info ? info.default : "en", available.map((l) => l.code));
  const known = info && info.domains ? domains.filter((d) => info.domains.includes(d)) : domains;
  const q = known.map((d) => `domain=${encodeURIComponent(d)}`).join("&");
  const res = await fetch(`/api/i18n/${encodeURIComponent(code)}?${q}`, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`cannot load the ${code} catalogue (HTTP ${res.status})`);
  const doc = await res.json();
  messages = { ...messages, ...doc.messages };
  lang = doc.lang;
  categories = doc.plural_categories;
  rules = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  return lang;
}

/** The current language code. */
export function currentLanguage() {
  return lang;
}

/** The languages the server speaks: [{code, name}]. */
export function languages() {
  return available;
}

function fill(template, args) {
  return template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}

/** Is `key` in the loaded catalogues? */
export function has(key) {
  return key in messages;
}

/** The message `key` with its {placeholders} filled; a plural message uses args.n. */
export function t(key, args = {}) {
  const value = messages[key];
  if (value === undefined) {
    console.warn(`civtable: no message ${key}`);
    return key;
  }
  if (Array.isArray(value)) {
    const n = Number(args.n);
    const i = categories.indexOf(rules ? rules.select(Math.abs(n)) : n === 1 ? "one" : "other");
    return fill(value[i >= 0 ? i : value.length - 1], args);
  }
  return fill(value, args);
}

/** The plural message `key` for the count n. */
export function tn(key, n, args = {}) {
  return t(key, { ...args, n });
}

/** "A, B and C" in the current language. */
export function joinList(items, type = "conjunction") {
  const list = items.map(String);
  try {
    return new Intl.ListFormat(lang, { style: "long", type }).format(list);
  } catch (_e) {
    return list.join(", ");
  }
}

/** A game's name in the current language (game.<pkg> of the common catalogue), else `fallback`
 *  (the server's English name). */
export function gameName(gameId, fallback = "") {
  const key = `game.${String(gameId || "").replaceAll("-", "_")}`;
  return has(key) ? t(key) : fallback || String(gameId || "");
}

/** The page's title: "civtable · <what>". */
export function pageTitle(what) {
  return has("page.title") ? t("page.title", { page: what }) : `civtable · ${what}`;
}
