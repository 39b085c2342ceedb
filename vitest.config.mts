import { defineConfig } from "vitest/config";

// Four tiers, run separately or together, over both packages of the repository (the provider's
// tests in test/, the emulator's in emulator/test/): unit (no I/O beyond loopback servers a test
// starts itself), integration (provider against the emulator over HTTP, the emulator as a
// process), contract (the emulator against the API's documented tables), e2e (the real pulumi CLI).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "emulator/test/unit/**/*.test.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "emulator/test/integration/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      { test: { name: "contract", include: ["emulator/test/contract/**/*.test.ts"], testTimeout: 30_000 } },
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
