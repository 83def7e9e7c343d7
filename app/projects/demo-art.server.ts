// This file is over 400 lines on purpose: drawing data for the demo pictures (see below).
/**
 * The demo projects' pictures (`npm run admin -- seed-demo`): three rooms in
 * one-point perspective, each before (dingy, stained, peeling) and after
 * (clean, bright). Plain SVG strings; demo.server.ts rasterises them to JPEG
 * and stores them like any upload. Shapes are given in picture-plane
 * coordinates (800×600) plus a depth: 0 is the back wall, 1 the picture plane.
 *
 * This file is over 400 lines on purpose: it is drawing data (three rooms, before and after)
 * around a handful of perspective helpers; split by room, every part would
 * import all the helpers and the pictures would be harder to compare.
 */
export type Side = "before" | "after";
export type DemoRoom = "kitchen" | "bathroom" | "loft";

const VP = { x: 400, y: 220 };
const BACK = 0.62; // the back wall's size against the picture's

const round = (n: number) => Math.round(n * 10) / 10;
/** Perspective-correct scale at depth v (beyond 1 is in front of the picture plane). */
const scale = (v: number) => 1 / ((1 - v) / BACK + v);
/** A picture-plane point pushed back to depth v, as "x,y". */
const p = (x: number, y: number, v = 0) => `${round(VP.x + (x - VP.x) * scale(v))},${round(VP.y + (y - VP.y) * scale(v))}`;
const poly = (points: string[], fill: string, extra = "") => `<polygon points="${points.join(" ")}" fill="${fill}"${extra}/>`;
/** SVG drawn in picture-plane coordinates, placed flat at depth v. */
const at = (v: number, svg: string) => {
  const s = scale(v);
  return `<g transform="translate(${round(VP.x * (1 - s))} ${round(VP.y * (1 - s))}) scale(${round(s * 1000) / 1000})">${svg}</g>`;
};
/** Walls, ceiling and floor, from the back wall to a little in front of the picture. */
const shell = (c: { ceiling: string; back: string; left: string; right: string; floor: string }) =>
  poly([p(0, 0, 1.5), p(800, 0, 1.5), p(800, 0), p(0, 0)], c.ceiling) +
  poly([p(0, 0, 1.5), p(0, 0), p(0, 600), p(0, 600, 1.5)], c.left) +
  poly([p(800, 0, 1.5), p(800, 0), p(800, 600), p(800, 600, 1.5)], c.right) +
  poly([p(0, 600), p(800, 600), p(800, 600, 1.5), p(0, 600, 1.5)], c.floor) +
  at(0, `<rect width="800" height="600" fill="${c.back}"/>`);

/** A floor of cols×rows tiles in two colours (the same colour twice for plain tiles). */
function tiles(cols: number, rows: number, a: string, b: string, grout: string, y = 600, x0 = 0, x1 = 800, v0 = 0, v1 = 1.2) {
  let out = "";
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      const [xa, xb] = [x0 + ((x1 - x0) * i) / cols, x0 + ((x1 - x0) * (i + 1)) / cols];
      const [va, vb] = [v0 + ((v1 - v0) * j) / rows, v0 + ((v1 - v0) * (j + 1)) / rows];
      out += poly([p(xa, y, va), p(xb, y, va), p(xb, y, vb), p(xa, y, vb)], (i + j) % 2 ? a : b, ` stroke="${grout}" stroke-width=".8"`);
    }
  }
  return out;
}

/** Floorboards running away from the viewer, joints staggered. */
function boards(colours: string[], gap: string) {
  let out = "";
  for (let i = 0; i < 20; i++) {
    const joint = 0.15 + ((i * 0.37) % 0.8);
    for (const [index, [va, vb]] of [
      [0, joint],
      [joint, 1.5],
    ].entries()) {
      const fill = colours[(i * 3 + index) % colours.length]!;
      out += poly([p(i * 40, 600, va!), p(i * 40 + 40, 600, va!), p(i * 40 + 40, 600, vb!), p(i * 40, 600, vb!)], fill, ` stroke="${gap}" stroke-width=".7"`);
    }
  }
  return out;
}

type BoxSpec = { x: [number, number]; y: [number, number]; v: [number, number]; front: string; top?: string; side?: string; face?: string };
/** A box (cupboard, bath, bed…) seen from the eye point: its front, and its top and side when they show. `face` is drawn on the front. */
function box({ x: [x1, x2], y: [y1, y2], v: [v1, v2], front, top = front, side = front, face = "" }: BoxSpec) {
  let out = "";
  if (y1 > VP.y) out += poly([p(x1, y1, v1), p(x2, y1, v1), p(x2, y1, v2), p(x1, y1, v2)], top);
  if (y2 < VP.y) out += poly([p(x1, y2, v1), p(x2, y2, v1), p(x2, y2, v2), p(x1, y2, v2)], side);
  if (x1 > VP.x) out += poly([p(x1, y1, v1), p(x1, y1, v2), p(x1, y2, v2), p(x1, y2, v1)], side);
  if (x2 < VP.x) out += poly([p(x2, y1, v1), p(x2, y1, v2), p(x2, y2, v2), p(x2, y2, v1)], side);
  return out + at(v2, `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="${front}"/>${face}`);
}

/** Cupboard doors across a front, optionally one hanging askew. */
function doors(x1: number, x2: number, y1: number, y2: number, count: number, fill: string, line: string, knob: string, askew = -1) {
  const w = (x2 - x1) / count;
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = x1 + i * w;
    const tilt = i === askew ? ` transform="rotate(4 ${x + 6} ${y1 + 6})"` : "";
    out += `<g${tilt}><rect x="${x + 6}" y="${y1 + 6}" width="${w - 12}" height="${y2 - y1 - 12}" fill="${fill}" stroke="${line}" stroke-width="3"/>`;
    out += `<rect x="${x + 18}" y="${y1 + 18}" width="${w - 36}" height="${y2 - y1 - 36}" fill="none" stroke="${line}" stroke-width="2" opacity=".6"/>`;
    out += `<circle cx="${i % 2 ? x + 18 : x + w - 18}" cy="${y1 + (y2 - y1) / 2}" r="5" fill="${knob}"/></g>`;
  }
  return out;
}

/** A sash window on the back wall: the view, the frame and glazing bars, and a sill. */
function sash(x: number, y: number, w: number, h: number, side: Side, frame: string) {
  const view =
    side === "after"
      ? `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#sky)"/><ellipse cx="${x + w * 0.7}" cy="${y + h * 0.25}" rx="${w * 0.12}" ry="${h * 0.04}" fill="#fff" opacity=".8"/>` +
        `<path d="M${x} ${y + h}V${y + h * 0.62}q${w * 0.25} ${-h * 0.2} ${w / 2} ${-h * 0.04}t${w / 2} ${-h * 0.1}V${y + h}Z" fill="#6fa36a"/>` +
        `<path d="M${x} ${y + h}V${y + h * 0.84}q${w * 0.3} ${-h * 0.12} ${w * 0.6} 0t${w * 0.4} ${-h * 0.05}V${y + h}Z" fill="#3f7a45"/>`
      : `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#dull)"/><rect x="${x}" y="${y + h * 0.55}" width="${w * 0.45}" height="${h * 0.45}" fill="#6f6a62"/>` +
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#grime)"/>`;
  const bars = `M${x + w / 2} ${y}v${h}M${x} ${y + h / 2}h${w}M${x + w / 4} ${y}v${h / 2}M${x + (3 * w) / 4} ${y}v${h / 2}`;
  return (
    view +
    `<path d="${bars}" stroke="${frame}" stroke-width="6"/><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="${frame}" stroke-width="14"/>` +
    `<rect x="${x - 18}" y="${y + h + 6}" width="${w + 36}" height="12" fill="${frame}"/>`
  );
}

/** Signs of neglect, each in picture coordinates. */
const stain = (cx: number, cy: number, rx: number, ry: number) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#6b5632" opacity=".28"/><ellipse cx="${cx}" cy="${cy}" rx="${rx * 0.8}" ry="${ry * 0.8}" fill="none" stroke="#5a4526" stroke-width="2" opacity=".35"/>`;
const crack = (d: string) => `<path d="${d}" fill="none" stroke="#3f3526" stroke-width="2" opacity=".7"/>`;
const peel = (x: number, y: number, paper: string) =>
  `<path d="M${x} ${y}l60 0-8 70Z" fill="#8a7a58" opacity=".6"/><path d="M${x} ${y}l52 70q-30-10-44 18Z" fill="${paper}" stroke="#7d6b48" stroke-width="1.5"/>`;
const mould = (x: number, y: number, n: number) =>
  Array.from({ length: n }, (_, i) => `<circle cx="${x + ((i * 37) % 90)}" cy="${y + ((i * 23) % 40)}" r="${2 + (i % 4)}" fill="#2d3326" opacity=".55"/>`).join(
    "",
  );
const bulb = (x: number, drop: number, top = 0) =>
  `<path d="M${x} ${top}V${drop}" stroke="#2b2b2b" stroke-width="3"/><circle cx="${x}" cy="${drop + 14}" r="70" fill="url(#weak)"/><circle cx="${x}" cy="${drop + 14}" r="13" fill="#fff3c4"/>`;
const pendant = (x: number, drop: number, shade: string) =>
  `<path d="M${x} 0v${drop}" stroke="#1f2937" stroke-width="2"/><ellipse cx="${x}" cy="${drop + 90}" rx="150" ry="120" fill="url(#glow)"/>` +
  `<path d="M${x - 34} ${drop + 34}q34-52 68 0Z" fill="${shade}"/><ellipse cx="${x}" cy="${drop + 34}" rx="22" ry="5" fill="#fff7d6"/>`;
const plant = (x: number, y: number, pot: string) =>
  [
    [-30, -60, -25],
    [0, -78, 0],
    [28, -58, 25],
    [-14, -40, -45],
    [16, -44, 45],
  ]
    .map(
      ([dx, dy, angle]) => `<ellipse cx="${x + dx! / 2}" cy="${y + dy! / 2}" rx="12" ry="${-dy! / 2}" fill="#3f7d4e" transform="rotate(${angle} ${x} ${y})"/>`,
    )
    .join("") + `<path d="M${x - 24} ${y}h48l-6 40h-36Z" fill="${pot}"/>`;

const DEFS = `<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7db4ea"/><stop offset="1" stop-color="#e3f1fb"/></linearGradient>
<linearGradient id="dull" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8e9497"/><stop offset="1" stop-color="#b9bbb4"/></linearGradient>
<linearGradient id="grime" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#5d5236" stop-opacity=".55"/><stop offset="1" stop-color="#5d5236" stop-opacity=".1"/></linearGradient>
<linearGradient id="beam" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffbea" stop-opacity=".45"/><stop offset="1" stop-color="#fffbea" stop-opacity="0"/></linearGradient>
<radialGradient id="glow"><stop offset="0" stop-color="#ffe9a8" stop-opacity=".55"/><stop offset="1" stop-color="#ffe9a8" stop-opacity="0"/></radialGradient>
<radialGradient id="weak"><stop offset="0" stop-color="#f4d58d" stop-opacity=".35"/><stop offset="1" stop-color="#f4d58d" stop-opacity="0"/></radialGradient>
<radialGradient id="dim" cx=".5" cy=".45" r=".75"><stop offset=".45" stop-color="#1c160c" stop-opacity="0"/><stop offset="1" stop-color="#1c160c" stop-opacity=".6"/></radialGradient>
<radialGradient id="soft" cx=".5" cy=".45" r=".8"><stop offset=".6" stop-color="#334155" stop-opacity="0"/><stop offset="1" stop-color="#334155" stop-opacity=".16"/></radialGradient>
<pattern id="metro" width="36" height="18" patternUnits="userSpaceOnUse"><rect width="36" height="18" fill="#d9dee3"/><rect x="1" y="1" width="34" height="7" rx="1" fill="#fbfcfd"/><rect x="-17" y="10" width="34" height="7" rx="1" fill="#fbfcfd"/><rect x="19" y="10" width="34" height="7" rx="1" fill="#fbfcfd"/></pattern>
<pattern id="brown" width="40" height="40" patternUnits="userSpaceOnUse"><rect width="40" height="40" fill="#8d6d35"/><rect x="2" y="2" width="36" height="36" fill="#b8955a"/><circle cx="20" cy="20" r="8" fill="#86672f" opacity=".6"/></pattern>
<pattern id="pink" width="30" height="30" patternUnits="userSpaceOnUse"><rect width="30" height="30" fill="#a89a86"/><rect x="1.5" y="1.5" width="27" height="27" fill="#d4b3a3"/></pattern>
<pattern id="zellige" width="44" height="44" patternUnits="userSpaceOnUse"><rect width="44" height="44" fill="#e7ece9"/><rect x="1" y="1" width="42" height="42" fill="#5f8b7a"/><rect x="4" y="4" width="20" height="14" fill="#6f9a89" opacity=".6"/></pattern>
<pattern id="slab" width="100" height="60" patternUnits="userSpaceOnUse"><rect width="100" height="60" fill="#d6d3d1"/><rect x="1" y="1" width="98" height="58" fill="#efedea"/></pattern>
<pattern id="brick" width="60" height="28" patternUnits="userSpaceOnUse"><rect width="60" height="28" fill="#6e5a4a"/><rect x="2" y="2" width="56" height="11" fill="#9a5b42"/><rect x="-28" y="16" width="56" height="11" fill="#8b4f39"/><rect x="32" y="16" width="56" height="11" fill="#a4644a"/></pattern>
</defs>`;

function picture(title: string, side: Side, body: string): string {
  const mood =
    side === "before"
      ? `<rect width="800" height="600" fill="#6b5a36" opacity=".14"/><rect width="800" height="600" fill="url(#dim)"/>`
      : `<rect width="800" height="600" fill="url(#soft)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="1600" height="1200"><title>${title}</title>${DEFS}${body}${mood}</svg>`;
}

/** A Victorian terrace kitchen: brown units and lino before; sage shaker units, oak and an island after. */
function kitchen(side: Side): string {
  if (side === "before") {
    const wall = at(
      0,
      sash(470, 90, 220, 230, side, "#ddd3b6") + `<rect x="0" y="300" width="440" height="90" fill="url(#brown)"/>` + crack("M440 40l-20 50 14 30-18 60"),
    );
    return picture(
      "A dated kitchen before renovation",
      side,
      shell({ ceiling: "#c9bd98", back: "#cdb57e", left: "#b39d69", right: "#a38d5c", floor: "#8d5b34" }) +
        tiles(8, 6, "#8d5b34", "#b58a5a", "#5f3c20") +
        wall +
        box({
          x: [20, 400],
          y: [60, 210],
          v: [0, 0.1],
          front: "#5c3a1e",
          side: "#4a2e17",
          face: doors(20, 400, 60, 210, 3, "#6e4726", "#4a2e17", "#a18a5a", 2),
        }) +
        box({
          x: [0, 430],
          y: [390, 600],
          v: [0, 0.17],
          front: "#5c3a1e",
          top: "#8c7f6b",
          face: doors(0, 430, 400, 600, 3, "#6e4726", "#4a2e17", "#a18a5a", 1),
        }) +
        box({
          x: [520, 700],
          y: [380, 600],
          v: [0, 0.17],
          front: "#e4dbbe",
          top: "#cfc4a2",
          side: "#c4b894",
          face: `<rect x="540" y="420" width="140" height="120" rx="6" fill="#2a2522"/><rect x="520" y="380" width="180" height="24" fill="#cfc4a2"/>`,
        }) +
        `<ellipse cx="560" cy="30" rx="110" ry="20" fill="#7a6842" opacity=".35"/>` +
        at(0, stain(240, 250, 40, 60) + peel(720, 0, "#d9c79a") + mould(705, 330, 16) + stain(750, 380, 40, 70)) +
        at(0.45, bulb(380, 140)),
    );
  }
  const wall = at(
    0,
    sash(470, 90, 220, 230, side, "#ffffff") + `<rect x="0" y="250" width="470" height="140" fill="url(#metro)"/>` + plant(640, 326, "#c2703d"),
  );
  const shelf = box({ x: [40, 400], y: [170, 182], v: [0, 0.08], front: "#c89a62", side: "#a97c48" });
  const crockery = at(
    0.04,
    [70, 110, 150, 230, 270, 320]
      .map((x, i) =>
        i % 2
          ? `<rect x="${x}" y="${128 + (i % 3) * 6}" width="26" height="${42 - (i % 3) * 6}" rx="3" fill="#f8fafc" stroke="#cbd5e1"/>`
          : `<circle cx="${x + 12}" cy="148" r="20" fill="#e8edf1" stroke="#94a3b8"/>`,
      )
      .join(""),
  );
  return picture(
    "A bright kitchen after renovation",
    side,
    shell({ ceiling: "#fbfaf6", back: "#f2eee4", left: "#e7e1d4", right: "#ddd6c8", floor: "#d8b78a" }) +
      boards(["#d9b88b", "#cfab7b", "#e0c197", "#c9a370"], "#a98352") +
      `<polygon points="${p(470, 320)} ${p(690, 320)} 640,600 250,600" fill="url(#beam)"/>` +
      wall +
      shelf +
      crockery +
      box({ x: [0, 440], y: [392, 600], v: [0, 0.17], front: "#7f9c8a", face: doors(0, 440, 392, 600, 4, "#87a492", "#6b8876", "#c9a45a") }) +
      box({ x: [0, 440], y: [380, 392], v: [0, 0.18], front: "#c89a62", top: "#d8b07a" }) +
      box({
        x: [520, 720],
        y: [392, 600],
        v: [0, 0.17],
        front: "#7f9c8a",
        side: "#6f8b79",
        face: `<rect x="545" y="420" width="150" height="110" rx="4" fill="#1f2933"/><rect x="560" y="402" width="120" height="8" rx="3" fill="#c9a45a"/>`,
      }) +
      box({ x: [520, 720], y: [380, 392], v: [0, 0.18], front: "#c89a62", top: "#d8b07a", side: "#b98b55" }) +
      box({
        x: [250, 550],
        y: [400, 600],
        v: [0.55, 0.8],
        front: "#6f8b79",
        top: "#f3f4f1",
        face: doors(250, 550, 412, 600, 3, "#7f9c8a", "#6b8876", "#c9a45a"),
      }) +
      [330, 470]
        .map((x) =>
          at(
            0.95,
            `<ellipse cx="${x}" cy="470" rx="34" ry="10" fill="#c89a62"/><path d="M${x - 24} 474l-10 126M${x + 24} 474l10 126M${x - 28} 550h56" stroke="#1f2937" stroke-width="5"/>`,
          ),
        )
        .join("") +
      at(0.62, pendant(300, 190, "#1e3a5f") + pendant(500, 190, "#1e3a5f")),
  );
}

/** A bathroom in a garden flat: avocado suite and mould before; walk-in shower and a floating vanity after. */
function bathroom(side: Side): string {
  if (side === "before") {
    const curtain = at(
      0.3,
      `<path d="M60 110h170" stroke="#9ca3a0" stroke-width="5"/><path d="M70 112h150v330q-20 12-38 0t-38 0-38 0-36 0Z" fill="#c9cfb9" opacity=".92"/>` +
        [90, 128, 166, 204].map((x) => `<path d="M${x} 115v320" stroke="#a3ab90" stroke-width="3"/>`).join("") +
        mould(80, 380, 16),
    );
    return picture(
      "A dated bathroom before renovation",
      side,
      shell({ ceiling: "#d3cdb9", back: "#aeb795", left: "#9fa886", right: "#939b7a", floor: "#7d7a5c" }) +
        tiles(10, 6, "#7d7a5c", "#918d6d", "#5b5940") +
        poly([p(0, 330, 0), p(0, 330, 1.5), p(0, 600, 1.5), p(0, 600, 0)], "url(#pink)", ` opacity=".85"`) +
        at(
          0,
          `<rect x="0" y="330" width="800" height="270" fill="url(#pink)"/><path d="M0 330h800" stroke="#7b5d4b" stroke-width="8"/>` +
            sash(330, 80, 140, 140, side, "#d7d2c1") +
            crack("M330 340l30 60-12 40 26 50M740 350l-16 50 20 70") +
            peel(480, 0, "#bcc49f") +
            mould(20, 10, 22) +
            mould(700, 12, 18) +
            `<rect x="560" y="150" width="130" height="140" fill="#c9c3ad" stroke="#8a8470" stroke-width="4"/><rect x="572" y="162" width="106" height="116" fill="#8f9a94"/><path d="M580 170l30 100" stroke="#b6beb8" stroke-width="6" opacity=".5"/>`,
        ) +
        box({
          x: [40, 470],
          y: [430, 600],
          v: [0, 0.28],
          front: "#8a9a5b",
          top: "#7b8a4f",
          side: "#74844a",
          face: `<path d="M70 450h380" stroke="#a2b06f" stroke-width="4"/>`,
        }) +
        poly([p(70, 430, 0.04), p(440, 430, 0.04), p(440, 430, 0.24), p(70, 430, 0.24)], "#a5b57a") +
        box({ x: [560, 700], y: [360, 392], v: [0, 0.18], front: "#8a9a5b", top: "#9aab6a", side: "#7b8a4f" }) +
        box({ x: [605, 655], y: [392, 600], v: [0.05, 0.13], front: "#8a9a5b", side: "#74844a" }) +
        curtain +
        at(0.5, `<rect x="330" y="0" width="140" height="14" fill="#e7e5df"/><rect x="250" y="14" width="300" height="120" fill="url(#weak)"/>`),
    );
  }
  const screen = poly([p(300, 60, 0), p(300, 60, 0.38), p(300, 600, 0.38), p(300, 600, 0)], "#dbeafe", ` opacity=".25" stroke="#111827" stroke-width="2"`);
  return picture(
    "A bright bathroom after renovation",
    side,
    shell({ ceiling: "#fbfbf9", back: "#f5f3ef", left: "#5f8b7a", right: "#2f5248", floor: "#e7e5e4" }) +
      tiles(6, 4, "#e7e4df", "#dedad4", "#c7c2bb") +
      poly([p(0, 0, 0), p(0, 0, 1.5), p(0, 600, 1.5), p(0, 600, 0)], "url(#zellige)") +
      at(
        0,
        `<rect x="0" y="60" width="300" height="540" fill="url(#zellige)"/><rect x="300" y="260" width="500" height="340" fill="url(#slab)"/>` +
          sash(330, 80, 140, 140, side, "#ffffff") +
          `<rect x="60" y="300" width="110" height="70" fill="#e7ece9"/><rect x="75" y="320" width="18" height="50" rx="4" fill="#f8fafc"/><rect x="100" y="330" width="16" height="40" rx="4" fill="#1f2937"/>` +
          `<path d="M150 600V110h-40" fill="none" stroke="#111827" stroke-width="6"/><rect x="70" y="104" width="80" height="10" rx="4" fill="#111827"/>` +
          `<circle cx="600" cy="250" r="95" fill="url(#glow)"/><circle cx="600" cy="250" r="80" fill="#c9a45a"/><circle cx="600" cy="250" r="74" fill="#dfe9ee"/><path d="M560 210l50 -20M555 240l70-30" stroke="#fff" stroke-width="6" opacity=".7"/>` +
          `<path d="M745 300v220M785 300v220" stroke="#111827" stroke-width="5"/>` +
          [320, 350, 380, 410, 440, 470, 500].map((y) => `<path d="M745 ${y}h40" stroke="#111827" stroke-width="4"/>`).join("") +
          `<rect x="740" y="340" width="50" height="110" rx="6" fill="#e8d9c6"/>`,
      ) +
      screen +
      box({
        x: [480, 720],
        y: [400, 470],
        v: [0, 0.2],
        front: "#c89a62",
        top: "#d8b07a",
        side: "#b98b55",
        face: `<path d="M600 412v46" stroke="#a37a46" stroke-width="2"/>`,
      }) +
      box({ x: [530, 670], y: [380, 400], v: [0.03, 0.17], front: "#fafafa", top: "#e5e7eb", side: "#eeeeee" }) +
      at(0.06, `<path d="M600 380v-40h24" fill="none" stroke="#c9a45a" stroke-width="7"/>`) +
      at(0.9, plant(740, 560, "#e7e5e4")) +
      `<polygon points="${p(330, 220)} ${p(470, 220)} 560,600 300,600" fill="url(#beam)"/>` +
      [260, 540]
        .map((x) => at(0.5, `<ellipse cx="${x}" cy="20" rx="110" ry="80" fill="url(#glow)"/><ellipse cx="${x}" cy="4" rx="14" ry="5" fill="#fffbea"/>`))
        .join(""),
  );
}

/** A loft in a 1930s semi: rafters, insulation and boxes before; a bedroom with roof windows after. */
function loft(side: Side): string {
  const before = side === "before";
  const [slopeL, slopeR, knee, ceiling] = before ? ["#4a3f35", "#3e352c", "#5a4c3e", "#40362d"] : ["#f7f5f0", "#ebe7df", "#f1eee7", "#fbfaf7"];
  const plane = (slope: "l" | "r", t1: number, t2: number, v1: number, v2: number, fill: string, extra = "") => {
    const q = (t: number, v: number) => (slope === "l" ? p(260 * t, 420 - 360 * t, v) : p(800 - 260 * t, 420 - 360 * t, v));
    return poly([q(t1, v1), q(t2, v1), q(t2, v2), q(t1, v2)], fill, extra);
  };
  let out =
    `<rect width="800" height="600" fill="${slopeL}"/>` +
    plane("l", 0, 1, 0, 1.5, slopeL) +
    plane("r", 0, 1, 0, 1.5, slopeR) +
    poly([p(260, 60), p(540, 60), p(540, 60, 1.5), p(260, 60, 1.5)], ceiling) +
    poly([p(0, 420), p(0, 600), p(0, 600, 1.5), p(0, 420, 1.5)], knee) +
    poly([p(800, 420), p(800, 600), p(800, 600, 1.5), p(800, 420, 1.5)], knee) +
    poly([p(0, 600), p(800, 600), p(800, 600, 1.5), p(0, 600, 1.5)], before ? "#d9b64a" : "#d8b78a") +
    at(0, `<polygon points="0,600 0,420 260,60 540,60 800,420 800,600" fill="${before ? "url(#brick)" : "#7d9a8a"}"/>`);
  if (before) {
    for (let v = 0.05; v < 1.5; v += 0.16) {
      const w = 10 * scale(v);
      out += `<path d="M${p(0, 600, v)} L${p(0, 420, v)} L${p(260, 60, v)} L${p(540, 60, v)} L${p(800, 420, v)} L${p(800, 600, v)}" fill="none" stroke="#8b6a43" stroke-width="${round(w)}"/>`;
      out += `<path d="M${p(0, 600, v)} L${p(800, 600, v)}" stroke="#9b7448" stroke-width="${round(w * 1.4)}"/>`;
    }
    out += poly([p(300, 600, 0.2), p(520, 600, 0.2), p(520, 600, 0.75), p(300, 600, 0.75)], "#b59a6c", ` stroke="#8b7450"`);
    out += plane("l", 0.35, 0.6, 0.3, 0.55, "#8e948f", ` stroke="#2e261f" stroke-width="6"`);
    out += `<polygon points="${p(90, 290, 0.3)} ${p(156, 204, 0.55)} 480,600 250,600" fill="url(#beam)" opacity=".5"/>`;
    out += box({ x: [560, 760], y: [330, 600], v: [0.05, 0.35], front: "#7a8288", top: "#646b70", side: "#6b7378", face: crack("M580 360h160M580 420h160") });
    for (const [x1, x2, y1, v1, v2] of [
      [120, 260, 470, 0.2, 0.38],
      [150, 250, 400, 0.22, 0.34],
      [330, 470, 480, 0.5, 0.68],
      [560, 700, 500, 0.6, 0.8],
    ] as const) {
      out += box({
        x: [x1, x2],
        y: [y1, 600],
        v: [v1, v2],
        front: "#b08a5a",
        top: "#c9a574",
        side: "#9c774a",
        face: `<path d="M${(x1 + x2) / 2} ${y1}v40" stroke="#d9c8a0" stroke-width="8"/>`,
      });
    }
    out += crack(`M${p(260, 60, 0)} l-40 30 M${p(260, 60, 0)} l10 40 M${p(540, 60, 0)} l40 28`) + at(0.5, bulb(400, 150, 60));
    return picture("An unconverted loft before renovation", side, out);
  }
  out += at(
    0,
    `<rect x="280" y="330" width="240" height="150" rx="16" fill="#475569"/><rect x="296" y="346" width="208" height="118" rx="10" fill="#52627a"/>`,
  );
  for (const s of ["l", "r"] as const) {
    out += plane(s, 0.3, 0.72, 0.65, 1.15, "#ffffff") + plane(s, 0.34, 0.68, 0.7, 1.1, "url(#sky)");
  }
  out += poly([p(88, 298, 0.7), p(88, 298, 1.1), p(330, 600, 1.1), p(330, 600, 0.7)], "url(#beam)");
  out += poly([p(712, 298, 0.7), p(712, 298, 1.1), p(470, 600, 1.1), p(470, 600, 0.7)], "url(#beam)");
  out += poly([p(0, 440, 0.15), p(0, 440, 0.6), p(0, 590, 0.6), p(0, 590, 0.15)], "#e4dccd", ` stroke="#c9bfae" stroke-width="2"`);
  out += poly([p(200, 600, 0.4), p(600, 600, 0.4), p(600, 600, 0.95), p(200, 600, 0.95)], "#cdbba0", ` stroke="#b4a283" stroke-width="6"`);
  out += box({
    x: [140, 240],
    y: [470, 600],
    v: [0, 0.14],
    front: "#c89a62",
    top: "#d8b07a",
    side: "#b98b55",
    face: `<path d="M150 530h80" stroke="#a37a46" stroke-width="2"/>`,
  });
  out += box({
    x: [560, 660],
    y: [470, 600],
    v: [0, 0.14],
    front: "#c89a62",
    top: "#d8b07a",
    side: "#b98b55",
    face: `<path d="M570 530h80" stroke="#a37a46" stroke-width="2"/>`,
  });
  out += [190, 610]
    .map((x) =>
      at(
        0.07,
        `<circle cx="${x}" cy="400" r="80" fill="url(#glow)"/><path d="M${x} 470v-50" stroke="#1f2937" stroke-width="4"/><path d="M${x - 24} 425h48l-10-34h-28Z" fill="#f3e8d2"/>`,
      ),
    )
    .join("");
  out += at(0.02, `<rect x="300" y="420" width="90" height="40" rx="14" fill="#ffffff"/><rect x="410" y="420" width="90" height="40" rx="14" fill="#ffffff"/>`);
  out += box({
    x: [260, 540],
    y: [470, 600],
    v: [0, 0.5],
    front: "#e2e8f0",
    top: "#f8fafc",
    face: `<rect x="260" y="470" width="280" height="40" fill="#d4a53a"/>`,
  });
  out += poly([p(260, 470, 0.3), p(540, 470, 0.3), p(540, 470, 0.5), p(260, 470, 0.5)], "#d4a53a");
  out += at(1.1, plant(730, 560, "#f1eee7"));
  return picture("A loft converted into a bright bedroom", side, out);
}

/** The SVG of a demo room, before or after. */
export function demoArt(room: DemoRoom, side: Side): string {
  return { kitchen, bathroom, loft }[room](side);
}
