// A CI job killed mid-`up` (SIGKILL of the CLI's process group) on Pulumi's DIY backend in a real
// S3 object store (versitygw), then the next job on a fresh runner (its own checkout and
// PULUMI_HOME: no journal of the first runner's): `mediahost-recover`, then `up`, converges with
// nothing made twice and nothing left over. Both faces: the dynamic provider and the native plugin.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUCKET,
  type ObjectStoreBackend,
  objectStoreForTests,
  type RunningObjectStore,
} from "./helpers/objectstore";
import { killWithPlugins, onApplied } from "./helpers/processes";
import { openProject, type Project, plaintextLocations } from "./helpers/project";
import { committedStackConfig, freshRunner, type Runner } from "./helpers/runner";
import { toolchainForTests } from "./helpers/toolchain";

interface SavedState {
  checkpoint: {
    latest: {
      resources?: { urn: string; type: string; id?: string }[];
      pending_operations?: unknown[];
    };
  };
}

interface Face {
  name: string;
  program: string;
  /** Paths of the repository the program reads besides its own directory. */
  extra: string[];
  config: Record<string, { value: string; secret?: boolean }>;
  secrets: string[];
  /** The kill lands when the service has applied this many folder creations. */
  killAtMkdir: number;
  /** How many of the package's resources the converged state holds. */
  resources: number;
  /** The folders the program declares, as the account must hold them under these roots. */
  roots: string[];
  folders: string[];
}

const FACES: Face[] = [
  {
    name: "dynamic",
    program: "test/e2e/programs/runs",
    extra: [],
    config: {
      password: { value: "fetch-pw-os-5a1f", secret: true },
      s3Secret: { value: "s3-secret-os-7d2c", secret: true },
      folders: { value: "12" },
      aliases: { value: "4" },
    },
    secrets: ["fetch-pw-os-5a1f", "s3-secret-os-7d2c"],
    killAtMkdir: 5,
    resources: 1 + 1 + 1 + 4 + 1 + 12 + 1, // settings, web, domain, aliases, team, folders, keep
    roots: ["/runs/"],
    folders: [...Array.from({ length: 12 }, (_, i) => `/runs/f${i}`), "/runs/keep"],
  },
  {
    name: "native",
    program: "examples/native",
    extra: ["examples/quickstart/assets"],
    config: { originPassword: { value: "origin-pw-os-2b8e", secret: true } },
    secrets: ["origin-pw-os-2b8e"],
    killAtMkdir: 2,
    resources: 13,
    roots: ["/products", "/assets"],
    folders: ["/assets", "/products", "/products/bags", "/products/shoes"],
  },
];

for (const face of FACES) {
  describe(`${face.name} face: an up killed midway on an S3 object store, the next job on a fresh runner`, async () => {
    const toolchain = await toolchainForTests();
    if (!toolchain) return void it.skip("needs the Pulumi toolchain");
    const store = await objectStoreForTests();
    if (!store) return void it.skip("needs the object store (scripts/toolchain/objectstore.sh)");

    let objects: RunningObjectStore;
    let p: Project;
    let backend: ObjectStoreBackend;
    const runners: Runner[] = [];
    const seen: string[] = [];
    const prefix = `recover-${face.name}-${randomBytes(3).toString("hex")}`;
    // every job checks out at the same path, one after the other (the runners of a CI service do)
    const checkout = join(tmpdir(), `mediahost-ci-${prefix}`);
    /** A fresh runner: a checkout holding the committed stack config, a new PULUMI_HOME. */
    const runner = async () => {
      const committed = committedStackConfig(p.stack);
      const r = await freshRunner(
        toolchain,
        face.program,
        await backend.runner(),
        committed,
        face.extra,
        checkout,
      );
      runners.push(r);
      return r;
    };

    beforeAll(async () => {
      objects = await store.start();
      backend = await objects.backend(prefix);
      p = await openProject(toolchain, {
        workDir: face.program,
        backend,
        emulator: { latencyMs: 30, latencyJitterMs: 20, mkdirExists: "409" },
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
        config: face.config,
      });
    });
    afterAll(async () => {
      for (const r of runners) await r.dispose();
      await p?.dispose();
      await objects?.stop();
    });

    it("mediahost-recover names the backend and takes in what the killed run made; up converges", async () => {
      // the first job: killed the moment the service has applied the n-th folder creation
      const first = await runner();
      let child: ChildProcess | undefined;
      let mkdirs = 0;
      const stopWatching = onApplied(
        (m) => m.type === "mkdir" && ++mkdirs === face.killAtMkdir,
        () => child?.pid && killWithPlugins(child.pid),
      );
      let killed: Awaited<ReturnType<Runner["pulumi"]>>;
      try {
        killed = await first.pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name], (c) => {
          child = c;
        });
      } finally {
        stopWatching();
      }
      seen.push(killed.out);
      expect(killed.signal).toBe("SIGKILL");
      const interrupted = (await p.stateFile()) as SavedState;
      const pending = interrupted.checkpoint.latest.pending_operations ?? [];
      console.log(
        `${face.name}: killed run left ${(interrupted.checkpoint.latest.resources ?? []).length} resources, ${pending.length} pending operations`,
      );
      expect(pending.length).toBeGreaterThan(0);
      const lockDir = `${prefix}/.pulumi/locks/`;
      expect((await objects.list(lockDir)).length, "the killed run's lock").toBe(1);

      // the next job, on a fresh runner: the one documented command, then up
      const next = await runner();
      const recovered = await next.tool("recover", ["--stack", p.stack.name, "--cwd", next.dir]);
      seen.push(recovered.out);
      console.log(recovered.out.trim());
      expect(recovered.code, recovered.out).toBe(0);
      const where = `s3://${BUCKET}/${prefix}?endpoint=${objects.endpoint}`;
      expect(recovered.out).toContain(`released the lock an interrupted update left on ${where}`);
      expect(recovered.out).toMatch(/its process is gone/);
      expect(recovered.out).toContain(`dropped the pending creates from the state on ${where}`);
      expect(recovered.out).toMatch(
        face.name === "native"
          ? /imported (Folder|Alias|AccountSettings|File)/
          : /noted Folder \/runs\/f\d+ in account "demo"/,
      );
      expect(await objects.list(lockDir)).toEqual([]);
      expect(((await p.stateFile()) as SavedState).checkpoint.latest.pending_operations ?? []).toEqual([]);

      const mark = p.emulator.control.requests(0).next;
      const up = await next.pulumi(["up", "--yes", "--skip-preview", "--stack", p.stack.name]);
      seen.push(up.out);
      expect(up.code, up.out).toBe(0);
      const takenOver = p.emulator.control
        .requests(mark)
        .requests.filter((r) => r.operation === "mkdir" && r.status === 409).length;
      console.log(`${face.name}: the next up met ${takenOver} folder(s) already made and took them over`);

      // nothing twice, nothing left over: the state and the account agree
      const saved = (await p.stateFile()) as SavedState;
      const resources = saved.checkpoint.latest.resources ?? [];
      const urns = resources.map((r) => r.urn);
      expect(new Set(urns).size).toBe(urns.length);
      const ours = resources.filter(
        (r) => /mediahost[:/]/.test(r.type) && !r.type.startsWith("pulumi:providers:"),
      );
      expect(ours).toHaveLength(face.resources);
      expect(saved.checkpoint.latest.pending_operations ?? []).toEqual([]);
      const folders = p.emulator.control
        .state()
        .tree.filter((e) => e.isDirectory && face.roots.some((root) => e.path.startsWith(root)))
        .map((e) => e.path);
      expect(folders.sort()).toEqual([...face.folders].sort());
      if (face.name === "dynamic")
        expect(p.emulator.control.state().subAccounts.filter((a) => a === "team-runs")).toHaveLength(1);

      const quiet = await (await runner()).pulumi([
        "preview",
        "--refresh",
        "--expect-no-changes",
        "--stack",
        p.stack.name,
      ]);
      expect(quiet.code, quiet.out).toBe(0);
      expect(await objects.list(lockDir)).toEqual([]);
      for (const secret of face.secrets) {
        expect(plaintextLocations(saved, secret), secret).toEqual([]);
        expect(seen.join("\n")).not.toContain(secret);
      }
    });

    it("destroy from a fresh runner removes what it made", async () => {
      const r = await runner();
      const destroyed = await r.pulumi(["destroy", "--yes", "--skip-preview", "--stack", p.stack.name]);
      expect(destroyed.code, destroyed.out).toBe(0);
      const left = p.emulator.control.state().tree.filter((e) => face.folders.includes(e.path));
      expect(left).toEqual([]);
    });
  });
}
