// Which table component draws which game. A game without an entry gets the generic table,
// which works from the labelled legal actions and the view alone.

const TABLES = {
  "seven-wonders": async () => (await import("./sevenwonders.js")).SevenWondersTable,
  deus: async () => (await import("./deus.js")).DeusTable,
  "civilization-a-new-dawn": async () => (await import("./civ.js")).CivTable,
  "through-the-ages": async () => (await import("./tta.js")).TtaTable,
};

/** The table class for `game` (loaded on first use); `null` (or "?view=generic" in the page's
 * address) asks for the generic table. */
export async function tableClassFor(game) {
  const load = TABLES[game];
  if (load) return load();
  return (await import("./generic.js")).GenericTable;
}
