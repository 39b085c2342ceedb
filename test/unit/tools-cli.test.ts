// How mediahost-drift finds the pulumi CLI, and how it reports the CLI's errors.
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliError, locatePulumi } from "../../tools/lib/pulumi-cli";

describe("locatePulumi", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tools-cli-"));
    for (const sub of ["on-path", "home/bin", "flag/bin"]) {
      await mkdir(join(dir, sub), { recursive: true });
      await writeFile(join(dir, sub, "pulumi"), "#!/bin/sh\n");
      await chmod(join(dir, sub, "pulumi"), 0o755);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("takes --pulumi first, as the binary or a directory holding it or bin/pulumi", () => {
    const env = { PATH: join(dir, "on-path") };
    for (const flag of [join(dir, "flag/bin/pulumi"), join(dir, "flag/bin"), join(dir, "flag")])
      expect(locatePulumi(flag, env)).toEqual({ binary: join(dir, "flag/bin/pulumi"), source: "--pulumi" });
    expect(() => locatePulumi(join(dir, "nowhere"), env)).toThrow(
      /--pulumi .*nowhere: no pulumi binary there/,
    );
  });

  it("then PATH, then $PULUMI_HOME/bin", () => {
    expect(locatePulumi(undefined, { PATH: `/nonexistent:${join(dir, "on-path")}` })).toEqual({
      binary: join(dir, "on-path/pulumi"),
      source: "PATH",
    });
    expect(locatePulumi(undefined, { PATH: "/nonexistent", PULUMI_HOME: join(dir, "home") })).toEqual({
      binary: join(dir, "home/bin/pulumi"),
      source: "PULUMI_HOME",
    });
  });
});

describe("cliError", () => {
  it("keeps what the CLI said after 'error:', once each", () => {
    const message =
      "code: 255\n stdout: \n stderr: error: no stack named 'x' found\n err?: Error: Command failed\nerror: no stack named 'x' found\n";
    expect(cliError(new Error(message))).toBe("no stack named 'x' found");
    expect(cliError(new Error("plain failure"))).toBe("plain failure");
  });
});
