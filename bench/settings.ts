/** Durations and ports of one bench run; the environment shortens them for a quick run. */
export interface BenchSettings {
  loadSeconds: number;
  warmupSeconds: number;
  /** Rounds a measured rate alternates with its baseline in. */
  rounds: number;
  memorySeconds: number;
  lighthouseRuns: number;
  serverPort: number;
  baselinePort: number;
}

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export function settingsFromEnv(): BenchSettings {
  return {
    loadSeconds: numberFromEnv("BENCH_LOAD_SECONDS", 10),
    warmupSeconds: numberFromEnv("BENCH_WARMUP_SECONDS", 3),
    rounds: numberFromEnv("BENCH_ROUNDS", 2),
    memorySeconds: numberFromEnv("BENCH_MEMORY_SECONDS", 300),
    lighthouseRuns: numberFromEnv("BENCH_LIGHTHOUSE_RUNS", 3),
    serverPort: numberFromEnv("BENCH_PORT", 3900),
    baselinePort: numberFromEnv("BENCH_BASELINE_PORT", 3901),
  };
}

/** The measured seconds, warm-up and rounds of a comparison under load (bench/lib/load.ts). */
export const loadRounds = (settings: BenchSettings) => ({
  seconds: settings.loadSeconds,
  warmupSeconds: settings.warmupSeconds,
  rounds: settings.rounds,
});
