import { execFileSync } from "node:child_process";

/** The text a reader sees in a PDF, laid out as on the page (poppler's pdftotext). */
export function pdfText(pdf: Uint8Array): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf, encoding: "utf8" });
}
