import { defineConfig } from "vitest/config";

// Four suites, run separately or together: unit (no I/O beyond loopback servers a test starts
// itself), integration (provider against the emulator over HTTP), contract (emulator against the
// spec's tables), e2e (the real pulumi CLI).
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 20_000 } },
      { test: { name: "integration", include: ["test/integration/**/*.test.ts"], testTimeout: 60_000 } },
      { test: { name: "contract", include: ["test/contract/**/*.test.ts"], testTimeout: 30_000 } },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // each e2e file drives a real pulumi CLI; two at once is what 2 cores take
          maxWorkers: 2,
        },
      },
    ],
  },
});
