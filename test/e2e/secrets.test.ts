// Whatever a program marks secret stays secret, at any depth: a fetching URL with credentials in it
// and an S3 access key id, marked secret by the program, never appear in plaintext in the state or
// the CLI's output, while the write-only credentials travel apart as always.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const URL_WITH_CREDENTIALS = "https://fetcher:url-pw-9c41@origin.example.com/media";
const ACCESS_KEY_ID = "AKID-SECRET-3e7b";
const S3_SECRET = "s3-secret-5d10";
/** The basic-auth password of a fetched File, given by the program in plain text. */
const FILE_ORIGIN_PASSWORD = "file-origin-pw-41c7";

describe("secrets a program marks, at any depth", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  let p: Project;
  let origin: Server;
  beforeAll(async () => {
    // the origin of the fetched File, behind basic authentication
    origin = createServer((req, res) => {
      const basic = `Basic ${Buffer.from(`fetcher:${FILE_ORIGIN_PASSWORD}`).toString("base64")}`;
      if (req.headers.authorization !== basic) return void res.writeHead(401).end();
      res.writeHead(200, { "content-type": "text/plain" }).end("logo");
    });
    await new Promise<void>((done) => origin.listen(0, "127.0.0.1", done));
    const fileOrigin = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/logo.txt`;
    p = await openProject(toolchain, {
      workDir: "test/e2e/programs/secret-fetching",
      config: {
        originUrl: { value: URL_WITH_CREDENTIALS, secret: true },
        accessKeyId: { value: ACCESS_KEY_ID, secret: true },
        s3Secret: { value: S3_SECRET, secret: true },
        fileOrigin: { value: fileOrigin },
      },
    });
  });
  afterAll(async () => {
    await p?.dispose();
    await new Promise<void>((done) => origin.close(() => done()));
  });

  it("stay secret in the state and the output of up, a diff and a refresh preview", async () => {
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    await p.stack.preview({ refresh: true, expectNoChanges: true, diff: true });
    const secrets = [URL_WITH_CREDENTIALS, "url-pw-9c41", ACCESS_KEY_ID, S3_SECRET, FILE_ORIGIN_PASSWORD];
    for (const secret of secrets) {
      expect(plaintextLocations(await p.stateFile(), secret), secret).toEqual([]);
      expect(p.output.join(""), secret).not.toContain(secret);
    }
    // and in the state a refresh writes
    await p.stack.refresh();
    for (const secret of secrets) expect(plaintextLocations(await p.stateFile(), secret), secret).toEqual([]);
    expect(
      Buffer.from(await p.api.ops.download({ query: { filename: "/fetched/logo.txt" } })).toString(),
    ).toBe("logo");
    // the service got them
    const fetching = p.emulator.control.state(undefined, { secrets: true }).account.fetching;
    expect(fetching.http?.url).toBe(URL_WITH_CREDENTIALS);
    expect(fetching.s3?.accessKeyId).toBe(ACCESS_KEY_ID);
  });
});
