// The bench's CPU by process (scripts/bench/setup.ts): sampled from /proc while a command runs,
// each process counted for its role by its command line. Real processes that burn known CPU.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type CpuSamples, cpuSeconds, sampleTree } from "../../scripts/bench/setup";

/** Node.js code that burns `ms` of its own CPU, then idles a while so a sample sees all of it. */
const burn = (ms: number) =>
  `const t = process.cpuUsage(); for (let u = process.cpuUsage(t); u.user + u.system < ${ms * 1000}; u = process.cpuUsage(t)) {} setTimeout(() => {}, 600);`;

describe.skipIf(process.platform !== "linux")("the bench's CPU sampling", () => {
  it("counts the root for the engine and each child by its command line, a bystander for none", async () => {
    // the root spawns a "provider" and a "program" (their argv name the dynamic provider and
    // Pulumi's runner) and a bystander
    const root = spawn(
      process.execPath,
      [
        "-e",
        `const { spawn } = require("node:child_process");
         const kids = [
           spawn(process.execPath, ["-e", ${JSON.stringify(burn(400))}, "dynamic-provider"], { stdio: "ignore" }),
           spawn(process.execPath, ["-e", ${JSON.stringify(burn(250))}, "/x/@pulumi/pulumi/cmd/run/index.js"], { stdio: "ignore" }),
           spawn(process.execPath, ["-e", ${JSON.stringify(burn(400))}, "bystander"], { stdio: "ignore" }),
         ];
         ${burn(200)}
         let left = kids.length;
         for (const k of kids) k.on("exit", () => { if (--left === 0) process.exit(0); });`,
      ],
      { stdio: "ignore" },
    );
    const cpu: CpuSamples = new Map();
    const timer = setInterval(() => sampleTree(root.pid as number, cpu), 50);
    await new Promise((done) => root.on("exit", done));
    clearInterval(timer);
    const seconds = cpuSeconds(cpu);
    expect(seconds.provider).toBeGreaterThanOrEqual(0.38);
    expect(seconds.provider).toBeLessThan(0.7);
    // the root's own burn, and its start-up
    expect(seconds.engine).toBeGreaterThanOrEqual(0.18);
    expect(seconds.engine).toBeLessThan(0.5);
    // the "program", and not the bystander (it counts for no role)
    expect(seconds.program).toBeGreaterThanOrEqual(0.23);
    expect(seconds.program).toBeLessThan(0.55);
  });
});
