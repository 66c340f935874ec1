import QRCode, { type QRCodeMaskPattern, type QRCodeSegment } from "qrcode";

/** A symbol's modules, row after row, 1 for dark. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

export interface QrSymbol {
  /** What qrcode needs to draw this very symbol (as SVG, say) without searching again. */
  input: string | QRCodeSegment[];
  maskPattern?: QRCodeMaskPattern;
  modules: QrModules;
}

/**
 * A link's QR symbol, found without qrcode's two searches, which took about 0.8 ms per voucher link,
 * most of composing a confirmation mail (bench/NOTES.md): the segments by a dynamic programme over
 * the link's characters instead of a shortest path through a graph of objects, the mask scored on
 * typed arrays instead of per-module calls. Both choices are the ones the QR standard asks for: the
 * fewest bits, then the mask of lowest penalty by qrcode's own scoring, so the modules are those
 * qrcode draws for the same segments. Anything it was not made for (a character outside ASCII, a
 * link longer than version 9 holds) is left to qrcode's own search.
 */
export function qrSymbol(text: string): QrSymbol {
  // eslint-disable-next-line no-control-regex -- ASCII is exactly what the byte mode's cost assumes
  if (!/^[\x00-\x7f]+$/.test(text)) return searchedByQrcode(text);
  const segments = fewestBitSegments(text);
  const unmasked = QRCode.create(segments, { errorCorrectionLevel: QR_LEVEL, maskPattern: 0 });
  if (unmasked.version > SMALL_VERSIONS) return searchedByQrcode(text);
  const { maskPattern, data } = lowestPenaltyMask(unmasked.modules);
  return { input: segments, maskPattern, modules: { size: unmasked.modules.size, data } };
}

function searchedByQrcode(text: string): QrSymbol {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: QR_LEVEL });
  return { input: text, modules };
}

/** The error correction level of every voucher symbol; the format bits below are worked out for it. */
export const QR_LEVEL = "M";
/** Format information's two error correction bits for level M. */
const LEVEL_FORMAT_BITS = 0b00;
/** The character count lengths below are those of versions 1 to 9. */
const SMALL_VERSIONS = 9;

const MODES = ["numeric", "alphanumeric", "byte"] as const;
const MODE_COUNT = MODES.length;
/** A character's cost in sixths of a bit: numeric packs 3 digits in 10 bits, alphanumeric 2 in 11. */
const CHARACTER_SIXTHS = [20, 33, 48];
/** A segment's mode indicator and character count, in sixths of a bit. */
const HEADER_SIXTHS = [(4 + 10) * 6, (4 + 9) * 6, (4 + 8) * 6];

/** Per ASCII code, the modes that hold it, one bit each (numeric 1, alphanumeric 2, byte 4). */
const HOLDING_MODES = Uint8Array.from({ length: 128 }, (_, code) => {
  const character = String.fromCharCode(code);
  const numeric = character >= "0" && character <= "9" ? 1 : 0;
  const alphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".includes(character) ? 2 : 0;
  return numeric | alphanumeric | 4;
});

/** A segment's cost once it ends: its characters round up to whole bits. */
const wholeBits = (sixths: number) => Math.ceil(sixths / 6) * 6;

/**
 * The segmentation of fewest bits. After each character, for each mode: the cheapest way to have
 * encoded the text so far with that mode's segment open, and the mode that character went in.
 * Switching modes closes the open segment and pays the new one's header.
 */
function fewestBitSegments(text: string): QRCodeSegment[] {
  const costs = Float64Array.from(HEADER_SIXTHS);
  const extended = new Float64Array(MODE_COUNT);
  // Per character and open mode, the mode the character went in.
  const cameFrom = new Uint8Array(text.length * MODE_COUNT);
  for (let i = 0; i < text.length; i++) {
    const holding = HOLDING_MODES[text.charCodeAt(i)]!;
    for (let m = 0; m < MODE_COUNT; m++) {
      extended[m] = holding & (1 << m) ? costs[m]! + CHARACTER_SIXTHS[m]! : Infinity;
    }
    for (let m = 0; m < MODE_COUNT; m++) {
      let cost = extended[m]!;
      let from = m;
      for (let p = 0; p < MODE_COUNT; p++) {
        const switched = wholeBits(extended[p]!) + HEADER_SIXTHS[m]!;
        if (switched < cost) {
          cost = switched;
          from = p;
        }
      }
      costs[m] = cost;
      cameFrom[i * MODE_COUNT + m] = from;
    }
  }
  let mode = 0;
  for (let m = 1; m < MODE_COUNT; m++) if (costs[m]! < costs[mode]!) mode = m;
  const modes = new Uint8Array(text.length);
  for (let i = text.length - 1; i >= 0; i--) {
    mode = cameFrom[i * MODE_COUNT + mode]!;
    modes[i] = mode;
  }
  const segments: QRCodeSegment[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || modes[i] !== modes[start]) {
      segments.push({ mode: MODES[modes[start]!]!, data: text.slice(start, i) } as QRCodeSegment);
      start = i;
    }
  }
  return segments;
}

/** Whether mask `pattern` darkens the module at `row`, `column` (the standard's eight conditions). */
function masks(pattern: number, row: number, column: number): boolean {
  switch (pattern) {
    case 0:
      return (row + column) % 2 === 0;
    case 1:
      return row % 2 === 0;
    case 2:
      return column % 3 === 0;
    case 3:
      return (row + column) % 3 === 0;
    case 4:
      return (Math.floor(row / 2) + Math.floor(column / 3)) % 2 === 0;
    case 5:
      return ((row * column) % 2) + ((row * column) % 3) === 0;
    case 6:
      return (((row * column) % 2) + ((row * column) % 3)) % 2 === 0;
    default:
      return (((row * column) % 3) + ((row + column) % 2)) % 2 === 0;
  }
}

/** The 15 format bits for level M and a mask: 5 data bits, 10 of BCH(15,5), xor-ed with 0x5412. */
function formatBits(pattern: number): number {
  const generator = 0b10100110111;
  const data = (LEVEL_FORMAT_BITS << 3) | pattern;
  let remainder = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (remainder & (1 << bit)) remainder ^= generator << (bit - 10);
  return ((data << 10) | remainder) ^ 0b101010000010010;
}

/** Where the standard puts format bit `bit`: twice, by the three finder patterns. */
function formatIndices(size: number, bit: number): [number, number] {
  const down = bit < 6 ? bit : bit < 8 ? bit + 1 : size - 15 + bit;
  const across = bit < 8 ? size - bit - 1 : bit < 9 ? 15 - bit : 14 - bit;
  return [down * size + 8, 8 * size + across];
}

/**
 * Per symbol size, for each mask, what turns a symbol drawn with mask 0 into the one drawn with it:
 * 1 where the two masks differ outside the function patterns, which no mask touches, and where the
 * two masks' format bits differ. The function patterns sit where the version puts them, so one
 * symbol of a size tells them for all.
 */
const maskSwaps = new Map<number, Uint8Array[]>();

function maskSwapsFor(size: number, reserved: Uint8Array): Uint8Array[] {
  let swaps = maskSwaps.get(size);
  if (!swaps) {
    swaps = Array.from({ length: 8 }, (_, pattern) => {
      const swap = Uint8Array.from({ length: size * size }, (_, index) => {
        const row = Math.floor(index / size);
        const column = index % size;
        return reserved[index] ? 0 : Number(masks(0, row, column) !== masks(pattern, row, column));
      });
      const formatChange = formatBits(0) ^ formatBits(pattern);
      for (let bit = 0; bit < 15; bit++) {
        for (const index of formatIndices(size, bit)) swap[index] = (formatChange >> bit) & 1;
      }
      return swap;
    });
    maskSwaps.set(size, swaps);
  }
  return swaps;
}

/**
 * The mask qrcode's own search settles on, the first of the eight with the lowest penalty as qrcode
 * scores it, and the symbol drawn with it. `symbol` was drawn with mask 0. The penalty: runs of five
 * or more alike in a line (3, plus 1 a module past five), 2×2 blocks alike (3 each), finder-like
 * 1:1:3:1:1 runs in an 11-module window (40 each), and 10 for each 5 % the dark share strays from
 * half, rounded as qrcode rounds it.
 */
function lowestPenaltyMask(symbol: { size: number; data: Uint8Array; reservedBit: Uint8Array }): {
  maskPattern: QRCodeMaskPattern;
  data: Uint8Array;
} {
  const { size, data, reservedBit } = symbol;
  const swaps = maskSwapsFor(size, reservedBit);
  let best = new Uint8Array(data.length);
  let trial = new Uint8Array(data.length);
  let bestPattern = 0;
  let lowest = Infinity;
  for (let pattern = 0; pattern < 8; pattern++) {
    const score =
      masked(data, swaps[pattern]!, trial, size) +
      linePenalty(trial, size, size, 1) +
      linePenalty(trial, size, 1, size);
    if (score < lowest) {
      lowest = score;
      bestPattern = pattern;
      [best, trial] = [trial, best];
    }
  }
  return { maskPattern: bestPattern as QRCodeMaskPattern, data: best };
}

/**
 * Writes `data` with `swap` applied into `into`, row after row, and scores what needs no line
 * scanned: the blocks (each with the row above, written already) and the dark share.
 */
function masked(data: Uint8Array, swap: Uint8Array, into: Uint8Array, size: number): number {
  let points = 0;
  let dark = 0;
  for (let row = 0; row < size; row++) {
    let index = row * size;
    for (let column = 0; column < size; column++, index++) {
      const module = data[index]! ^ swap[index]!;
      into[index] = module;
      dark += module;
      if (row > 0 && column > 0) {
        const block = module + into[index - 1]! + into[index - size]! + into[index - size - 1]!;
        if (block === 0 || block === 4) points += 3;
      }
    }
  }
  return points + Math.abs(Math.ceil((dark * 100) / data.length / 5) - 10) * 10;
}

/** Runs and finder-like windows along each line: rows (`lineStep` size, `moduleStep` 1) or columns. */
function linePenalty(modules: Uint8Array, size: number, lineStep: number, moduleStep: number): number {
  let points = 0;
  for (let line = 0; line < size; line++) {
    let index = line * lineStep;
    let previous = -1;
    let run = 0;
    let window = 0;
    for (let step = 0; step < size; step++, index += moduleStep) {
      const module = modules[index]!;
      if (module === previous) run++;
      else {
        if (run >= 5) points += run - 2;
        previous = module;
        run = 1;
      }
      window = ((window << 1) & 0x7ff) | module;
      if (step >= 10 && (window === 0x5d0 || window === 0x05d)) points += 40;
    }
    if (run >= 5) points += run - 2;
  }
  return points;
}
