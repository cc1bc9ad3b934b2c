import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["src/**/*.test.ts", "test/arch/**/*.test.ts", "test/support/**/*.test.ts", "test/types/**/*.test.ts"], testTimeout: 20_000 } },
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 30_000 } },
    ],
  },
});
