// The serialized provider that Pulumi stores in every resource's state: small, free of
// secrets, and working. Checked against the compiled dist/ in a plain Node process, both as a
// user gets it (the package installed under node_modules) and inside this repository.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = resolve(__dirname, "../..");
const node = join(repo, "node_modules/.bin/node");
const script = join(__dirname, "fixtures/serialize-providers.js");
const SECRETS = { MEDIAHOST_CLIENT_SECRET: "env-secret-4f1c9a", MEDIAHOST_CLIENT_ID: "env-client-id" };

type Serialized = Record<string, { text: string; containsSecrets: boolean }>;

/** Runs the fixture from `cwd`, so module names resolve as they would for a program there. */
function serialize(cwd: string, prefix: string): Serialized {
  const local = join(cwd, "serialize-providers.js");
  if (!existsSync(local)) cpSync(script, local);
  const stdout = execFileSync(node, [local, prefix], {
    cwd,
    env: { ...process.env, ...SECRETS },
    encoding: "utf8",
  });
  return JSON.parse(stdout) as Serialized;
}

let project: string;
beforeAll(() => {
  if (!existsSync(join(repo, "dist/sdk/providers/folder.js"))) {
    execFileSync(join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: repo });
  }
  // a user's project: the package as installed (real files under node_modules), its
  // dependencies beside it
  project = mkdtempSync(join(tmpdir(), "mediahost-serialize-"));
  const pkg = join(project, "node_modules/pulumi-mediahost");
  mkdirSync(pkg, { recursive: true });
  cpSync(join(repo, "package.json"), join(pkg, "package.json"));
  cpSync(join(repo, "dist"), join(pkg, "dist"), { recursive: true });
  // every dependency the package declares, as npm would install it beside the package
  const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const dep of new Set(Object.keys(manifest.dependencies).map((d) => d.split("/")[0]!)))
    symlinkSync(join(repo, "node_modules", dep), join(project, "node_modules", dep));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(join(repo, "dist/serialize-providers.js"), { force: true });
});

describe("serialized provider", () => {
  it("is a one-line module reference under 2 KB when the package is installed", () => {
    const serialized = serialize(project, "pulumi-mediahost/dist/sdk/providers");
    for (const [kind, { text, containsSecrets }] of Object.entries(serialized)) {
      expect(text, kind).toContain(`require("pulumi-mediahost/dist/sdk/providers/${kind}.js")`);
      expect(text.length, kind).toBeLessThan(2048);
      expect(containsSecrets, kind).toBe(false);
      for (const secret of Object.values(SECRETS)) expect(text, kind).not.toContain(secret);
    }
    console.log(
      `installed: ${Object.entries(serialized)
        .map(([k, v]) => `${k} ${v.text.length} B`)
        .join(", ")}`,
    );
  });

  it("is a small by-value shim without secrets for programs inside this repository", () => {
    const serialized = serialize(join(repo, "dist"), join(repo, "dist/sdk/providers"));
    for (const [kind, { text }] of Object.entries(serialized)) {
      // nothing of the implementation is captured: only the shim that requires it
      expect(text, kind).toContain('require("pulumi-mediahost/provider")');
      expect(text, kind).not.toMatch(/MediahostClient|zod|updateAccount/);
      expect(text.length, kind).toBeLessThan(4096);
      for (const secret of Object.values(SECRETS)) expect(text, kind).not.toContain(secret);
    }
  });

  it("works when evaluated the way the dynamic provider does it: a kind's own shim, and the shared one told the kind", () => {
    const { folder, "any-kind": anyKind } = serialize(project, "pulumi-mediahost/dist/sdk/providers");
    const probe = (text: string, news: Record<string, unknown>) => `
      const requireFromString = require("require-from-string");
      const provider = requireFromString(${JSON.stringify(text)}).handler();
      provider.configure({ config: { get: (k) => ({ "mediahost:baseUrl": "http://127.0.0.1:9", "mediahost:clientId": "i", "mediahost:clientSecret": "s" })[k] } })
        .then(() => provider.check({}, ${JSON.stringify(news)}))
        .then((r) => process.stdout.write(JSON.stringify(r.failures)));`;
    if (!existsSync(join(project, "node_modules/require-from-string"))) {
      symlinkSync(
        join(repo, "node_modules/require-from-string"),
        join(project, "node_modules/require-from-string"),
      );
    }
    for (const [text, news] of [
      [folder!.text, { path: "no-slash" }],
      [anyKind!.text, { path: "no-slash", __mediahostKind: "Folder" }],
    ] as const) {
      writeFileSync(join(project, "probe.js"), probe(text, news));
      const failures = JSON.parse(execFileSync(node, ["probe.js"], { cwd: project, encoding: "utf8" }));
      expect(failures).toEqual([{ property: "path", reason: 'must begin with "/"' }]);
    }
  });
});
