// What the SDK's File class hands the provider, under Pulumi's mocks (no engine, no provider
// process): a `source` given beside `content` or `fetchUrl` reaches check as two sources (refused
// there at preview, naming the rule) rather than one overwriting the other; a FileAsset becomes
// a path and its hash; the inputs check then judges are exactly these. Runs against dist/.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as Pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import type * as sdk from "../../sdk";

// the built SDK as programs load it (its provider shim is a CommonJS module of dist/), and the
// one @pulumi/pulumi it uses: the mocks must be set on that copy
const load = createRequire(__filename);
const { File } = load("../../dist/sdk") as typeof sdk;
const pulumi = load("@pulumi/pulumi") as typeof Pulumi;

const created: Record<string, Record<string, unknown>> = {};
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mediahost-sdk-file-"));
  await writeFile(join(dir, "logo.png"), "png bytes");
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        created[args.name] = args.inputs;
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    true,
    "organization",
  );
  provider.configure({
    config: {
      get: (key: string) =>
        ({
          "mediahost:baseUrl": "http://127.0.0.1:9",
          "mediahost:clientId": "id",
          "mediahost:clientSecret": "s",
        })[key],
    },
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The inputs a resource was registered with, once Pulumi has resolved them. */
async function inputsOf(resource: Pulumi.Resource, name: string): Promise<Record<string, unknown>> {
  await new Promise<void>((done) => pulumi.output(resource.urn).apply(() => done()));
  return created[name] as Record<string, unknown>;
}

describe("the SDK's File", () => {
  it("passes content beside a source on as two sources, which check refuses naming the rule", async () => {
    const file = new File("two", {
      path: "/two.png",
      content: "text",
      source: new pulumi.asset.FileAsset(join(dir, "logo.png")),
    });
    const inputs = await inputsOf(file, "two");
    expect(inputs).toMatchObject({ content: "text", sourcePath: join(dir, "logo.png") });
    const { failures } = await provider.check(undefined, {}, inputs);
    expect(failures).toEqual([
      { property: "content", reason: "set exactly one of content, source (sourcePath), fetchUrl" },
    ]);
  });

  it("turns a FileAsset into its path and SHA-256, which check accepts", async () => {
    const file = new File("one", {
      path: "/one.png",
      source: new pulumi.asset.FileAsset(join(dir, "logo.png")),
    });
    const inputs = await inputsOf(file, "one");
    expect(inputs.sourcePath).toBe(join(dir, "logo.png"));
    expect(inputs.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(inputs.content).toBeUndefined();
    expect((await provider.check(undefined, {}, inputs)).failures).toEqual([]);
  });
});
