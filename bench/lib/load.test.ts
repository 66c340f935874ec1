import { cpus } from "node:os";
import { describe, expect, it } from "vitest";
import { GENERATOR_BOUND_SHARE, generatorBound, generatorNote, type LoadFigures } from "./load";

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
