// Bad input with the real CLI: every invalid input of programs/bad-input/cases.ts (bad paths,
// over-long values, wrong types, unknown properties, bad URLs, conflicting options) fails at
// `pulumi preview` with a message naming the field and the rule, and the emulator sees no
// write call. Resources are judged by `check`; data functions validate before calling the API.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";
import { BAD_INPUT_SECRET, functionCases, resourceCases } from "./programs/bad-input/cases";

const READS = new Set([
  "token",
  "getAccount",
  "getStorage",
  "getLimits",
  "getBillingPlan",
  "listUsers",
  "getUser",
]);

describe("invalid inputs fail at preview, naming the field and the rule", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "test/e2e/programs/bad-input",
      // an `eu` account exists, so that "not configured" is about the name only
      config: { "mediahost:accounts": { value: JSON.stringify({ eu: {} }), secret: true } },
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    });
  });
  afterAll(() => p?.dispose());

  it(`has at least 40 cases across every resource kind and data function`, () => {
    expect(resourceCases.length + functionCases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(resourceCases.map((c) => c.kind)).size).toBe(7);
    expect(new Set(functionCases.map((c) => c.fn)).size).toBe(7);
  });

  /** One `pulumi preview` of the program with MEDIAHOST_BAD_CASE=name: its exit code and output. */
  function preview(name: string) {
    return new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn("pulumi", ["preview", "--stack", p.stack.name, "--non-interactive"], {
        cwd: join(repoRoot, "test/e2e/programs/bad-input"),
        env: {
          ...toolchain!.env,
          ...p.backend.envVars,
          MEDIAHOST_BAD_CASE: name,
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      child.on("close", (code) => resolve({ code, out }));
    });
  }

  it(`${resourceCases.length} invalid resources: each fails its preview naming the field and rule, with no API write`, async () => {
    p.mark();
    const results = new Map<string, { code: number | null; out: string }>();
    const queue = [...resourceCases];
    // the engine stops a preview at its first failed check: one preview per case, 4 at a time
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) results.set(c.name, await preview(c.name));
      }),
    );
    const wrong: string[] = [];
    for (const c of resourceCases) {
      const { code, out } = results.get(c.name)!;
      // "resource 'NAME': property FIELD value {...} has a problem: RULE"
      const [field, ...rule] = c.expected.split(": ");
      const shown = new RegExp(
        `resource '${c.name}': property ${escapeRegExp(field!)} value .* has a problem: ${escapeRegExp(rule.join(": "))}`,
      );
      if (code === 0 || !shown.test(out)) wrong.push(`${c.name} (exit ${code}): ${out.slice(0, 600)}`);
    }
    expect(wrong).toEqual([]);
    const shown = [...results.values()].filter((r) => r.out.includes(BAD_INPUT_SECRET));
    expect(shown).toEqual([]);
    const writes = Object.keys(p.calls()).filter((op) => !READS.has(op));
    expect(writes).toEqual([]);
  });

  it(`${functionCases.length} invalid data-function calls: each fails with its field and rule, no API call`, async () => {
    p.mark();
    const { code, out } = await preview("functions");
    expect(code).not.toBe(0);
    const missing = functionCases.filter((c) => !out.includes(`${c.name}: ${c.expected}`));
    expect(
      missing.map((c) => `${c.name}: ${c.expected}`),
      out.slice(0, 4000),
    ).toEqual([]);
    expect(out).not.toContain("no error");
    // validated before anything was sent
    expect(p.calls()).toEqual({});
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
