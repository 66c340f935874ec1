import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const integration = (database: "pglite" | "postgres"): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name: `integration-${database}`,
    include: ["tests/integration/**/*.test.ts"],
    env: { TEST_DB_KIND: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    env: { LOG_LEVEL: "silent" },
    projects: [
      { extends: true, test: { name: "unit", include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"] } },
      integration("pglite"),
      // The same suite again on a real PostgreSQL whenever one is offered.
      ...(process.env.TEST_DATABASE_URL ? [integration("postgres")] : []),
    ],
  },
});
