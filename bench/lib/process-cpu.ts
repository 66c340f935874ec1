import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU time, user and system, that a process (all its threads) has used so far, in milliseconds. */
export function processCpuMs(pid: number): number {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    // It has exited: its time is no longer counted anywhere.
    return 0;
  }
}

/** The processes of this machine's PostgreSQL server: the postmaster, its backends and its workers. */
export function postgresPids(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
      } catch {
        return false;
      }
    });
}
