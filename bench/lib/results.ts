import { cpus, totalmem } from "node:os";

/** One row of bench/RESULTS.md. `pass` is null for a figure that has no goal of its own. */
export interface ResultRow {
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
  pass: boolean | null;
}

export function machineDescription(): string {
  const cores = cpus();
  const memoryGiB = Math.round(totalmem() / 2 ** 30);
  return `${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${memoryGiB} GiB, Node ${process.version}`;
}

const escapeCell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function resultsTable(rows: ResultRow[], date: string, machine: string): string {
  const header = ["Figure", "Value", "Baseline", "Ratio", "Goal", "Pass", "Date", "Machine"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of rows) {
    const pass = row.pass === null ? "–" : row.pass ? "pass" : "**FAIL**";
    const cells = [row.figure, row.value, row.baseline ?? "–", row.ratio ?? "–", row.goal ?? "–", pass, date, machine];
    lines.push(`| ${cells.map(escapeCell).join(" | ")} |`);
  }
  return lines.join("\n");
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const ms = (value: number) => `${value.toFixed(0)} ms`;
export const perSecond = (value: number) => `${value.toFixed(0)}/s`;
