import type { Palette } from "./palette";

/*
 * Hand-drawn vector illustrations, coloured from the brand palette so that a rebrand repaints them.
 * Each is a few hundred bytes of shapes; the viewBox sizes match the width/height the pages set.
 */

const svg = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${body}</svg>`;

function plane(p: Palette) {
  return `<path d="M-70 0c0-12 15-14 30-14h95c20 0 35 8 40 14-5 6-20 14-40 14h-95c-15 0-30-2-30-14z" fill="${p.paper}" stroke="${p.line}" stroke-width="2"/>
<path d="M-5 5h30l-40 54h-17z" fill="${p.primary}"/><path d="M-5-5h30l-40-46h-15z" fill="${p.primaryDark}"/>
<path d="M-58-10h14l-16-30h-12z" fill="${p.primary}"/><path d="M70-9c9 1 16 4 19 8H72z" fill="${p.primaryDark}"/>
<g fill="${p.primary}"><circle cx="-28" cy="-3" r="3"/><circle cx="-16" cy="-3" r="3"/><circle cx="-4" cy="-3" r="3"/><circle cx="8" cy="-3" r="3"/><circle cx="20" cy="-3" r="3"/><circle cx="32" cy="-3" r="3"/><circle cx="44" cy="-3" r="3"/></g>`;
}

function cloud(x: number, y: number, p: Palette) {
  return `<g fill="${p.paper}" transform="translate(${x} ${y})"><rect width="110" height="30" rx="15"/><rect x="24" y="-16" width="52" height="34" rx="17"/></g>`;
}

/** A plane over the clouds, a boarding pass and a suitcase: the trip made simple. */
export function hero(p: Palette) {
  return svg(
    520,
    420,
    `<circle cx="270" cy="205" r="190" fill="${p.primaryLight}"/><circle cx="410" cy="84" r="34" fill="${p.accent}"/>
${cloud(62, 118, p)}${cloud(340, 238, p)}
<path d="M40 330c100-30 170-130 290-190" fill="none" stroke="${p.primary}" stroke-width="4" stroke-dasharray="2 12" stroke-linecap="round"/>
<g transform="translate(372 128) rotate(-24)">${plane(p)}</g>
<g transform="translate(96 236) rotate(-6)"><rect width="220" height="120" rx="14" fill="${p.paper}" stroke="${p.line}" stroke-width="2"/>
<path d="M0 14A14 14 0 0 1 14 0h192a14 14 0 0 1 14 14v24H0z" fill="${p.primary}"/><rect x="16" y="13" width="70" height="12" rx="6" fill="${p.paper}" opacity=".85"/>
<rect x="16" y="56" width="50" height="16" rx="4" fill="${p.ink}"/><rect x="104" y="56" width="50" height="16" rx="4" fill="${p.ink}"/>
<path d="M76 64h20m-6-6 6 6-6 6" stroke="${p.primary}" stroke-width="3" fill="none" stroke-linecap="round"/>
<rect x="16" y="86" width="60" height="7" rx="3.5" fill="${p.line}"/><rect x="16" y="100" width="90" height="7" rx="3.5" fill="${p.line}"/>
<path d="M166 38v82" stroke="${p.line}" stroke-width="2" stroke-dasharray="4 5"/>
<g fill="${p.ink}"><rect x="178" y="54" width="8" height="50"/><rect x="190" y="54" width="3" height="50"/><rect x="197" y="54" width="6" height="50"/><rect x="207" y="54" width="3" height="50"/></g></g>
<g transform="translate(360 262)"><rect x="20" y="-22" width="40" height="28" rx="9" fill="none" stroke="${p.primaryDark}" stroke-width="7"/>
<rect width="80" height="104" rx="14" fill="${p.accent}"/><rect x="20" width="8" height="104" fill="${p.ink}" opacity=".15"/><rect x="52" width="8" height="104" fill="${p.ink}" opacity=".15"/>
<circle cx="16" cy="110" r="7" fill="${p.ink}"/><circle cx="64" cy="110" r="7" fill="${p.ink}"/></g>`,
  );
}

/** A phone with a concierge chat, a service bell and a confirmed booking. */
export function concierge(p: Palette) {
  return svg(
    480,
    400,
    `<rect x="20" y="30" width="440" height="340" rx="170" fill="${p.primaryLight}"/>
<g transform="translate(150 40)"><rect width="180" height="320" rx="28" fill="${p.ink}"/><rect x="10" y="14" width="160" height="292" rx="20" fill="${p.paper}"/>
<rect x="64" y="22" width="52" height="8" rx="4" fill="${p.line}"/>
<rect x="22" y="50" width="112" height="40" rx="14" fill="${p.secondary}" stroke="${p.line}"/><rect x="34" y="62" width="80" height="6" rx="3" fill="${p.line}"/><rect x="34" y="74" width="56" height="6" rx="3" fill="${p.line}"/>
<rect x="46" y="104" width="112" height="52" rx="14" fill="${p.primary}"/><rect x="58" y="117" width="84" height="6" rx="3" fill="${p.paper}" opacity=".9"/><rect x="58" y="129" width="70" height="6" rx="3" fill="${p.paper}" opacity=".9"/><rect x="58" y="141" width="40" height="6" rx="3" fill="${p.paper}" opacity=".9"/>
<rect x="22" y="170" width="100" height="40" rx="14" fill="${p.secondary}" stroke="${p.line}"/><rect x="34" y="182" width="70" height="6" rx="3" fill="${p.line}"/><rect x="34" y="194" width="44" height="6" rx="3" fill="${p.line}"/>
<rect x="22" y="262" width="136" height="30" rx="15" fill="${p.secondary}" stroke="${p.line}"/><circle cx="142" cy="277" r="9" fill="${p.primary}"/></g>
<g transform="translate(36 250)"><rect y="62" width="140" height="12" rx="6" fill="${p.primaryDark}"/><path d="M14 62a56 56 0 0 1 112 0z" fill="${p.accent}"/>
<path d="M36 40a40 40 0 0 1 26-18" stroke="${p.paper}" stroke-width="6" fill="none" stroke-linecap="round" opacity=".7"/><rect x="62" width="16" height="10" rx="4" fill="${p.primaryDark}"/></g>
<g transform="translate(338 64)"><rect width="116" height="112" rx="16" fill="${p.paper}" stroke="${p.line}" stroke-width="2"/><path d="M0 16A16 16 0 0 1 16 0h84a16 16 0 0 1 16 16v14H0z" fill="${p.accent}"/>
<circle cx="58" cy="72" r="26" fill="${p.primary}"/><path d="m45 72 9 9 17-18" stroke="${p.paper}" stroke-width="6" fill="none" stroke-linecap="round" stroke-linejoin="round"/></g>
<g transform="translate(372 236)"><path d="M30 0a30 30 0 0 1 30 30c0 24-30 52-30 52S0 54 0 30A30 30 0 0 1 30 0z" fill="${p.primaryDark}"/><circle cx="30" cy="30" r="11" fill="${p.paper}"/></g>`,
  );
}

function traveller(x: number, y: number, body: string, p: Palette, scale = 1) {
  return `<g transform="translate(${x} ${y}) scale(${scale})"><circle cy="-46" r="11" fill="${p.skin}"/><rect x="-13" y="-32" width="26" height="40" rx="11" fill="${body}"/><rect x="-10" y="6" width="8" height="24" rx="4" fill="${p.ink}"/><rect x="2" y="6" width="8" height="24" rx="4" fill="${p.ink}"/></g>`;
}

/** A long security queue on one side, a clear fast-track lane on the other. */
export function fastTrack(p: Palette) {
  // Drawn from the back of the queue to the front, smaller as they recede.
  const queue = [4, 3, 2, 1, 0]
    .map((n) => traveller(96 + n * 18, 330 - n * 46, n % 2 ? "#94a3b8" : "#64748b", p, 1 - n * 0.1))
    .join("");
  return svg(
    480,
    400,
    `<rect x="10" y="20" width="460" height="360" rx="40" fill="${p.primaryLight}"/>
<path d="M40 360 150 60h60L200 360z" fill="${p.paper}" opacity=".7"/><path d="M240 360 250 60h60l150 300z" fill="${p.paper}"/>
<path d="M270 350 290 80m90 270-70-270" stroke="${p.primary}" stroke-width="4" stroke-dasharray="14 10"/>
${queue}
<g fill="${p.primary}"><path d="m336 330 22-22 22 22-8 8-14-14-14 14z"/><path d="m328 290 18-18 18 18-7 7-11-11-11 11z" opacity=".75"/><path d="m322 254 14-14 14 14-6 6-8-8-8 8z" opacity=".5"/></g>
${traveller(322, 190, p.primary, p, 0.9)}
<g transform="translate(262 24)"><rect width="126" height="44" rx="12" fill="${p.primary}"/><path d="m30 8-12 16h10l-6 14 16-20H28l6-10z" fill="${p.accent}"/><rect x="52" y="14" width="58" height="7" rx="3.5" fill="${p.paper}"/><rect x="52" y="26" width="40" height="7" rx="3.5" fill="${p.paper}" opacity=".8"/></g>
<g transform="translate(128 24)"><rect width="104" height="44" rx="12" fill="#94a3b8"/><rect x="16" y="14" width="72" height="7" rx="3.5" fill="${p.paper}"/><rect x="16" y="26" width="48" height="7" rx="3.5" fill="${p.paper}" opacity=".8"/></g>`,
  );
}

/** A globe with routes between members' destinations. */
export function services(p: Palette) {
  return svg(
    480,
    400,
    `<circle cx="240" cy="200" r="180" fill="${p.primaryLight}"/><circle cx="240" cy="200" r="130" fill="${p.primary}"/>
<path d="M150 130c30 10 40-20 70-10s10 40 40 40 30 30 0 50-60 0-70 30-40 10-50-20-20-80 10-90zM300 110c20-10 50 10 50 30s-30 20-40 10-30-30-10-40zM290 250c20-10 50 0 50 20s-20 40-40 30-30-40-10-50z" fill="${p.primaryDark}"/>
<ellipse cx="240" cy="200" rx="190" ry="54" fill="none" stroke="${p.paper}" stroke-width="4" stroke-dasharray="3 12" stroke-linecap="round" transform="rotate(-18 240 200)"/>
<g transform="translate(70 212) rotate(-38) scale(.55)">${plane(p)}</g>
<g transform="translate(160 92)"><path d="M18 0a18 18 0 0 1 18 18c0 14-18 32-18 32S0 32 0 18A18 18 0 0 1 18 0z" fill="${p.accent}"/><circle cx="18" cy="18" r="7" fill="${p.paper}"/></g>
<g transform="translate(310 200)"><path d="M18 0a18 18 0 0 1 18 18c0 14-18 32-18 32S0 32 0 18A18 18 0 0 1 18 0z" fill="${p.accent}"/><circle cx="18" cy="18" r="7" fill="${p.paper}"/></g>
<path d="M178 104c60-40 150 20 150 96" fill="none" stroke="${p.paper}" stroke-width="4" stroke-dasharray="2 10" stroke-linecap="round"/>`,
  );
}
