// CSV as spreadsheets read it (RFC 4180): comma-separated, CRLF line ends, UTF-8.

/** Put first in the file, it tells Excel the file is UTF-8. */
export const UTF8_BOM = "\uFEFF";

/** A spreadsheet would take a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: quoted when it holds a quote, comma or line break; an apostrophe before anything a spreadsheet would run. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const text = typeof value === "number" ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
