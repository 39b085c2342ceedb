// The emulator under abuse: malformed requests of every kind to every operation get a 4xx and
// never crash it; 50 concurrent clients for 60 seconds leave it up with flat memory; with
// `--data`, `kill -9` after acknowledged writes loses nothing. Load and kill -9 run against the
// built command line in a child process (spawnEmulator).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OperationSpec, operations } from "mediahost-contract";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediahostClient } from "../../../provider/client";
import { type RunningEmulator, startEmulator } from "../../index";
import { spawnEmulator } from "../helpers/spawn";

const CREDENTIALS = { clientId: "demo-client", clientSecret: "demo-secret" };

async function tokenFor(url: string): Promise<string> {
  const res = await request(`${url}/v2/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CREDENTIALS),
  });
  return ((await res.body.json()) as { token: string }).token;
}

describe("malformed requests get a 4xx, never a crash", () => {
  let emu: RunningEmulator;
  let token: string;
  beforeAll(async () => {
    emu = await startEmulator({ log: () => {} });
    token = await tokenFor(emu.url);
  });
  afterAll(() => emu.stop());

  interface Probe {
    what: string;
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }

  /** Every malformed request we can think of, for every operation of the table. */
  function probes(): Probe[] {
    const list: Probe[] = [];
    const auth = () => ({ authorization: `Bearer ${token}` });
    for (const [name, spec] of Object.entries(operations) as [string, OperationSpec][]) {
      const base = { method: spec.method, path: spec.path };
      const qs = (q: Record<string, string>) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : "");
      if (spec.auth !== false) {
        list.push({ what: `${name} without a token`, ...base });
        list.push({
          what: `${name} with a forged token`,
          ...base,
          headers: { authorization: "Bearer forged.token.x" },
        });
        list.push({
          what: `${name} with a malformed authorization`,
          ...base,
          headers: { authorization: "Basic ???" },
        });
      }
      if (spec.query) {
        const shape = (spec.query as unknown as { shape?: Record<string, unknown> }).shape ?? {};
        const keys = Object.keys(shape);
        const candidates: [string, Record<string, string>][] = [
          ["no query", {}],
          ["an unknown query key", { ...Object.fromEntries(keys.map((k) => [k, "/x"])), zzz: "1" }],
          ...keys.map((k): [string, Record<string, string>] => [`empty ${k}`, { [k]: "" }]),
          ...keys.map((k): [string, Record<string, string>] => [
            `over-long ${k}`,
            { [k]: `/${"x".repeat(3000)}` },
          ]),
          ...keys.map((k): [string, Record<string, string>] => [
            `${k} without a leading slash`,
            { [k]: "no-slash" },
          ]),
        ];
        for (const [what, q] of candidates) {
          if (spec.query.safeParse(q).success) continue; // only what the table itself rejects
          list.push({ what: `${name} with ${what}`, ...base, path: spec.path + qs(q), headers: auth() });
        }
        list.push({
          what: `${name} with bad percent-encoding`,
          ...base,
          path: `${spec.path}?x=%E0%A4%A`,
          headers: auth(),
        });
      }
      if (spec.body) {
        const json = { ...auth(), "content-type": "application/json" };
        list.push({
          what: `${name} with a body that is not JSON`,
          ...base,
          headers: json,
          body: "{not json",
        });
        for (const [what, body] of [
          ["an array body", "[]"],
          ["a string body", '"text"'],
          ["a number body", "42"],
          ["a null body", "null"],
          ["an unknown body key", JSON.stringify({ zzz: { deeply: [1, 2, { x: null }] } })],
        ] as const) {
          if (spec.body.safeParse(JSON.parse(body)).success) continue;
          list.push({ what: `${name} with ${what}`, ...base, headers: json, body });
        }
        list.push({
          what: `${name} with a body of the wrong content type`,
          ...base,
          headers: { ...auth(), "content-type": "text/plain" },
          body: "hello",
        });
        list.push({
          what: `${name} with a body over the size limit`,
          ...base,
          headers: json,
          body: JSON.stringify({ big: "x".repeat(12 * 1024 * 1024) }),
        });
      }
      const other = spec.method === "GET" ? "PATCH" : "PUT";
      list.push({ what: `${name} with method ${other}`, method: other, path: spec.path, headers: auth() });
    }
    list.push({ what: "an unknown route", method: "GET", path: "/v2/no/such/thing", headers: auth() });
    list.push({ what: "a path traversal", method: "GET", path: "/v2/../../etc/passwd", headers: auth() });
    list.push({
      what: "a token request with wrong credentials",
      method: "POST",
      path: "/v2/token",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: "demo-client", clientSecret: "nope" }),
    });
    return list;
  }

  it("answers every malformed request of every operation with 4xx, and keeps serving", async () => {
    const all = probes();
    expect(all.length).toBeGreaterThan(300);
    const wrong: string[] = [];
    const kinds = new Set<number>();
    for (let i = 0; i < all.length; i += 16) {
      await Promise.all(
        all.slice(i, i + 16).map(async (probe) => {
          const res = await request(`${emu.url}${probe.path}`, {
            method: probe.method as "GET",
            headers: probe.headers,
            body: probe.body,
          }).catch((e: Error) => ({ statusCode: 0, body: { text: async () => e.message } }));
          const text = await res.body.text();
          kinds.add(res.statusCode);
          if (res.statusCode < 400 || res.statusCode >= 500)
            wrong.push(`${probe.what}: ${res.statusCode} ${text.slice(0, 120)}`);
        }),
      );
    }
    expect(wrong).toEqual([]);
    expect([...kinds].sort()).toEqual(expect.arrayContaining([400, 401, 404]));
    // still up and still right
    const client = new MediahostClient({ baseUrl: emu.url, ...CREDENTIALS });
    expect((await client.ops.getAccount()).alias).toBeTruthy();
  });
});

describe("under load and kill -9 (the built CLI in a child process)", () => {
  it("50 concurrent clients for 60 seconds: stays up, memory flat", async () => {
    const emu = await spawnEmulator(["--port", "0"]);
    try {
      const pid = emu.process.pid!;
      const rss = async () => {
        const status = await readFile(`/proc/${pid}/status`, "utf8");
        return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024; // MB
      };
      const samples: { t: number; mb: number }[] = [];
      const started = Date.now();
      const until = started + 60_000;
      let requests = 0;
      let failures = 0;
      const statuses = new Map<number, number>();
      const sampler = setInterval(() => {
        rss().then((mb) => samples.push({ t: Date.now() - started, mb }));
      }, 2_000);
      // lift the rate limits, or most of the load would be cheap 429s
      for (const counter of ["rest:global", "rest:post:files:delete"]) {
        const res = await request(`${emu.url}/_emulator/limits`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ counter, limit: 100_000_000 }),
        });
        expect(res.statusCode).toBe(200);
        await res.body.dump();
      }
      const token = await tokenFor(emu.url);
      const worker = async (n: number) => {
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
        for (let i = 0; Date.now() < until; i++) {
          const path = `/load${n}/d${i % 20}`;
          const calls: [string, string, string?][] = [
            ["POST", `/v2/files/mkdir?dirname=${encodeURIComponent(`/load${n}`)}`],
            ["POST", `/v2/files/mkdir?dirname=${encodeURIComponent(path)}`],
            ["GET", `/v2/files/stat?filename=${encodeURIComponent(path)}`],
            ["GET", "/v2/account"],
            [
              "POST",
              `/v2/files/meta?filename=${encodeURIComponent(path)}`,
              JSON.stringify({ title: `t${i}` }),
            ],
            ["POST", `/v2/files/delete?filename=${encodeURIComponent(path)}`],
            ["GET", "/v2/nope"],
          ];
          const [method, url, body] = calls[i % calls.length]!;
          try {
            const res = await request(`${emu.url}${url}`, { method: method as "GET", headers, body });
            await res.body.dump();
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500) failures++;
          } catch {
            failures++;
          }
          requests++;
        }
      };
      await Promise.all(Array.from({ length: 50 }, (_, n) => worker(n)));
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;
      const mid = samples.filter((s) => s.t >= 15_000 && s.t < 30_000).map((s) => s.mb);
      const end = samples.filter((s) => s.t >= 45_000).map((s) => s.mb);
      const max = (xs: number[]) => Math.max(...xs);
      console.log(
        `load: ${requests} requests in ${seconds.toFixed(1)} s (${Math.round(requests / seconds)}/s) by 50 clients, ` +
          `${failures} failures, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
          `RSS MB ${samples.map((s) => Math.round(s.mb)).join(" ")}`,
      );
      expect(emu.process.exitCode).toBeNull();
      expect(failures).toBe(0);
      expect(requests).toBeGreaterThan(10_000);
      expect(statuses.get(429) ?? 0).toBe(0);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(requests / 3);
      // flat: the last quarter uses no more than the second quarter's peak plus a margin
      expect(mid.length).toBeGreaterThan(2);
      expect(end.length).toBeGreaterThan(2);
      expect(max(end)).toBeLessThan(max(mid) * 1.25 + 20);
      const res = await request(`${emu.url}/v2/account`, {
        headers: { authorization: `Bearer ${await tokenFor(emu.url)}` },
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    } finally {
      await emu.stop();
    }
  }, 120_000);

  it("with --data, kill -9 right after acknowledged writes loses none of them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mediahost-kill9-"));
    try {
      const first = await spawnEmulator(["--data", dir]);
      const api = new MediahostClient({ baseUrl: first.url, ...CREDENTIALS, maxAttempts: 1 });
      const paths = Array.from({ length: 30 }, (_, i) => `/kept/f${i}`);
      await api.ops.mkdir({ query: { dirname: "/kept" } });
      await Promise.all(paths.map((p) => api.ops.mkdir({ query: { dirname: p } })));
      await api.ops.setMeta({ query: { filename: "/kept/f0" }, body: { title: "kept title" } });
      await api.ops.addTags({ query: { filename: "/kept/f1" }, body: { tags: ["a", "b"] } });
      await api.ops.createSubAccount({ body: { alias: "kept-sub" } });
      await api.ops.updateAccount({
        body: { minify: { enabled: true }, aliases: { kept: { prefix: "/kept", cdn: true } } },
      });
      await api.ops.deleteFile({ query: { filename: "/kept/f29" } });
      // acknowledged: now kill -9, without any chance to flush
      first.process.kill("SIGKILL");
      await new Promise((r) => first.process.once("exit", r));

      const second = await spawnEmulator(["--data", dir]);
      try {
        const state = (await (await request(`${second.url}/_emulator/state`)).body.json()) as {
          tree: { path: string }[];
          meta: Record<string, { title?: string; tags?: string[] }>;
          subAccounts: string[];
          account: { minify: { enabled: boolean }; aliases: Record<string, { prefix?: string }> };
        };
        const tree = state.tree.map((e) => e.path);
        expect(tree).toEqual(expect.arrayContaining(paths.slice(0, 29)));
        expect(tree).not.toContain("/kept/f29");
        expect(state.meta["/kept/f0"]?.title).toBe("kept title");
        expect(state.meta["/kept/f1"]?.tags).toEqual(expect.arrayContaining(["a", "b"]));
        expect(state.subAccounts).toContain("kept-sub");
        expect(state.account.minify.enabled).toBe(true);
        expect(state.account.aliases.kept?.prefix).toBe("/kept");
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
