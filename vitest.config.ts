import { defineConfig } from "vitest/config";

// Two projects: unit and simulation tests run in parallel; tests on real processes
// run one file at a time, after the first project (sequence.groupOrder).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/raft/**/*.test.ts", "test/sim/**/*.test.ts"],
          testTimeout: 240_000,
          sequence: { groupOrder: 0 },
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
