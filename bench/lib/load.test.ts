import { cpus } from "node:os";
import { describe, expect, it } from "vitest";
import { GENERATOR_BOUND_SHARE, generatorBound, generatorNote, together, type LoadFigures } from "./load";

const figures = (generatorCpuShare: number): LoadFigures => ({
  requestsPerSecond: 1_000,
  requests: 10_000,
  p50: 1,
  p99: 5,
  errors: 0,
  statusCounts: {},
  collected: [],
  generatorCpuShare,
  cpuMsPerRequest: {},
});

describe("a row measured while wrk was near its core's limit", () => {
  it("is bound by the load generator when any of its runs went over 90 % of a core", () => {
    expect(GENERATOR_BOUND_SHARE).toBe(0.9);
    expect(generatorBound(figures(0.34))).toBe(false);
    expect(generatorBound(figures(0.9))).toBe(false);
    expect(generatorBound(figures(0.91))).toBe(true);
    expect(generatorBound(figures(0.2), figures(0.95))).toBe(true);
    expect(generatorBound(figures(0.2), figures(0.5))).toBe(false);
  });

  it("says so in the row's note, with each run's share", () => {
    const cores = cpus().length;
    expect(generatorNote(figures(0.34), figures(0.5))).toBe(
      `load generator (wrk) used 34 % / 50 % of a core (of ${cores})`,
    );
    expect(generatorNote(figures(0.34), figures(0.96))).toBe(
      `load generator (wrk) used 34 % / 96 % of a core (of ${cores}): bound by the load generator`,
    );
  });
});

describe("loads that ran at the same time, as one", () => {
  it("adds their rates, and shares each process group's CPU over all their requests, counting a group once", () => {
    const first = {
      ...figures(0.2),
      requestsPerSecond: 300,
      requests: 3_000,
      p99: 9,
      statusCounts: { "302": 3_000 },
      cpuMsPerRequest: { server: 2, postgres: 1.2 },
    };
    const second = {
      ...figures(0.4),
      requestsPerSecond: 100,
      requests: 1_000,
      errors: 2,
      statusCounts: { "302": 998, "503": 2 },
      cpuMsPerRequest: { server: 4 },
    };
    expect(together([first, second])).toMatchObject({
      requestsPerSecond: 400,
      requests: 4_000,
      p99: 9,
      errors: 2,
      statusCounts: { "302": 3_998, "503": 2 },
      generatorCpuShare: 0.4,
      // (2 × 3,000 + 4 × 1,000) / 4,000, and PostgreSQL's 1.2 × 3,000 over the 4,000.
      cpuMsPerRequest: { server: 2.5, postgres: 0.9 },
    });
  });
});
