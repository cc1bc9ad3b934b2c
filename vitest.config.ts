import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      // pg-global-setup: the run's shared PostgreSQL cluster (started only if a test asks for it)
      { test: { name: "unit", include: ["src/**/*.test.ts", "test/arch/**/*.test.ts", "test/support/**/*.test.ts", "test/types/**/*.test.ts"], testTimeout: 20_000, globalSetup: ["test/support/pg-global-setup.ts"] } },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 30_000, globalSetup: ["test/support/pg-global-setup.ts"] } },
    ],
  },
});
