// A hex map drawn as SVG: pointy-top cells in axial coordinates (q, r), shared by the games whose
// boards are hex grids (Deus, Civilization: A New Dawn). Each cell is a polygon with an optional
// label, marks (small coloured discs or text badges) and a click handler; the map scales to its
// container.

const SVG = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Centre of cell (q, r) for cells of circumradius `size`. */
export function hexCentre(q, r, size) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

function corners(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(2)},${(cy + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/**
 * Draw a hex map.
 * @param {Array<{q:number,r:number,fill?:string,label?:string,title?:string,cls?:string,
 *   data?:object,marks?:Array<{color?:string,ink?:string,text?:string,title?:string,shape?:string}>,
 *   onclick?:Function}>} cells
 * @param {{size?:number, ariaLabel?:string, maxWidth?:number, markScale?:number}} opts
 *   markScale enlarges the marks (default 1: small discs, three to a row)
 * @returns {SVGSVGElement}
 */
export function hexMap(cells, opts = {}) {
  const size = opts.size || 30;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const c of cells) {
    const [x, y] = hexCentre(c.q, c.r, size);
    minX = Math.min(minX, x - size);
    maxX = Math.max(maxX, x + size);
    minY = Math.min(minY, y - size);
    maxY = Math.max(maxY, y + size);
  }
  if (!cells.length) [minX, minY, maxX, maxY] = [0, 0, 1, 1];
  const pad = 4;
  const svg = el("svg", {
    class: "hexmap",
    viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`,
    role: "img",
    "aria-label": opts.ariaLabel || "map",
    style: opts.maxWidth ? `max-width:${opts.maxWidth}px` : null,
  });
  for (const c of cells) {
    const [cx, cy] = hexCentre(c.q, c.r, size);
    const attrs = { class: `cell ${c.cls || ""}`.trim(), "data-q": c.q, "data-r": c.r, onclick: c.onclick || null };
    for (const [k, v] of Object.entries(c.data || {})) attrs[`data-${k}`] = v;
    if (c.onclick) {
      attrs.tabindex = 0;
      attrs.role = "button";
      attrs.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          c.onclick(ev);
        }
      };
    }
    const g = el("g", attrs);
    g.append(el("polygon", { points: corners(cx, cy, size * 0.97), fill: c.fill || "#ddd" }));
    if (c.title) g.append(el("title", {}, c.title));
    if (c.label) g.append(el("text", { x: cx, y: cy - size * 0.45, class: "cell-label", "text-anchor": "middle" }, c.label));
    const marks = c.marks || [];
    const step = size * 0.42 * (opts.markScale || 1);
    marks.forEach((m, i) => {
      const col = i % 3;
      const row = Math.floor(i / 3);
      const perRow = opts.markScale > 1 ? 2 : 3;
      const c2 = i % perRow;
      const r2 = Math.floor(i / perRow);
      const mx = perRow === 3 ? cx + (col - Math.min(2, marks.length - 1 - row * 3) / 2) * step : cx + (c2 - Math.min(1, marks.length - 1 - r2 * 2) / 2) * step;
      const my = perRow === 3 ? cy + row * step * 0.95 + size * 0.05 : cy + (r2 - 0.15) * step * 0.95 + size * 0.12;
      const mark = el("g", { class: `mark ${m.cls || ""}`.trim() });
      if (m.title) mark.append(el("title", {}, m.title));
      if (m.shape === "square") {
        mark.append(el("rect", { x: mx - step * 0.4, y: my - step * 0.4, width: step * 0.8, height: step * 0.8, rx: 2, fill: m.color || "#444" }));
      } else {
        mark.append(el("circle", { cx: mx, cy: my, r: step * 0.42, fill: m.color || "#444" }));
      }
      if (m.text !== undefined && m.text !== null) {
        mark.append(el("text", { x: mx, y: my + step * 0.16, "text-anchor": "middle", class: "mark-text", style: m.ink ? `fill:${m.ink}` : null }, String(m.text)));
      }
      g.append(mark);
    });
    svg.append(g);
  }
  return svg;
}
