import { defineConfig } from "vitest/config";

// Two projects: unit and simulation tests in parallel files, and tests on real processes
// one file at a time (one cluster at a time). One vitest process runs them one after the
// other; `npm test` runs them side by side as two processes (scripts/test-projects.mjs),
// so the unit files fill the core the integration files leave while they wait.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "test/unit/**/*.test.ts",
            "test/raft/**/*.test.ts",
            "test/lock/**/*.test.ts",
            "test/host/**/*.test.ts",
            "test/sim/**/*.test.ts",
          ],
          testTimeout: 240_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          globalSetup: ["test/integration/global-setup.ts"],
        },
      },
    ],
  },
});
