import type { SiteConfig } from "~/features/site-config/types";

/*
 * Renders a SiteConfig as the source of `site.config.ts`, laid out exactly as Prettier (the repo's
 * .prettierrc: printWidth 120) would lay it out, so that a downloaded file drops into the project and
 * passes `npm run lint` unchanged. It runs in the browser, where Prettier itself would be a heavy load.
 * The Prettier rules mirrored here: objects stay expanded, one property per line; a list of plain
 * values stays on one line when it fits and otherwise puts one item per line; a string that does not
 * fit after its key moves to the next line (except after keys shorter than 5 characters); strings use
 * double quotes unless they hold more double than single quotes; trailing commas everywhere.
 */

const PRINT_WIDTH = 120;
const INDENT = "  ";
const SHORT_KEY_WIDTH = 5;

type Primitive = string | number | boolean | null;
type Value = Primitive | readonly Value[] | { readonly [key: string]: Value | undefined };

/** Width of `text` in columns as Prettier counts it: wide East Asian characters and emoji take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f)) continue;
    const wide =
      /\p{Extended_Pictographic}/u.test(character) ||
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x20000 && code <= 0x3fffd);
    width += wide ? 2 : 1;
  }
  return width;
}

/** A TypeScript string literal: JSON's escaping, in the quotes Prettier would choose. */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return json;
  const body = json.slice(1, -1).replace(/\\"|'/g, (match) => (match === "'" ? "\\'" : '"'));
  return `'${body}'`;
}

function primitive(value: Primitive): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`Cannot write the number ${value}`);
  return String(value);
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : stringLiteral(key);
}

function isPrimitive(value: Value): value is Primitive {
  return value === null || typeof value !== "object";
}

function renderObject(object: { readonly [key: string]: Value | undefined }, depth: number): string {
  const properties = Object.entries(object).flatMap(([key, value]) =>
    value === undefined ? [] : [renderProperty(propertyKey(key), value, depth + 1)],
  );
  if (properties.length === 0) return "{}";
  return `{\n${properties.join("\n")}\n${INDENT.repeat(depth)}}`;
}

function renderArray(items: readonly Value[], depth: number, column: number): string {
  if (items.length === 0) return "[]";
  if (items.every(isPrimitive)) {
    const flat = `[${items.map(primitive).join(", ")}]`;
    // The trailing comma after the list is on the same line, so it counts.
    if (column + displayWidth(flat) + 1 <= PRINT_WIDTH) return flat;
  }
  const indent = INDENT.repeat(depth + 1);
  const lines = items.map((item) => `${indent}${renderValue(item, depth + 1, indent.length)},`);
  return `[\n${lines.join("\n")}\n${INDENT.repeat(depth)}]`;
}

function renderValue(value: Value, depth: number, column: number): string {
  if (isPrimitive(value)) return primitive(value);
  if (Array.isArray(value)) return renderArray(value, depth, column);
  return renderObject(value as { readonly [key: string]: Value | undefined }, depth);
}

function renderProperty(key: string, value: Value, depth: number): string {
  const indent = INDENT.repeat(depth);
  const head = `${indent}${key}: `;
  const line = `${head}${renderValue(value, depth, displayWidth(head))},`;
  const fits = typeof value !== "string" || displayWidth(line) <= PRINT_WIDTH;
  if (fits || displayWidth(key) < SHORT_KEY_WIDTH) return line;
  return `${indent}${key}:\n${indent}${INDENT}${primitive(value)},`;
}

/** The complete, formatted source of `site.config.ts` for `config`. */
export function renderSiteConfig(config: SiteConfig): string {
  return [
    'import type { SiteConfig } from "./app/features/site-config/types";',
    "",
    `export const siteConfig: SiteConfig = ${renderObject(config as unknown as Record<string, Value>, 0)};`,
    "",
  ].join("\n");
}
