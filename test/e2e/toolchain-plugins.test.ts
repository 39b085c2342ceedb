// What Pulumi users do with plugins, through the toolchain's own hosts and the real CLI:
//   - a TypeScript policy pack (`pulumi preview --policy-pack DIR`), which the CLI runs through
//     the Node.js language host's RunPlugin (@pulumi/pulumi/cmd/run-policy-pack);
//   - a native provider written in Node.js: a PulumiPlugin.yaml project run through RunPlugin
//     (cmd/run-plugin) as a project plugin of Pulumi.yaml, or a `pulumi-resource-toy` on PATH;
//     versioned by the npm package that names it (GetRequiredPackages) and never downloaded;
//   - `pulumi import --generate-code` and `pulumi convert --language typescript`, which write
//     TypeScript through the host's GenerateProgram / GenerateProject;
//   - Pulumi YAML programs, through the pulumi-language-yaml that provisioning provides.
// The toy provider keeps its widgets as JSON files in a directory ($TOY_WORLD), so the test sees
// what really happened. PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION is on and PULUMI_HOME is
// fresh: a plugin the engine could not find would fail the run rather than be downloaded.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTemporaryBackend,
  repoRoot,
  type TemporaryBackend,
  toolchainForTests,
} from "./helpers/toolchain";

// The toy provider: @pulumi/pulumi/provider's main with a schema and a Read that serves imports.
const TOY_PROVIDER = `"use strict";
const fs = require("node:fs");
const path = require("node:path");
const provider = require("@pulumi/pulumi/provider");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const { Struct } = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [require.resolve("@pulumi/pulumi")] }),
);

// The SDK's Read handler reads the request's properties unconditionally; an import sends none.
const getProperties = provproto.ReadRequest.prototype.getProperties;
provproto.ReadRequest.prototype.getProperties = function () {
  return getProperties.call(this) ?? new Struct();
};

const VERSION = "1.2.3";
const schema = {
  name: "toy",
  version: VERSION,
  language: { nodejs: { packageName: "@example/toy" } },
  resources: {
    "toy:index:Widget": {
      inputProperties: {
        name: { type: "string" },
        size: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
      },
      requiredInputs: ["name"],
      properties: {
        name: { type: "string" },
        size: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        pluginVersion: { type: "string" },
      },
      required: ["name", "pluginVersion"],
    },
  },
};
const file = (id) => path.join(process.env.TOY_WORLD, id + ".json");
const inputsOf = (p) =>
  Object.fromEntries(Object.entries({ name: p.name, size: p.size, tags: p.tags }).filter(([, v]) => v !== undefined));

provider.main(
  {
    version: VERSION,
    schema: JSON.stringify(schema),
    async check(_urn, _olds, news) {
      return { inputs: news };
    },
    async diff(_id, _urn, olds, news) {
      return { changes: JSON.stringify(inputsOf(olds)) !== JSON.stringify(inputsOf(news)) };
    },
    async create(_urn, inputs) {
      const id = "widget-" + inputs.name;
      const outs = { ...inputsOf(inputs), pluginVersion: VERSION };
      fs.writeFileSync(file(id), JSON.stringify(outs));
      return { id, outs };
    },
    async read(id) {
      if (!fs.existsSync(file(id))) return {};
      const props = { ...JSON.parse(fs.readFileSync(file(id), "utf8")), pluginVersion: VERSION };
      return { id, props, inputs: inputsOf(props) };
    },
    async update(id, _urn, _olds, news) {
      const outs = { ...inputsOf(news), pluginVersion: VERSION };
      fs.writeFileSync(file(id), JSON.stringify(outs));
      return { outs };
    },
    async delete(id) {
      fs.rmSync(file(id), { force: true });
    },
  },
  process.argv.slice(2),
);
`;

// A policy pack in TypeScript (run with ts-node, as `pulumi policy new typescript` packs are). Its
// message names the stack, which reaches the pack only through the host's policy proxy.
const POLICY_PACK = `import * as pulumi from "@pulumi/pulumi";
import { PolicyPack } from "@pulumi/policy";

const limit = 10;
new PolicyPack("e2e-greetings", {
  policies: [
    {
      name: "greeting-size-limit",
      description: "Greetings are at most 10 long.",
      enforcementLevel: "mandatory",
      validateResource: (args, reportViolation) => {
        if (args.type !== "pulumi-nodejs:dynamic:Resource") return;
        const size: number = args.props.size;
        if (size > limit) {
          reportViolation(
            \`greeting '\${args.name}' of stack \${pulumi.getStack()} has size \${size}, over the limit of \${limit}\`,
          );
        }
      },
    },
  ],
});
`;

// The program the pack judges: one dynamic resource whose size comes from config.
const GREETING_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const provider = { async create(inputs) { return { id: "greeting-" + inputs.size, outs: inputs }; } };
class Greeting extends pulumi.dynamic.Resource {
  constructor(name, args, opts) { super(provider, name, args, opts); }
}
new Greeting("greeting", { size: new pulumi.Config().requireNumber("size") });
`;

// A program using the toy provider's resource the way a generated SDK would, but without saying a
// version: which version the default provider gets is the language host's answer.
const WIDGET_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const widget = new pulumi.CustomResource("toy:index:Widget", "w", { name: "one", size: 2, pluginVersion: undefined });
exports.pluginVersion = widget.pluginVersion;
`;

/**
 * The non-blank lines of `text` are exactly `lines` (blank lines aside): what a code generator
 * wrote, compared line by line so a failure shows the line that differs.
 */
function expectLines(text: string, lines: string[]): void {
  const nonBlank = (l: string[]) => l.map((x) => x.trimEnd()).filter((x) => x !== "");
  expect(nonBlank(text.split("\n"))).toEqual(nonBlank(lines));
}

interface Run {
  code: number;
  stdout: string;
  /** stdout and stderr */
  out: string;
}

describe("toolchain plugins: policy packs, provider plugins, code generation and YAML with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) {
    it.skip("needs the Pulumi toolchain (see the warning above)");
    return;
  }
  let dir: string;
  let world: string;
  let toyPlugin: string;
  let toyBin: string;
  let backend: TemporaryBackend;
  let stackCount = 0;

  const pulumi = (cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        join(toolchain.pulumiRoot, "bin", "pulumi"),
        ["--non-interactive", ...args],
        {
          cwd,
          env: {
            ...toolchain.env,
            ...backend.envVars,
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            TOY_WORLD: world,
            ...env,
          },
          maxBuffer: 16 << 20,
        },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
          resolve({ code, stdout, out: `${stdout}\n${stderr}` });
        },
      );
    });
  const ok = async (cwd: string, args: string[], env?: Record<string, string>): Promise<string> =>
    (await okRun(cwd, args, env)).out;
  const okRun = async (cwd: string, args: string[], env?: Record<string, string>): Promise<Run> => {
    const run = await pulumi(cwd, args, env);
    expect(run.code, `pulumi ${args.join(" ")} in ${cwd}:\n${run.out}`).toBe(0);
    return run;
  };
  const newStack = async (cwd: string, env?: Record<string, string>): Promise<string> => {
    const name = `s${++stackCount}`;
    await ok(cwd, ["stack", "init", name], env);
    return name;
  };
  const stackState = async (cwd: string, stack: string) =>
    JSON.parse((await okRun(cwd, ["stack", "export", "--stack", stack])).stdout).deployment as {
      resources?: Array<{ urn: string; type: string; inputs?: Record<string, unknown> }>;
    };

  /** A directory with the given files; node_modules links to the repository's unless given. */
  const project = async (
    name: string,
    files: Record<string, string>,
    nodeModules = true,
  ): Promise<string> => {
    const p = join(dir, name);
    for (const [file, content] of Object.entries(files)) {
      await mkdir(join(p, file, ".."), { recursive: true });
      await writeFile(join(p, file), content);
    }
    if (nodeModules) await symlink(join(repoRoot, "node_modules"), join(p, "node_modules"), "dir");
    return p;
  };

  beforeAll(async () => {
    backend = await createTemporaryBackend();
    dir = realpathSync(await mkdtemp(join(tmpdir(), "mediahost-toolchain-plugins-")));
    world = join(dir, "world");
    await mkdir(world);
    // the provider as a plugin project, run by the Node.js language host
    toyPlugin = await project("toy-plugin", {
      "PulumiPlugin.yaml": "runtime:\n  name: nodejs\n  options:\n    typescript: false\n",
      "package.json": JSON.stringify({ name: "pulumi-resource-toy", version: "1.2.3", main: "index.js" }),
      "index.js": TOY_PROVIDER,
    });
    // the same provider as an executable named as the engine looks for it on PATH
    toyBin = join(dir, "toy-bin");
    await mkdir(toyBin);
    await writeFile(
      join(toyBin, "pulumi-resource-toy"),
      `#!/bin/sh\nexec node ${JSON.stringify(join(toyPlugin, "index.js"))} "$@"\n`,
    );
    await chmod(join(toyBin, "pulumi-resource-toy"), 0o755);
  });

  afterAll(async () => {
    await backend?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe("a TypeScript policy pack runs through the language host's RunPlugin", () => {
    let pack: string;
    let prog: string;
    beforeAll(async () => {
      pack = await project("policy-pack", {
        "PulumiPolicy.yaml": "runtime: nodejs\ndescription: e2e policy pack\n",
        "package.json": JSON.stringify({ name: "e2e-policy", version: "0.0.1", main: "index.ts" }),
        "index.ts": POLICY_PACK,
      });
      prog = await project("greeting-program", {
        "Pulumi.yaml": "name: e2e-greeting\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
        "package.json": JSON.stringify({ name: "e2e-greeting", main: "index.js" }),
        "index.js": GREETING_PROGRAM,
      });
    });

    it("fails a violating program with the policy's name and message", async () => {
      const stack = await newStack(prog);
      await ok(prog, ["config", "set", "size", "12", "--stack", stack]);
      const run = await pulumi(prog, ["preview", "--stack", stack, "--policy-pack", pack]);
      expect(run.code, run.out).not.toBe(0);
      expect(run.out).toContain("e2e-greetings@v0.0.1");
      expect(run.out).toMatch(/\[mandatory\]\s+greeting-size-limit/);
      expect(run.out).toContain(`greeting 'greeting' of stack ${stack} has size 12, over the limit of 10`);
    });

    it("passes a compliant program", async () => {
      const stack = await newStack(prog);
      await ok(prog, ["config", "set", "size", "3", "--stack", stack]);
      const out = await ok(prog, ["preview", "--stack", stack, "--policy-pack", pack]);
      expect(out).toContain("e2e-greetings@v0.0.1");
      expect(out).not.toContain("greeting-size-limit");
      expect(out).toMatch(/\+ 2 to create/);
    });
  });

  describe("a provider plugin written in Node.js, versioned by the npm package that names it", () => {
    // node_modules: the repository's @pulumi packages, plus the provider's SDK package, whose
    // package.json names the plugin and its version as generated SDKs do
    const widgetProgram = async (name: string, pulumiYaml: string) => {
      const p = await project(
        name,
        {
          "Pulumi.yaml": pulumiYaml,
          "package.json": JSON.stringify({ name, main: "index.js" }),
          "index.js": WIDGET_PROGRAM,
          "node_modules/@example/toy/package.json": JSON.stringify({
            name: "@example/toy",
            version: "1.2.3",
            pulumi: { resource: true, name: "toy" },
          }),
        },
        false,
      );
      await symlink(join(repoRoot, "node_modules/@pulumi"), join(p, "node_modules/@pulumi"), "dir");
      return p;
    };
    const runtime = "runtime:\n  name: nodejs\n  options:\n    typescript: false\n";

    for (const [i, [how, pulumiYaml, env]] of (
      [
        [
          "a project plugin (PulumiPlugin.yaml, run through RunPlugin)",
          () =>
            `name: e2e-widgets-a\n${runtime}plugins:\n  providers:\n    - name: toy\n      path: ${toyPlugin}\n`,
          () => ({}),
        ],
        [
          "pulumi-resource-toy on PATH",
          () => `name: e2e-widgets-b\n${runtime}`,
          () => ({ PATH: [toyBin, toolchain.env.PATH].join(delimiter) }),
        ],
      ] as const
    ).entries()) {
      it(`as ${how}: up creates through it with default provider v1.2.3, no download; destroy deletes`, async () => {
        const prog = await widgetProgram(`widgets-${i}`, pulumiYaml());
        const stack = await newStack(prog, env());
        const up = await ok(prog, ["up", "--yes", "--stack", stack], env());
        expect(up).toMatch(/pluginVersion\s*:\s*"1\.2\.3"/);
        expect(JSON.parse(readFileSync(join(world, "widget-one.json"), "utf8"))).toEqual({
          name: "one",
          size: 2,
          pluginVersion: "1.2.3",
        });
        const state = await stackState(prog, stack);
        const providers = (state.resources ?? []).filter((r) => r.type === "pulumi:providers:toy");
        expect(providers.map((r) => r.urn.split("::").pop())).toEqual(["default_1_2_3"]);
        expect(providers[0]?.inputs?.version).toBe("1.2.3");
        // nothing was installed into PULUMI_HOME: the plugin was found where it is
        const plugins = join(backend.pulumiHome, "plugins");
        expect(existsSync(plugins) ? readdirSync(plugins).filter((p) => p.includes("toy")) : []).toEqual([]);

        await ok(prog, ["destroy", "--yes", "--stack", stack], env());
        expect(existsSync(join(world, "widget-one.json"))).toBe(false);
      });
    }
  });

  describe("TypeScript from the language host's code generation", () => {
    it("pulumi import --generate-code writes the imported resource as TypeScript", async () => {
      await writeFile(
        join(world, "widget-legacy.json"),
        JSON.stringify({ name: "legacy", size: 7, tags: ["red", "blue"] }),
      );
      const prog = await project("import-program", {
        "Pulumi.yaml": `name: e2e-import\nruntime: nodejs\nplugins:\n  providers:\n    - name: toy\n      path: ${toyPlugin}\n`,
        "package.json": JSON.stringify({ name: "e2e-import", main: "index.ts" }),
        "index.ts": "export {};\n",
      });
      const stack = await newStack(prog);
      const out = join(dir, "imported.ts");
      await ok(prog, [
        "import",
        "toy:index:Widget",
        "legacy-widget",
        "widget-legacy",
        "--stack",
        stack,
        "--yes",
        "--protect",
        "--out",
        out,
      ]);
      expectLines(readFileSync(out, "utf8"), [
        `import * as pulumi from "@pulumi/pulumi";`,
        `import * as toy from "@example/toy";`,
        ``,
        `const legacy_widget = new toy.Widget("legacy-widget", {`,
        `    name: "legacy",`,
        `    size: 7,`,
        `    tags: [`,
        `        "red",`,
        `        "blue",`,
        `    ],`,
        `}, {`,
        `    protect: true,`,
        `});`,
      ]);
      const state = await stackState(prog, stack);
      expect((state.resources ?? []).map((r) => r.type)).toContain("toy:index:Widget");
    });

    it("pulumi convert --from pcl --language typescript writes a TypeScript project", async () => {
      const src = await project(
        "pcl",
        {
          "main.pp": [
            `config prefix string {`,
            `  default = "w"`,
            `}`,
            `resource gadget "toy:index:Widget" {`,
            `  name = "\${prefix}-gadget"`,
            `  size = 5`,
            `}`,
            `output gadgetName {`,
            `  value = gadget.name`,
            `}`,
            ``,
          ].join("\n"),
        },
        false,
      );
      const target = join(dir, "converted");
      await ok(
        src,
        ["convert", "--from", "pcl", "--language", "typescript", "--generate-only", "--out", target],
        { PATH: [toyBin, toolchain.env.PATH].join(delimiter) },
      );
      expectLines(readFileSync(join(target, "index.ts"), "utf8"), [
        `import * as pulumi from "@pulumi/pulumi";`,
        `import * as toy from "@example/toy";`,
        ``,
        `const config = new pulumi.Config();`,
        `const prefix = config.get("prefix") || "w";`,
        `const gadget = new toy.Widget("gadget", {`,
        `    name: \`\${prefix}-gadget\`,`,
        `    size: 5,`,
        `});`,
        `export const gadgetName = gadget.name;`,
      ]);
      expect(readFileSync(join(target, "Pulumi.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
      const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8"));
      expect(pkg.dependencies).toMatchObject({ "@example/toy": "1.2.3" });
      expect(existsSync(join(target, "tsconfig.json"))).toBe(true);
    });
  });

  describe("Pulumi YAML programs run through pulumi-language-yaml", () => {
    it("a program of config and outputs: up, then destroy", async () => {
      const prog = await project(
        "yaml-outputs",
        {
          "Pulumi.yaml": [
            "name: e2e-yaml-outputs",
            "runtime: yaml",
            "config:",
            "  greeting:",
            "    type: string",
            "    default: hello",
            "outputs:",
            `  message: \${greeting} from yaml`,
            "",
          ].join("\n"),
        },
        false,
      );
      const stack = await newStack(prog);
      await ok(prog, ["config", "set", "greeting", "hi", "--stack", stack]);
      const up = await ok(prog, ["up", "--yes", "--stack", stack]);
      expect(up).toMatch(/message: "hi from yaml"/);
      expect(up).toMatch(/\+ 1 created/);
      const destroy = await ok(prog, ["destroy", "--yes", "--stack", stack]);
      expect(destroy).toMatch(/- 1 deleted/);
    });

    it("a program with a resource of a project plugin: up creates it, destroy deletes it", async () => {
      const prog = await project(
        "yaml-widget",
        {
          "Pulumi.yaml": [
            "name: e2e-yaml-widget",
            "runtime: yaml",
            "plugins:",
            "  providers:",
            "    - name: toy",
            `      path: ${toyPlugin}`,
            "resources:",
            "  thing:",
            "    type: toy:index:Widget",
            "    properties:",
            "      name: yaml",
            "      size: 4",
            "outputs:",
            `  pluginVersion: \${thing.pluginVersion}`,
            "",
          ].join("\n"),
        },
        false,
      );
      const stack = await newStack(prog);
      const up = await ok(prog, ["up", "--yes", "--stack", stack]);
      expect(up).toMatch(/pluginVersion: "1\.2\.3"/);
      expect(JSON.parse(readFileSync(join(world, "widget-yaml.json"), "utf8"))).toMatchObject({ size: 4 });
      await ok(prog, ["destroy", "--yes", "--stack", stack]);
      expect(existsSync(join(world, "widget-yaml.json"))).toBe(false);
    });
  });
});
