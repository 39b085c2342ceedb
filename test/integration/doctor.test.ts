// mediahost-doctor against the emulator: the documented answers, then each variant it can observe
// (read-only ones without the write probe, write ones with it). It names the variant it faces,
// exits 0, never prints a secret, leaves nothing behind (also when interrupted), and exits 1
// naming the fact when an answer matches no variant (a proxy that rewrites the account answer).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator, VARIANT_NAMES, type VariantName } from "../../emulator/index";
import { MediahostClient } from "../../provider/client";
import { type DoctorReport, RECOGNISED, UNOBSERVED } from "../../tools/lib/doctor-facts";
import { runDoctor } from "../../tools/lib/doctor-probe";
import { Secrets } from "../../tools/lib/doctor-report";

const DOCTOR = join(__dirname, "../../dist/tools/doctor.js");
const CLIENT_SECRET = "demo-secret";
const PASSWORD = "origin-pass-7f3a9c";

/** The variants only the write probe shows. */
const WRITE_VARIANTS: VariantName[] = [
  "mkdir-exists-409",
  "mkdir-parents",
  "upload-no-mkdir",
  "content-type-declared",
  "delete-final",
  "writes-204",
  "options-merge",
  "delete-missing-ok",
  "poi-set-conflict",
  "poi-delete-missing-ok",
];
const READ_VARIANTS = RECOGNISED.filter((v) => !WRITE_VARIANTS.includes(v));

function run(
  args: string[],
  baseUrl: string,
  onSpawn?: (child: ChildProcess) => void,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [DOCTOR, "--base-url", baseUrl, "--client-id", "demo-client", ...args],
      {
        env: { ...process.env, MEDIAHOST_CLIENT_SECRET: stdin === undefined ? CLIENT_SECRET : "" },
        stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    onSpawn?.(child);
  });
}

describe("mediahost-doctor", () => {
  let emulator: RunningEmulator;
  const doctor = (writeProbe?: string, baseUrl = emulator.url): Promise<DoctorReport> =>
    runDoctor(
      {
        credentials: { baseUrl, clientId: "demo-client", clientSecret: CLIENT_SECRET },
        writeProbe,
        say: () => {},
      },
      new Secrets(),
    );
  const tree = () => emulator.control.state("demo").tree;

  beforeAll(async () => {
    emulator = await startEmulator({ log: () => {} });
    const client = new MediahostClient({
      baseUrl: emulator.url,
      clientId: "demo-client",
      clientSecret: CLIENT_SECRET,
    });
    await client.ops.updateAccount({
      body: {
        fetching: {
          enabled: true,
          type: "http",
          http: {
            url: "https://origin.example.com/media",
            auth: { enabled: true, username: "u", password: PASSWORD },
          },
        },
      },
    });
    await client.ops.addCustomDomain({ body: { alias: "demo", domain: "media.example.com" } });
    await client.ops.mkdir({ query: { dirname: "/photos" } });
    await client.ops.setFolderOptions({ query: { filename: "/photos" }, body: { allowListing: true } });
  }, 60_000);
  afterAll(() => emulator?.stop());
  beforeEach(() => {
    emulator.control.setVariants([]);
  });

  it("names only variants the emulator has", () => {
    for (const v of [...RECOGNISED, ...Object.keys(UNOBSERVED)]) expect(VARIANT_NAMES).toContain(v);
    // every variant is either told apart by the doctor or listed as not observable by it
    expect([...RECOGNISED, ...Object.keys(UNOBSERVED)].sort()).toEqual([...VARIANT_NAMES].sort());
  });

  it("finds every documented answer against the emulator's defaults, with and without the probe", async () => {
    for (const probe of [undefined, "/mediahost-doctor"]) {
      const before = tree();
      const report = await doctor(probe);
      expect(report.ok).toBe(true);
      expect(report.account).toBe("demo");
      const named = report.facts.filter((f) => f.handled !== "n/a" && f.variant);
      expect(named).toEqual([]);
      expect(report.facts.find((f) => f.id === "stat")?.fact).toBe("stat /photos");
      expect(report.facts.find((f) => f.id === "custom-domain")?.answered).toBe("shown on demo");
      // a real account's system folders, named with what the provider does with them
      expect(report.facts.find((f) => f.id === "system-folders")?.answered).toMatch(
        /^\/\.Trash, \/\.processed, \/\.well-known, \/Profiles, \/Shared: the account's own; the provider never declares/,
      );
      expect(report.facts.find((f) => f.id === "token-scope")?.answered).toBe(
        "an array holding one space-separated string, as the live service answers",
      );
      if (probe)
        expect(
          report.facts.filter((f) => f.handled === "n/a").every((f) => f.id.startsWith("unobserved-")),
        ).toBe(true);
      expect(tree()).toEqual(before);
    }
  });

  it.each(READ_VARIANTS)("recognises %s read-only", async (variant) => {
    emulator.control.setVariants([variant]);
    const report = await doctor();
    expect(report.ok, JSON.stringify(report.facts.filter((f) => f.handled === "NO"))).toBe(true);
    expect(report.facts.filter((f) => f.handled === "yes" && f.variant === variant).length).toBeGreaterThan(
      0,
    );
  });

  it.each(WRITE_VARIANTS)(
    "recognises %s with the write probe, and leaves nothing behind",
    async (variant) => {
      emulator.control.setVariants([variant]);
      const before = tree();
      const report = await doctor("/mediahost-doctor");
      expect(report.ok, JSON.stringify(report.facts.filter((f) => f.handled === "NO"))).toBe(true);
      expect(report.facts.filter((f) => f.handled === "yes" && f.variant === variant).length).toBeGreaterThan(
        0,
      );
      expect(tree()).toEqual(before);
    },
  );

  it("repeats writes a gateway answered 502, and still leaves nothing behind", async () => {
    emulator.control.setVariants(["gateway-502", "writes-204"]);
    const before = tree();
    const report = await doctor("/mediahost-doctor");
    expect(report.ok, JSON.stringify(report.facts.filter((f) => f.handled === "NO"))).toBe(true);
    const named = report.facts.filter((f) => f.handled === "yes").map((f) => f.variant);
    expect(named).toEqual(expect.arrayContaining(["gateway-502", "writes-204"]));
    expect(tree()).toEqual(before);
  });

  it("exits 0 and prints no secret, as a table and as JSON, whether secrets come back masked or in clear", async () => {
    for (const variants of [[], ["secrets-masked"], ["secrets-clear"]] as VariantName[][]) {
      emulator.control.setVariants(variants);
      for (const format of [[], ["--json"]]) {
        const { code, stdout, stderr } = await run([...format], emulator.url);
        expect(code, stderr).toBe(0);
        for (const secret of [PASSWORD, CLIENT_SECRET]) expect(`${stdout}${stderr}`).not.toContain(secret);
        expect(`${stdout}${stderr}`).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no token
        if (!format.length) {
          if (variants[0]) expect(stdout).toContain(`yes: ${variants[0]}`);
          continue;
        }
        const report = JSON.parse(stdout) as DoctorReport;
        expect(report.ok).toBe(true);
        const row = report.facts.find((f) => f.id === "fetching-secrets");
        if (variants[0] === "secrets-clear")
          expect(row?.answered).toBe(`fetching.http.auth.password in clear (${PASSWORD.length} characters)`);
      }
    }
  });

  it("takes the secret from stdin with --client-secret-stdin, and refuses a wrong one with exit 1", async () => {
    const good = await run(["--client-secret-stdin"], emulator.url, undefined, `${CLIENT_SECRET}\n`);
    expect(good.code, good.stderr).toBe(0);
    const wrong = await run(["--client-secret-stdin"], emulator.url, undefined, "not-the-secret\n");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/POST \/v2\/token: the service gave no token: 401/);
    expect(wrong.stderr).not.toContain("not-the-secret");
  });

  it("refuses a write probe of / or of a folder that exists, with exit 2", async () => {
    const before = tree();
    for (const prefix of ["/", "relative", "/photos"]) {
      const { code, stderr } = await run(["--write-probe", prefix], emulator.url);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/--write-probe/);
    }
    expect((await run(["--no-such-flag"], emulator.url)).code).toBe(2);
    expect(tree()).toEqual(before);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "removes what the probe made when sent %s right after its first mkdir, and exits %i",
    async (signal, exit) => {
      const before = tree();
      let sent = false;
      let stop: (() => void) | undefined;
      const { code, stderr } = await run(
        ["--write-probe", `/mediahost-doctor-${signal.toLowerCase()}`],
        emulator.url,
        (child) => {
          stop = emulator.control.watchRequests((entry) => {
            if (!sent && entry.operation === "mkdir") {
              sent = true;
              child.kill(signal);
            }
          });
        },
      );
      stop?.();
      expect(sent).toBe(true);
      expect(code, stderr).toBe(exit);
      expect(stderr).toMatch(/removed the \d+ paths the probe made/);
      expect(stderr).toContain(`interrupted by ${signal}`);
      expect(tree()).toEqual(before);
    },
  );

  describe("behind a proxy that rewrites the service's answers", () => {
    let proxy: Server;
    let proxyUrl: string;
    /** How the proxy rewrites a JSON answer (by its path and status); the account without `alias` unless a test says otherwise. */
    let rewrite: (path: string, status: number, json: Record<string, unknown>) => unknown;
    beforeEach(() => {
      rewrite = (path, status, json) => {
        if (path === "/v2/account" && status === 200) delete json.alias;
        return json;
      };
    });
    beforeAll(async () => {
      const target = new URL(emulator.url);
      proxy = createServer((req, res) => {
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on("data", (c) => chunks.push(c));
            answer.on("end", () => {
              let body = Buffer.concat(chunks);
              if (/json/.test(String(answer.headers["content-type"])) && body.length > 0) {
                const json = JSON.parse(body.toString("utf8"));
                const path = (req.url ?? "").split("?")[0] as string;
                body = Buffer.from(JSON.stringify(rewrite(path, answer.statusCode ?? 0, json)));
              }
              const headers = { ...answer.headers, "content-length": String(body.length) };
              delete headers["transfer-encoding"];
              res.writeHead(answer.statusCode ?? 502, headers).end(body);
            });
          },
        );
        req.pipe(upstream);
      });
      await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

    it("exits 1 naming the fact no variant plays", async () => {
      const report = await doctor(undefined, proxyUrl);
      expect(report.ok).toBe(false);
      const bad = report.facts.filter((f) => f.handled === "NO");
      expect(bad.map((f) => f.id)).toEqual(["account"]);
      expect(bad[0]?.answered).toMatch(/alias/);
      const { code, stdout } = await run([], proxyUrl);
      expect(code).toBe(1);
      expect(stdout).toMatch(/1 fact the provider does not handle: account answer/);
    });

    it.each([
      ["minify", (a: Record<string, Record<string, unknown>>) => delete a.minify],
      ["fetching", (a: Record<string, Record<string, unknown>>) => delete a.fetching],
      ["aliases", (a: Record<string, Record<string, unknown>>) => delete a.aliases],
      ["minify.enabled", (a: Record<string, Record<string, unknown>>) => delete a.minify?.enabled],
      ["fetching.enabled", (a: Record<string, Record<string, unknown>>) => delete a.fetching?.enabled],
    ])(
      "an account answer without %s, which the provider reads, is a NO row naming it",
      async (field, drop) => {
        rewrite = (path, status, json) => {
          if (path === "/v2/account" && status === 200) drop(json as Record<string, Record<string, unknown>>);
          return json;
        };
        const report = await doctor(undefined, proxyUrl);
        expect(report.ok).toBe(false);
        const bad = report.facts.filter((f) => f.handled === "NO");
        expect(bad.map((f) => f.id)).toEqual(["account"]);
        expect(bad[0]?.answered).toContain(`${field}: Invalid input`);
      },
    );

    it.each([
      ["{error, message}", { error: "Bad Request", message: '"filename" is required' }],
      ["{message}", { message: '"filename" is required' }],
    ])("reads an error body %s as the provider reads it: no false alarm", async (_, errorBody) => {
      rewrite = (path, status, json) => {
        if (path === "/v2/account" && status === 200) return json;
        return status >= 400 && path === "/v2/files/stat" && !("name" in json) ? errorBody : json;
      };
      const report = await doctor(undefined, proxyUrl);
      expect(report.facts.filter((f) => f.handled === "NO")).toEqual([]);
      const row = report.facts.find((f) => f.id === "api-error-body");
      expect(row?.handled).toBe("yes");
      expect(row?.answered).toContain('"filename" is required');
    });

    it("reports each way an answer departs from the documented shape as a handled row of its own", async () => {
      rewrite = (path, status, json) => {
        if (path === "/v2/account" && status === 200) {
          const aliases = json.aliases as Record<string, Record<string, unknown>>;
          for (const entry of Object.values(aliases)) delete entry.cdn;
        }
        if (path === "/v2/files/readdir" && status === 200) {
          const contents = json.contents as Record<string, unknown>[];
          contents.push(
            {
              filename: "clip.mp4",
              size: "2048",
              isDirectory: false,
              meta: { width: null, height: null, duration: null },
            },
            { filename: "still.mp4", size: 10, isDirectory: false, mtime: null, meta: { duration: null } },
          );
        }
        return json;
      };
      const report = await doctor(undefined, proxyUrl);
      expect(report.facts.filter((f) => f.handled === "NO")).toEqual([]);
      const rows = report.facts.filter((f) => f.id.startsWith("readdir:")).map((f) => [f.id, f.answered]);
      // one row per field and way, not per entry, and none hidden in "and N more"
      expect(rows).toEqual(
        expect.arrayContaining([
          ["readdir:contents.[].meta.duration", expect.stringMatching(/^null \(2 times\): handled/)],
          ["readdir:contents.[].size", expect.stringMatching(/^a string: handled/)],
          ["readdir:contents.[].mtime", expect.stringMatching(/handled/)],
        ]),
      );
      expect(report.facts.map((f) => f.answered).join("\n")).not.toMatch(/and \d+ more/);
    });
  });
});
