// Deleting a large file uses bounded memory: before removing a File whose size or mtime no longer
// match the state, the provider checks the content still is what the stack wrote, by hashing
// the download as it streams (provider/client/transfer.ts remoteDigest), never holding the file.
// The emulator runs as a process of its own (with --data, so its files are on disk); the delete
// runs in a child process whose peak RSS is measured.
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpawnedEmulator, spawnEmulator } from "../../emulator/test/helpers/spawn";
import { MediahostClient, TokenCache } from "../../provider/client";
import { digest, upload } from "../../provider/client/transfer";

const repo = resolve(__dirname, "../..");
const SIZE = 1024 * 1024 * 1024; // 1 GiB: more than the child could comfortably hold twice
const PEAK_RSS_LIMIT = 256 * 1024 * 1024;

/** A child Node process that deletes the File through the provider and reports its peak RSS. */
const CHILD = `
const provider = require(${JSON.stringify(join(repo, "dist/provider"))});
const [url, props] = [process.argv[2], JSON.parse(process.argv[3])];
provider.configure({ config: { get: (k) => ({ "mediahost:baseUrl": url, "mediahost:clientId": "demo-client", "mediahost:clientSecret": "demo-secret" })[k] } });
provider.remove("File", props.path, props).then(
  () => process.stdout.write(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })),
  (err) => { process.stderr.write(String(err)); process.exit(1); },
);`;

describe("deleting a large file", () => {
  let dir: string;
  let emulator: SpawnedEmulator;
  let client: MediahostClient;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mediahost-large-"));
    emulator = await spawnEmulator(["--data", join(dir, "data")]);
    client = new MediahostClient({
      baseUrl: emulator.url,
      clientId: "demo-client",
      clientSecret: "demo-secret",
      tokenCache: new TokenCache(),
    });
  }, 60_000);
  afterAll(async () => {
    await emulator?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("hashes the download as it streams: the file goes, and the process stays small", async () => {
    const local = join(dir, "video.bin");
    const out = createWriteStream(local);
    const chunk = Buffer.alloc(16 * 1024 * 1024, 7);
    for (let written = 0; written < SIZE; written += chunk.length) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
    const { sha256, size } = await digest({ file: local, size: SIZE });
    await upload(client, "/video.bin", { file: local, size }, { fingerprint: `large|${sha256}` });
    const stat = await client.ops.stat({ query: { filename: "/video.bin" } });
    expect(stat.size).toBe(SIZE);

    // the state's mtime is not the service's (the file was touched): the delete must check the content
    const props = {
      __mediahostKind: "File",
      path: "/video.bin",
      sourcePath: local,
      sha256,
      size,
      mtime: "2000-01-01T00:00:00.000Z",
      accountAlias: "demo",
    };
    const script = join(dir, "child.js");
    await writeFile(script, CHILD);
    const started = Date.now();
    const report = await new Promise<string>((ok, fail) =>
      execFile(
        process.execPath,
        [script, emulator.url, JSON.stringify(props)],
        { cwd: dir, maxBuffer: 1 << 20 },
        (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : ok(stdout)),
      ),
    );
    const { maxRssBytes } = JSON.parse(report) as { maxRssBytes: number };
    console.log(
      `delete of a ${SIZE / 2 ** 20} MiB file whose mtime changed: ${Date.now() - started} ms, ` +
        `peak RSS of the provider process ${(maxRssBytes / 2 ** 20).toFixed(0)} MiB`,
    );
    await expect(client.ops.stat({ query: { filename: "/video.bin" } })).rejects.toThrow(/No such file/);
    expect(maxRssBytes).toBeLessThan(PEAK_RSS_LIMIT);
  }, 300_000);
});
