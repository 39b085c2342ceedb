// The objects of a DIY backend, for what the CLI does not show: its stack's locks (listed, read, and
// one of them deleted). A `file://` backend is a directory; an `s3://` one is reached over HTTP
// with AWS Signature Version 4 and the credentials of the environment (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), at the URL's `endpoint` (path style with
// `s3ForcePathStyle=true`) or AWS's own. Other backends are not read: undefined.
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileBackendDir } from "./file-backend";
import { sign, signedUrl, unescapeXml } from "./sigv4";

export interface DiyStore {
  /** The keys under `prefix` (relative to the backend's root). */
  list(prefix: string): Promise<string[]>;
  /** An object's text, or undefined when there is none. */
  read(key: string): Promise<string | undefined>;
  remove(key: string): Promise<void>;
}

/** The store of a backend URL; undefined unless a directory, or an S3 bucket the environment's keys reach. */
export function diyStore(
  url: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): DiyStore | undefined {
  const dir = fileBackendDir(url);
  if (dir) return directory(dir);
  if (url?.startsWith("s3://")) return bucket(new URL(url), env);
  return undefined;
}

function directory(root: string): DiyStore {
  return {
    async list(prefix) {
      const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => `${prefix}${e.name}`);
    },
    read: (key) => readFile(join(root, key), "utf8").catch(() => undefined),
    // gocloud's fileblob keeps an object's attributes beside it, in `<key>.attrs`
    remove: async (key) => {
      await rm(join(root, key), { force: true });
      await rm(join(root, `${key}.attrs`), { force: true });
    },
  };
}

function bucket(url: URL, env: NodeJS.ProcessEnv): DiyStore | undefined {
  const access = env.AWS_ACCESS_KEY_ID;
  const secret = env.AWS_SECRET_ACCESS_KEY;
  if (!access || !secret) return undefined;
  const name = url.hostname;
  const root = url.pathname.replace(/^\/+|\/+$/g, "");
  const region = url.searchParams.get("region") ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1";
  const endpoint = url.searchParams.get("endpoint");
  const pathStyle =
    url.searchParams.get("s3ForcePathStyle") === "true" || url.searchParams.get("use_path_style") === "true";
  const base = endpoint
    ? new URL(/^https?:\/\//.test(endpoint) ? endpoint : `https://${endpoint}`)
    : new URL(`https://s3.${region}.amazonaws.com`);
  const origin = pathStyle || endpoint ? base.origin : `${base.protocol}//${name}.${base.host}`;
  const bucketPath = pathStyle || endpoint ? `/${name}` : "";
  const full = (key: string) => (root ? `${root}/${key}` : key);
  const call = async (method: string, path: string, query: Record<string, string> = {}) => {
    const headers = sign(method, origin, path, query, {
      access,
      secret,
      token: env.AWS_SESSION_TOKEN,
      region,
    });
    return fetch(signedUrl(origin, path, query), { method, headers });
  };
  return {
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const query: Record<string, string> = { "list-type": "2", prefix: full(prefix) };
        if (token) query["continuation-token"] = token;
        const res = await call("GET", bucketPath || "/", query);
        const xml = await res.text();
        if (!res.ok) throw new Error(`listing ${full(prefix)} in bucket ${name}: HTTP ${res.status}`);
        for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
          const key = unescapeXml(m[1] ?? "");
          keys.push(root ? key.slice(root.length + 1) : key);
        }
        token = /<NextContinuationToken>([^<]*)</.exec(xml)?.[1];
      } while (token);
      return keys;
    },
    async read(key) {
      const res = await call("GET", `${bucketPath}/${full(key)}`);
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`reading ${full(key)} in bucket ${name}: HTTP ${res.status}`);
      return res.text();
    },
    async remove(key) {
      const res = await call("DELETE", `${bucketPath}/${full(key)}`);
      if (!res.ok && res.status !== 404)
        throw new Error(`deleting ${full(key)} in bucket ${name}: HTTP ${res.status}`);
    },
  };
}
