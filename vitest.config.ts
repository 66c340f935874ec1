import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const integration = (database: "pglite" | "postgres"): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name: `integration-${database}`,
    include: ["tests/integration/**/*.test.ts"],
    // A fixed secret, so that no test writes one into ./data.
    env: { TEST_DB_KIND: database, APP_SECRET: "integration-tests-only-secret-0123456789abcdef" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    env: { LOG_LEVEL: "silent" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "bench/**/*.test.ts", "tests/docs/**/*.test.ts"],
        },
      },
      integration("pglite"),
      // The same suite again on a real PostgreSQL whenever one is offered.
      ...(process.env.TEST_DATABASE_URL ? [integration("postgres")] : []),
    ],
  },
});
