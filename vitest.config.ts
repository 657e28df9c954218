import { defineConfig } from "vitest/config";

// Two projects that run side by side: unit and simulation tests in parallel files, tests
// on real processes one file at a time (one cluster at a time). The integration files
// mostly wait on their clusters, so the unit files fill the other core meanwhile.
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
