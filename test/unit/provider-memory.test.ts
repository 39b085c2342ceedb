// The dynamic provider process's young generation (sdk/provider.ts, holdYoungGeneration): loading
// the implementation must not tip V8 into doubling it for the rest of the run. Checked against the
// compiled dist/ in a plain Node process, as the engine runs the dynamic provider.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const node = join(repo, "node_modules/.bin/node");
const fixture = join(__dirname, "fixtures/young-generation.js");
const MiB = 1024 * 1024;

/** The young generation's reserved size after a run's worth of objects, with `shim` loaded first. */
const youngGeneration = (shim: string) =>
  Number(execFileSync(node, [fixture, shim], { cwd: repo, encoding: "utf8" }));

it("keeps the young generation at the size @pulumi/pulumi's start-up gave it, under a run's load", () => {
  // the control: the same objects, without our shim, grow it past that
  expect(youngGeneration("none")).toBeGreaterThan(32 * MiB);
  expect(youngGeneration(join(repo, "dist/sdk/providers/any-kind.js"))).toBeLessThanOrEqual(32 * MiB);
});
