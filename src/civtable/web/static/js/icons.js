// Inline SVG icons (one hidden sprite, referenced with <use>): resources, coins, shields,
// science symbols, victory points, military tokens. No image files, no network.

const NS = "http://www.w3.org/2000/svg";

const SYMBOLS = {
  // raw materials
  W: `<circle cx="16" cy="16" r="15" fill="#7a4a21"/><path d="M16 5 L25 19 H7 Z" fill="#3f7d2c"/><path d="M16 10 L23 22 H9 Z" fill="#4f9a37"/><rect x="14" y="21" width="4" height="6" fill="#4a2a10"/>`,
  S: `<circle cx="16" cy="16" r="15" fill="#8d949a"/><ellipse cx="12" cy="20" rx="7" ry="4.5" fill="#d5d8da"/><ellipse cx="20" cy="21" rx="6" ry="4" fill="#bfc4c8"/><ellipse cx="16" cy="13" rx="6" ry="4" fill="#e6e8ea"/>`,
  C: `<circle cx="16" cy="16" r="15" fill="#b5542c"/><g fill="#e08a5a" stroke="#7d3014" stroke-width="1"><rect x="6" y="9" width="9" height="5"/><rect x="16" y="9" width="10" height="5"/><rect x="6" y="15" width="5" height="5"/><rect x="12" y="15" width="9" height="5"/><rect x="22" y="15" width="4" height="5"/><rect x="9" y="21" width="14" height="4"/></g>`,
  O: `<circle cx="16" cy="16" r="15" fill="#3b4047"/><path d="M9 21 L13 9 L19 8 L24 19 L16 25 Z" fill="#6d7580"/><path d="M13 9 L16 16 L24 19 M16 16 L9 21" stroke="#aab3bd" stroke-width="1.3" fill="none"/>`,
  // manufactured goods
  G: `<circle cx="16" cy="16" r="15" fill="#2a8fa8"/><path d="M10 7 H22 L20 17 Q16 21 12 17 Z" fill="#bfeaf3" stroke="#e9fbff" stroke-width="1"/><rect x="15" y="19" width="2" height="5" fill="#e9fbff"/><rect x="11" y="24" width="10" height="2" rx="1" fill="#e9fbff"/>`,
  L: `<circle cx="16" cy="16" r="15" fill="#7a3f9a"/><path d="M7 10 Q12 7 16 10 T25 10 V22 Q20 25 16 22 T7 22 Z" fill="#d7b5ea"/><path d="M7 14 Q12 11 16 14 T25 14 M7 18 Q12 15 16 18 T25 18" stroke="#9c5fbf" stroke-width="1.2" fill="none"/>`,
  P: `<circle cx="16" cy="16" r="15" fill="#c7a86a"/><rect x="9" y="8" width="14" height="16" fill="#f6e9c6"/><circle cx="9" cy="9" r="2.5" fill="#e4cf98"/><circle cx="23" cy="23" r="2.5" fill="#e4cf98"/><path d="M12 12 H20 M12 15 H20 M12 18 H18" stroke="#9b7d45" stroke-width="1.2"/>`,
  // coins, shields, points
  coin: `<circle cx="16" cy="16" r="15" fill="#e0b13a" stroke="#9c7414" stroke-width="2"/><circle cx="16" cy="16" r="10" fill="none" stroke="#f6da85" stroke-width="1.5"/>`,
  shield: `<path d="M16 2 L28 7 V15 Q28 25 16 30 Q4 25 4 15 V7 Z" fill="#c0392b" stroke="#7b1d12" stroke-width="1.5"/><path d="M16 7 V25 M9 14 H23" stroke="#f3c3bb" stroke-width="2"/>`,
  vp: `<circle cx="16" cy="16" r="15" fill="#2f6db5" stroke="#173a66" stroke-width="1.5"/><path d="M8 20 Q6 12 11 7 M24 20 Q26 12 21 7" stroke="#bcd6f5" stroke-width="2" fill="none"/><path d="M7 14 l3 1 M7 18 l3 0 M25 14 l-3 1 M25 18 l-3 0" stroke="#bcd6f5" stroke-width="2"/>`,
  // science
  compass: `<circle cx="16" cy="16" r="15" fill="#2e8b57"/><circle cx="16" cy="8" r="2.5" fill="#e8f6ee"/><path d="M16 9 L9 26 M16 9 L23 26" stroke="#e8f6ee" stroke-width="2.5" stroke-linecap="round"/><path d="M11 20 Q16 23 21 20" stroke="#e8f6ee" stroke-width="1.5" fill="none"/>`,
  gear: `<circle cx="16" cy="16" r="15" fill="#2e8b57"/><g fill="#e8f6ee"><circle cx="16" cy="16" r="7"/><rect x="14" y="4" width="4" height="6"/><rect x="14" y="22" width="4" height="6"/><rect x="4" y="14" width="6" height="4"/><rect x="22" y="14" width="6" height="4"/><rect x="14" y="4" width="4" height="6" transform="rotate(45 16 16)"/><rect x="14" y="22" width="4" height="6" transform="rotate(45 16 16)"/><rect x="4" y="14" width="6" height="4" transform="rotate(45 16 16)"/><rect x="22" y="14" width="6" height="4" transform="rotate(45 16 16)"/></g><circle cx="16" cy="16" r="3" fill="#2e8b57"/>`,
  tablet: `<circle cx="16" cy="16" r="15" fill="#2e8b57"/><path d="M9 9 Q9 6 16 6 Q23 6 23 9 V26 H9 Z" fill="#e8f6ee"/><path d="M12 11 H20 M12 14 H20 M12 17 H20 M12 20 H18" stroke="#2e8b57" stroke-width="1.3"/>`,
  wild: `<circle cx="16" cy="16" r="15" fill="#2e8b57"/><text x="16" y="22" font-size="17" font-weight="bold" text-anchor="middle" fill="#e8f6ee" font-family="serif">?</text>`,
  // military tokens
  victory: `<circle cx="16" cy="16" r="15" fill="#b5651d" stroke="#6e3a0c" stroke-width="1.5"/><path d="M9 22 L16 8 L23 22" stroke="#fbe2b8" stroke-width="2.5" fill="none"/>`,
  defeat: `<circle cx="16" cy="16" r="15" fill="#2b2b2b" stroke="#000" stroke-width="1.5"/><path d="M10 10 L22 22 M22 10 L10 22" stroke="#d9d9d9" stroke-width="3"/>`,
  // trade, arrows, misc
  left: `<path d="M20 6 L8 16 L20 26" stroke="currentColor" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  right: `<path d="M12 6 L24 16 L12 26" stroke="currentColor" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  check: `<circle cx="16" cy="16" r="15" fill="#2e8b57"/><path d="M9 16 L14 21 L23 11" stroke="#fff" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
  hourglass: `<circle cx="16" cy="16" r="15" fill="#8c6d3f"/><path d="M10 7 H22 M10 25 H22 M11 7 Q11 14 16 16 Q21 14 21 7 M11 25 Q11 18 16 16 Q21 18 21 25" stroke="#f4ead5" stroke-width="2" fill="none"/>`,
  pyramid: `<path d="M16 4 L29 27 H3 Z" fill="#d8b45c" stroke="#8a6a1f" stroke-width="1.5"/><path d="M16 4 L19 27" stroke="#8a6a1f" stroke-width="1.2"/>`,
  crown: `<path d="M4 24 L6 10 L12 17 L16 7 L20 17 L26 10 L28 24 Z" fill="#e0b13a" stroke="#8a6a1f" stroke-width="1.5" stroke-linejoin="round"/><rect x="4" y="24" width="24" height="4" fill="#c8961e"/>`,
  cards: `<rect x="5" y="7" width="14" height="20" rx="2" fill="#efe1bd" stroke="#7a6648" stroke-width="1.5" transform="rotate(-12 12 17)"/><rect x="13" y="5" width="14" height="20" rx="2" fill="#fff7e3" stroke="#7a6648" stroke-width="1.5" transform="rotate(8 20 15)"/>`,
  chain: `<g fill="none" stroke="currentColor" stroke-width="3"><rect x="3" y="11" width="14" height="10" rx="5"/><rect x="15" y="11" width="14" height="10" rx="5"/></g>`,
};

export const RESOURCE_ORDER = ["W", "S", "C", "O", "G", "L", "P"];

/** Put the sprite into the page once. */
export function installSprite() {
  if (document.getElementById("civtable-sprite")) return;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("id", "civtable-sprite");
  svg.setAttribute("aria-hidden", "true");
  svg.style.display = "none";
  svg.innerHTML = Object.entries(SYMBOLS)
    .map(([id, body]) => `<symbol id="i-${id}" viewBox="0 0 32 32">${body}</symbol>`)
    .join("");
  document.body.prepend(svg);
}

/** An icon element; `label` becomes its accessible title. */
export function icon(name, { label = "", cls = "", text = null } = {}) {
  const wrap = document.createElement("span");
  wrap.className = `ic ic-${name} ${cls}`.trim();
  if (label) {
    wrap.title = label;
    wrap.setAttribute("aria-label", label);
    wrap.setAttribute("role", "img");
  }
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  const use = document.createElementNS(NS, "use");
  use.setAttribute("href", `#i-${name}`);
  svg.append(use);
  wrap.append(svg);
  if (text !== null && text !== undefined) {
    const t = document.createElement("b");
    t.textContent = String(text);
    wrap.append(t);
    wrap.classList.add("ic-num");
  }
  return wrap;
}
