// Whatever a program marks secret stays secret, at any depth: a fetching URL with credentials in it
// and an S3 access key id, marked secret by the program, never appear in plaintext in the state or
// the CLI's output, while the write-only credentials travel apart as always.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const URL_WITH_CREDENTIALS = "https://fetcher:url-pw-9c41@origin.example.com/media";
const ACCESS_KEY_ID = "AKID-SECRET-3e7b";
const S3_SECRET = "s3-secret-5d10";

describe("secrets a program marks, at any depth", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "test/e2e/programs/secret-fetching",
      config: {
        originUrl: { value: URL_WITH_CREDENTIALS, secret: true },
        accessKeyId: { value: ACCESS_KEY_ID, secret: true },
        s3Secret: { value: S3_SECRET, secret: true },
      },
    });
  });
  afterAll(() => p?.dispose());

  it("stay secret in the state and the output of up, a diff and a refresh preview", async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    await p.stack.preview({ refresh: true, expectNoChanges: true, diff: true });
    const state = await p.stateFile();
    for (const secret of [URL_WITH_CREDENTIALS, "url-pw-9c41", ACCESS_KEY_ID, S3_SECRET]) {
      expect(plaintextLocations(state, secret), secret).toEqual([]);
      expect(p.output.join(""), secret).not.toContain(secret);
    }
    // the service got them
    const fetching = p.emulator.control.state().account.fetching;
    expect(fetching.http?.url).toBe(URL_WITH_CREDENTIALS);
    expect(fetching.s3?.accessKeyId).toBe(ACCESS_KEY_ID);
  });
});
