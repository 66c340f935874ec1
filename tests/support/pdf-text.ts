import { execFileSync } from "node:child_process";

/** The text a reader sees in a PDF, laid out as on the page (poppler's pdftotext). */
export function pdfText(pdf: Uint8Array): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf, encoding: "utf8" });
}

/** The PDF's first page drawn as `path` (a .png), at 100 dpi, to look at beside the page screenshots. */
export function pdfScreenshot(pdf: Uint8Array, path: string): void {
  execFileSync("pdftoppm", ["-png", "-r", "100", "-singlefile", "-", path.replace(/\.png$/, "")], { input: pdf });
}
