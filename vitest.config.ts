import { defineConfig } from "vitest/config";

// Most of the suite waits on child processes (the built CLI, fake servers, kernels, language
// servers), not on its own CPU. vitest's default of one worker per core minus one means a
// single worker on a 2-core machine, which leaves a core idle through every such wait; three
// workers keep both cores busy. PITH_TEST_WORKERS overrides it (e.g. 1 to debug an ordering).
const workers = Number(process.env.PITH_TEST_WORKERS ?? 3);

export default defineConfig({
  test: {
    maxWorkers: workers > 0 ? workers : 3,
    projects: [
      // pg-global-setup: the run's shared PostgreSQL cluster (started only if a test asks for it)
      { test: { name: "unit", include: ["src/**/*.test.ts", "test/arch/**/*.test.ts", "test/support/**/*.test.ts", "test/types/**/*.test.ts"], testTimeout: 20_000, globalSetup: ["test/support/pg-global-setup.ts"] } },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 30_000, globalSetup: ["test/support/pg-global-setup.ts"] } },
    ],
  },
});
