// A real S3 object store on this machine: versitygw (Versity's S3 gateway, Apache-2.0), built once
// from its Go module by scripts/toolchain/objectstore.sh into the toolchain cache, started on a free
// port of 127.0.0.1 over a POSIX directory, stopped by `stop()`. Pulumi's DIY backend reaches it with
// an s3:// URL, as it reaches AWS S3 or any S3-compatible store a team shares. Used by the e2e tests
// (test/e2e/helpers/objectstore.ts) and scripts/bench-fleet.ts.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { sign, signedUrl, unescapeXml } from "../tools/lib/sigv4";

// scripts/ from source (tests), dist/scripts/ when built
const repoRoot = resolve(__dirname, basename(dirname(__dirname)) === "dist" ? "../.." : "..");
const script = join(repoRoot, "scripts/toolchain/objectstore.sh");
const REGION = "us-east-1";
/** The state bucket every backend of a store lives in, under a prefix of its own. */
export const BUCKET = "mediahost-state";

/** Builds versitygw if it is not cached (scripts/toolchain/objectstore.sh); its path. */
export function provisionObjectStore(): Promise<string> {
  return new Promise<string>((ok, fail) =>
    execFile("bash", [script], { cwd: repoRoot, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      err ? fail(new Error(`${script} failed:\n${stderr.trim()}`)) : ok(stdout.trim()),
    ),
  );
}

export interface RunningObjectStore {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** The DIY backend URL of the objects under `prefix` in the bucket. */
  backendUrl(prefix: string): string;
  /** The environment a Pulumi CLI needs to reach the store (credentials; no shared AWS files, no IMDS). */
  awsEnv(dir: string): Record<string, string>;
  /** The keys under `prefix` in the bucket (a real ListObjectsV2). */
  list(prefix: string): Promise<string[]>;
  /** An object's body, or undefined when there is none. */
  get(key: string): Promise<string | undefined>;
  /** Writes an object. */
  put(key: string, body: string): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  await new Promise((ok) => server.close(ok));
  return port;
}

export async function startObjectStore(binary: string): Promise<RunningObjectStore> {
  const dir = await mkdtemp(join(tmpdir(), "mediahost-objectstore-"));
  const data = join(dir, "data");
  // the POSIX backend keeps object metadata in xattrs; a sidecar directory works on any disk
  // (tmpfs and overlay file systems of CI containers may refuse user xattrs)
  const sidecar = join(dir, "meta");
  // every subdirectory of the root is a bucket (versitygw's POSIX backend)
  await mkdir(join(data, BUCKET), { recursive: true });
  await mkdir(sidecar);
  const access = "mediahost-test";
  const secret = randomBytes(12).toString("hex");
  let child: ChildProcess | undefined;
  let endpoint = "";
  let log = "";
  for (let attempt = 0; attempt < 3 && !endpoint; attempt++) {
    const port = await freePort();
    child = spawn(
      binary,
      [
        "--port",
        `127.0.0.1:${port}`,
        "--access",
        access,
        "--secret",
        secret,
        "--quiet",
        "posix",
        "--sidecar",
        sidecar,
        data,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout?.on("data", (d) => {
      log += d;
    });
    child.stderr?.on("data", (d) => {
      log += d;
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && child.exitCode === null; i++) {
      const up = await fetch(`${url}/`).then(
        () => true,
        () => false,
      );
      if (up) {
        endpoint = url;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!endpoint) child.kill("SIGKILL");
  }
  if (!endpoint || !child) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`versitygw did not start:\n${log.trim()}`);
  }
  const gateway = child;
  const s3 = (method: string, path: string, query: Record<string, string> = {}, body?: string) =>
    fetch(signedUrl(endpoint, path, query), {
      method,
      headers: sign(method, endpoint, path, query, { access, secret, region: REGION }, "UNSIGNED-PAYLOAD"),
      ...(body === undefined ? {} : { body }),
    });
  const running: RunningObjectStore = {
    endpoint,
    backendUrl: (prefix) =>
      `s3://${BUCKET}/${prefix}?endpoint=${endpoint}&s3ForcePathStyle=true&region=${REGION}`,
    awsEnv: (dir) => ({
      AWS_ACCESS_KEY_ID: access,
      AWS_SECRET_ACCESS_KEY: secret,
      AWS_REGION: REGION,
      AWS_CONFIG_FILE: join(dir, "aws-config"),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, "aws-credentials"),
      AWS_EC2_METADATA_DISABLED: "true",
    }),
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const query: Record<string, string> = { "list-type": "2", prefix };
        if (token) query["continuation-token"] = token;
        const res = await s3("GET", `/${BUCKET}`, query);
        const xml = await res.text();
        if (!res.ok) throw new Error(`list ${prefix}: ${res.status} ${xml}`);
        for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unescapeXml(m[1] ?? ""));
        token = /<NextContinuationToken>([^<]*)</.exec(xml)?.[1];
      } while (token);
      return keys;
    },
    async get(key) {
      const res = await s3("GET", `/${BUCKET}/${key}`);
      if (res.status === 404) return undefined;
      const body = await res.text();
      if (!res.ok) throw new Error(`get ${key}: ${res.status} ${body}`);
      return body;
    },
    async put(key, body) {
      const res = await s3("PUT", `/${BUCKET}/${key}`, {}, body);
      if (!res.ok) throw new Error(`put ${key}: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (gateway.exitCode === null) {
        const exited = new Promise((ok) => gateway.once("exit", ok));
        gateway.kill("SIGTERM");
        await Promise.race([exited, new Promise((ok) => setTimeout(ok, 3000))]);
        if (gateway.exitCode === null) gateway.kill("SIGKILL");
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
  return running;
}
