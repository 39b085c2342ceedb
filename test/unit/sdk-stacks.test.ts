// What the SDK's classes cost a program per resource, under Pulumi's mocks: @pulumi/pulumi wraps
// each property's promises in "debuggable" promises that capture a stack trace (formatted by the
// runtime's source-map support) only to print it if the promise leaks. Our classes leave those
// stacks unformatted while they register; the program's own errors still name where it declared
// the resource, and the runtime's formatter is back afterwards. Runs against dist/.
import { createRequire } from "node:module";
import type * as Pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../provider/resources";
import type * as sdk from "../../sdk";

const load = createRequire(__filename);
const mediahost = load("../../dist/sdk") as typeof sdk;
const pulumi = load("@pulumi/pulumi") as typeof Pulumi;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    true,
    "organization",
  );
});

type Debuggable = Promise<unknown> & { _debugCtx: string; _debugStackTrace: string };
const runtimeState = load("@pulumi/pulumi/runtime/state") as {
  getStore(): { leakCandidates: Set<Debuggable> };
};

/** The stacks of the pending debuggable promises whose context names `resource`, by context. */
function capturedStacks(resource: string): Map<string, string> {
  const stacks = new Map<string, string>();
  for (const p of runtimeState.getStore().leakCandidates)
    if (String(p._debugCtx).includes(resource)) stacks.set(String(p._debugCtx), p._debugStackTrace);
  return stacks;
}

describe.each([
  ["dynamic", mediahost.Folder],
  ["native", mediahost.native.Folder],
])("the %s face's classes", (face, Folder) => {
  it("register with no frames formatted for the debuggable promises, and restore the formatter", () => {
    const before = Error.prepareStackTrace;
    new Folder(`stacks-${face}`, { path: `/stacks-${face}` });
    const ours = capturedStacks(`stacks-${face}`);
    // the URN's and id's, and four for each property (path, accountAlias, cdnUrl, ...)
    expect(ours.size).toBeGreaterThanOrEqual(2 + 4 * 3);
    expect(
      [...ours.keys()].some((ctx) => ctx.startsWith(`transferProperty(`) && ctx.includes(", path,")),
    ).toBe(true);
    for (const stack of ours.values()) expect(stack).not.toMatch(/\n +at /);
    expect(Error.prepareStackTrace).toBe(before);
    // a resource of Pulumi's own classes, made right after, captures as before
    class Plain extends pulumi.CustomResource {}
    new Plain("test:index:Plain", `plain-${face}`, { x: 1 });
    const plain = capturedStacks(`plain-${face}`);
    expect(plain.size).toBeGreaterThan(0);
    for (const stack of plain.values()) expect(stack).toMatch(/\n +at /);
  });

  /** Registers what `declare` makes, and returns its source position and stack trace's URIs by name. */
  async function registered(declare: () => Promise<unknown>) {
    type Request = {
      getName(): string;
      getSourceposition(): { getUri(): string; getLine(): number } | undefined;
      getStacktrace(): { getFramesList(): { getPc(): { getUri(): string } | undefined }[] } | undefined;
    };
    const monitor = pulumi.runtime.getMonitor() as unknown as {
      registerResource(req: Request, cb: unknown): unknown;
    };
    const register = monitor.registerResource;
    const seen: Record<string, { position?: string; frames: string[] }> = {};
    monitor.registerResource = function (this: unknown, req, cb) {
      const frames = req.getStacktrace()?.getFramesList() ?? [];
      const position = req.getSourceposition();
      seen[req.getName()] = {
        position: position && `${position.getUri()}#${position.getLine()}`,
        frames: frames.map((frame) => frame.getPc()?.getUri() ?? ""),
      };
      return register.call(this, req, cb);
    };
    try {
      await declare();
    } finally {
      monitor.registerResource = register;
    }
    return seen;
  }

  // declared by a plain .js file, whose frames parse as positions (the test file's do not)
  const fixture = load("./fixtures/declare-resource.js") as {
    (c: unknown, name: string, args: object): Pulumi.Resource;
    inApply(p: typeof Pulumi, c: unknown, name: string, args: object): Pulumi.Output<string>;
  };
  const settled = (o: Pulumi.Output<unknown>) => new Promise<void>((done) => o.apply(() => done()));

  it("register with the program's line as the source position, and no frame of the SDK in the stack trace", async () => {
    const seen = await registered(() =>
      settled(fixture(Folder, `positioned-${face}`, { path: `/positioned-${face}` }).urn),
    );
    const { position, frames } = seen[`positioned-${face}`] ?? { frames: [] };
    // the line of fixtures/declare-resource.js that says `new Class(...)`
    expect(position).toMatch(/\/test\/unit\/fixtures\/declare-resource\.js#4$/);
    expect(frames[0]).toMatch(/\/fixtures\/declare-resource\.js$/);
    expect(frames.some((uri) => uri.includes("/sdk/"))).toBe(false);
    // the frames below the program's line stay
    expect(frames.filter((uri) => uri !== "").length).toBeGreaterThan(1);
  });

  it("keep the program's frames in the stack trace, and leave out Pulumi's runner and Node.js's internals below them", async () => {
    class Plain extends pulumi.CustomResource {
      constructor(name: string, args: object) {
        super("test:index:Plain", name, args);
      }
    }
    const seen = await registered(() =>
      Promise.all([
        settled(fixture.inApply(pulumi, Folder, `runner-${face}`, { path: `/runner-${face}` })),
        settled(fixture.inApply(pulumi, Plain, `runner-plain-${face}`, { x: 1 })),
      ]),
    );
    const ours = seen[`runner-${face}`]?.frames ?? [];
    const plain = seen[`runner-plain-${face}`]?.frames ?? [];
    // the program's line: `new Class(...)`, inside the apply's callback
    expect(seen[`runner-${face}`]?.position).toMatch(/\/fixtures\/declare-resource\.js#8$/);
    expect(ours[0]).toMatch(/\/fixtures\/declare-resource\.js$/);
    // the control, declared the same way by Pulumi's own class: the runner's frames below it
    const pulumiFrame = (uri: string) => uri.includes("/node_modules/@pulumi/");
    expect(plain.some(pulumiFrame)).toBe(true);
    expect(ours.some(pulumiFrame)).toBe(false);
    expect(ours.length).toBeLessThan(plain.length);
  });

  it("throw the program's errors with the stack of where the resource was declared", () => {
    const before = Error.prepareStackTrace;
    let thrown: unknown;
    try {
      new Folder("", { path: "/unnamed" });
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).toContain("Missing resource name");
    expect((thrown as Error).stack).toContain("sdk-stacks.test");
    expect(Error.prepareStackTrace).toBe(before);
  });
});

describe.each([
  ["dynamic", mediahost],
  ["native", mediahost.native],
])("the %s face's account kinds", (face, classes) => {
  it("reach the engine before the other kinds a program declares with them, whose dependencies stay", async () => {
    type Request = { getName(): string; getDependenciesList(): string[] };
    const monitor = pulumi.runtime.getMonitor() as unknown as {
      registerResource(req: Request, cb: unknown): unknown;
    };
    const register = monitor.registerResource;
    const order: string[] = [];
    const dependencies: Record<string, string[]> = {};
    monitor.registerResource = function (this: unknown, req, cb) {
      order.push(req.getName());
      dependencies[req.getName()] = req.getDependenciesList();
      return register.call(this, req, cb);
    };
    try {
      // declared as a program may: folders first, then the account's changes (a Folder has fewer
      // properties than an Alias, so Pulumi's serialization alone would send it first)
      const folder = new classes.Folder(`order-folder-${face}`, { path: `/order-${face}` });
      const meta = new classes.FolderMeta(
        `order-meta-${face}`,
        { path: `/order-${face}`, title: "t" },
        { dependsOn: [folder] },
      );
      const settings = new classes.AccountSettings(`order-settings-${face}`, { minify: { enabled: true } });
      const alias = new classes.Alias(`order-alias-${face}`, {
        name: `order${face}`,
        prefix: "/o",
        cdn: true,
      });
      const urns = await Promise.all(
        [folder, meta, settings, alias].map((r) => new Promise<string>((done) => r.urn.apply(done))),
      );
      expect(order.slice(0, 2).sort()).toEqual([`order-alias-${face}`, `order-settings-${face}`]);
      expect(order.slice(2)).toEqual([`order-folder-${face}`, `order-meta-${face}`]);
      expect(dependencies[`order-meta-${face}`]).toEqual([urns[0]]);
      expect(dependencies[`order-folder-${face}`]).toEqual([]);
    } finally {
      monitor.registerResource = register;
    }
  });
});

it("gathers the same kinds into account updates as the provider's account writer", () => {
  const { ACCOUNT_WRITER_KINDS } = load("../../dist/sdk/resource") as {
    ACCOUNT_WRITER_KINDS: ReadonlySet<string>;
  };
  const viaWriter = Object.entries(kinds)
    .filter(([, kind]) => (kind as { viaAccountWriter?: boolean }).viaAccountWriter)
    .map(([name]) => name);
  expect(viaWriter.length).toBeGreaterThan(0);
  expect([...ACCOUNT_WRITER_KINDS].sort()).toEqual(viaWriter.sort());
});
