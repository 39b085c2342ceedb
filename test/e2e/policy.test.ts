// examples/policy-pack with the real CLI, offline: `pulumi preview --policy-pack` runs the
// TypeScript pack through our language host's RunPlugin. A program that breaks each rule once,
// with resources of both faces, fails and names every rule and resource; the same program keeping
// the rules passes.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, toolchainForTests } from "./helpers/toolchain";

const PACK = join(repoRoot, "examples/policy-pack");

describe("the policy pack of examples/policy-pack", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  let config: string;
  beforeAll(async () => {
    p = await openProject(toolchain, { workDir: "test/e2e/programs/policy" });
    config = join(p.backend.dir, "policy-config.json");
    await writeFile(
      config,
      JSON.stringify({
        "force-destroy-allow-list": { forceDestroyAllowed: ["/scratch-ok"] },
        "file-size-under-account-limit": { maxFileSizeBytes: 10 },
      }),
    );
  });
  afterAll(() => p?.dispose());

  it("fails a program that breaks each rule, naming the rule and the resource, for either face", async () => {
    await p.stack.setConfig("violate", { value: "true" });
    const failed = await p.stack.preview({ policyPacks: [PACK], policyPackConfigs: [config] }).then(
      () => "",
      (e: Error) => String(e),
    );
    expect(failed).not.toBe("");
    for (const [rule, violation] of [
      [
        "fetching-over-https",
        "AccountSettings settings: remote fetching from http://origin.example.com is not over https",
      ],
      [
        "no-public-listing-under-private-prefix",
        "FolderOptions private-options: /private/drafts allows public listing, but lies under /private",
      ],
      [
        "cdn-alias-default-profile",
        'Alias web: alias "web" is served through the CDN without a defaultProfile',
      ],
      [
        "force-destroy-allow-list",
        "Folder scratch: forceDestroy is set on /scratch, which forceDestroyAllowed does not list",
      ],
      [
        "file-size-under-account-limit",
        "File notes: /notes.txt would hold 19 bytes, more than the account's limit of 10",
      ],
      [
        "product-id-under-prefix",
        "File product-image: /products/shoe.jpg lies under /products, but no FolderMeta of the stack gives it a product id",
      ],
    ]) {
      expect(failed, rule).toContain(`[mandatory]  ${rule}`);
      expect(failed, rule).toContain(violation);
    }
    // judged on both faces: the dynamic resources' violations and the native ones'
    expect(failed).toMatch(/pulumi-nodejs:dynamic\/mediahost:FolderOptions|private-options/);
    expect(failed).toMatch(/mediahost:index:Alias|web/);
  });

  it("passes the same program keeping the rules", async () => {
    await p.stack.setConfig("violate", { value: "false" });
    const preview = await p.stack.preview({ policyPacks: [PACK], policyPackConfigs: [config] });
    expect(preview.changeSummary).toMatchObject({ create: 8 });
    expect(preview.stdout).not.toMatch(/\[mandatory\]/);
  });
});
