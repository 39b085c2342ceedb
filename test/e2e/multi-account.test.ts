// examples/multi-account with the real CLI: two accounts under `mediahost:accounts` (set with
// `--path`, secrets with `--secret`, as the example's header tells users), the same layout in
// both, a sub-account in one; drift in one account named, put back; destroy leaves both accounts
// as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorState } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { expectRefusedCredentialLines, stackTree, withoutTrash } from "./helpers/expect";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const EU = { alias: "eu", clientId: "eu-client", clientSecret: "eu-secret-7c1d" };
const US = { alias: "us", clientId: "us-client", clientSecret: "us-secret-93af" };

describe("examples/multi-account with the real CLI", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  let before: Record<string, EmulatorState>;
  const state = (alias: string) => p.emulator.control.state(alias);
  beforeAll(async () => {
    p = await openProject(toolchain, { workDir: "examples/multi-account", emulator: { accounts: [EU, US] } });
    // as the example's header says: a shared baseUrl, credentials only per account
    await p.stack.removeAllConfig(["mediahost:clientId", "mediahost:clientSecret"]);
    for (const a of [EU, US]) {
      await p.stack.setAllConfig(
        {
          [`mediahost:accounts.${a.alias}.clientId`]: { value: a.clientId },
          [`mediahost:accounts.${a.alias}.clientSecret`]: { value: a.clientSecret, secret: true },
        },
        true,
      );
    }
    before = { eu: state("eu"), us: state("us"), demo: state("demo") };
  });
  afterAll(() => p?.dispose());

  it("stamps the same layout into both accounts and a sub-account into the first", async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    // per account: 3 folders, 3 meta, 2 options, in a component; plus the sub-account
    const creates = up.summary.resourceChanges?.create ?? 0;
    expect(creates).toBe(1 + 2 * (1 + 8) + 1);
    const urls = up.outputs.urls?.value as Record<string, Record<string, string>>;
    expect(urls.eu?.shoes).toBe("https://eu.cdn.mediahost.test/catalog/shoes");
    expect(urls.us?.bags).toMatch(/^https:\/\/us\..*\/catalog\/bags$/);
    for (const alias of ["eu", "us"]) {
      const s = state(alias);
      expect(
        stackTree(s.tree)
          .map((e) => e.path)
          .sort(),
        alias,
      ).toEqual(["/catalog", "/catalog/bags", "/catalog/shoes"]);
      expect(s.options["/catalog/shoes"]?.scanSpins, alias).toBe(true);
      expect(s.meta["/catalog/shoes"]?.title, alias).toBe("Shoes");
      expect(s.meta["/catalog/bags"]?.tags, alias).toEqual(["catalog"]);
    }
    expect(state("eu").subAccounts).toEqual(["eu-agency"]);
    expect(state("us").subAccounts).toEqual([]);
    // the top-level account of the stack config was not touched
    expect(withoutTrash(state("demo").tree)).toEqual(withoutTrash(before.demo?.tree ?? []));
  });

  it("previews a refresh with no changes", async () => {
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 20 });
  });

  it("names drift in one account, and up --refresh puts it back there only", async () => {
    const us = new MediahostClient({ baseUrl: p.emulator.url, ...US });
    await us.ops.setTitle({ query: { filename: "/catalog/bags" }, body: { title: "Handbags" } });
    await us.ops.setFolderOptions({ query: { filename: "/catalog/shoes" }, body: { scanSpins: false } });
    const drift = await p.stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary).toMatchObject({ update: 2, same: 18 });
    expect(drift.stdout).toMatch(/mediahost:FolderMeta[^\n]*us-bags-meta[\s\S]*title[^\n]*Handbags/);
    expect(drift.stdout).toMatch(/mediahost:FolderOptions[^\n]*us-shoes-options[\s\S]*scanSpins/);
    expect(drift.stdout).not.toMatch(/eu-(bags|shoes)-(meta|options)/);

    const fixed = await p.stack.up({ refresh: true });
    expect(fixed.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(state("us").meta["/catalog/bags"]?.title).toBe("Bags");
    expect(state("us").options["/catalog/shoes"]?.scanSpins).toBe(true);
    // (the next test's quiet refresh preview shows nothing is left over)
  });

  it("keeps both accounts' client secrets out of the state and the CLI output", async () => {
    const saved = await p.stateFile();
    expect(JSON.stringify(saved)).toContain("eu-agency");
    for (const secret of [EU.clientSecret, US.clientSecret, "demo-secret"]) {
      expect(plaintextLocations(saved, secret), secret).toEqual([]);
      expect(p.output.join(""), secret).not.toContain(secret);
    }
  });

  it("moves one account to another address of the same service without replacing anything", async () => {
    await p.stack.setConfig(
      "mediahost:accounts.us.baseUrl",
      { value: p.emulator.url.replace("127.0.0.1", "localhost") },
      true,
    );
    p.mark();
    const preview = await p.stack.preview({ refresh: true, expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 20 });
    const calls = p.calls();
    expect(calls.token).toBe(2); // one token per account, whatever the number of resources
    expect(calls.getMeta).toBeGreaterThanOrEqual(6); // both accounts were read
  });

  it("after both client secrets are rotated, up --refresh fails with one line per resource naming the account and the way past it, which works", async () => {
    const rotated = { eu: `${EU.clientSecret}-rotated`, us: `${US.clientSecret}-rotated` };
    for (const a of [EU, US]) {
      await p.emulator.control.rotateClient(a.clientId, rotated[a.alias as "eu" | "us"]);
      await p.stack.setConfig(
        `mediahost:accounts.${a.alias}.clientSecret`,
        { value: rotated[a.alias as "eu" | "us"], secret: true },
        true,
      );
    }
    // the refresh runs with the provider configuration recorded at the last up: the old secrets
    const failed = await p.stack.up({ refresh: true }).then(
      () => "",
      (e: Error) => String(e),
    );
    if (failed) {
      expectRefusedCredentialLines(failed, "(eu|us)");
      for (const secret of Object.values(rotated)) expect(failed).not.toContain(secret);
    }
    // the way the message names: an up without --refresh records the current credentials
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const again = await p.stack.up({ refresh: true });
    expect(again.summary.result).toBe("succeeded");
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroys everything it made in both accounts", async () => {
    const destroyed = await p.stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    for (const alias of ["eu", "us", "demo"] as const) {
      const now = state(alias);
      expect(withoutTrash(now.tree), alias).toEqual(withoutTrash(before[alias]?.tree ?? []));
      expect(now.meta, alias).toEqual(before[alias]?.meta);
      expect(now.options, alias).toEqual(before[alias]?.options);
      expect(now.subAccounts, alias).toEqual(before[alias]?.subAccounts);
    }
  });
});
