// The S3 object store of the e2e tests (scripts/objectstore.ts: versitygw, built once from its Go
// module by scripts/toolchain/objectstore.sh, started by the test on a free port of 127.0.0.1,
// stopped at the end), and DIY backends in it, one prefix each.
//
// Usage, like the toolchain (under CI=true an object store that cannot be had fails the file):
//   const store = await objectStoreForTests();
//   if (!store) return void it.skip("needs the object store");
//   const objects = await store.start(); const backend = await objects.backend("prefix"); ...
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BUCKET,
  provisionObjectStore,
  type RunningObjectStore as Store,
  startObjectStore,
} from "../../../scripts/objectstore";
import { TEST_PASSPHRASE, type TemporaryBackend } from "./toolchain";

export { BUCKET };

export interface ObjectStore {
  /** The versitygw binary. */
  binary: string;
  start(): Promise<RunningObjectStore>;
}

export interface RunningObjectStore extends Store {
  /** A DIY backend in the bucket under `prefix`, with a fresh PULUMI_HOME (one runner). */
  backend(prefix: string): Promise<ObjectStoreBackend>;
}

export interface ObjectStoreBackend extends TemporaryBackend {
  /** The prefix of this backend's objects in the bucket. */
  prefix: string;
  /** A fresh PULUMI_HOME on the same backend: the environment of another runner. */
  runner(): Promise<Record<string, string>>;
  /** The stored checkpoint of a stack, as the backend wrote it (secrets encrypted). */
  stackState(project: string, stack: string): Promise<unknown>;
}

let building: Promise<string> | undefined;

/**
 * For the top level of e2e test files: the object store, or undefined (with a warning saying why)
 * when it cannot be had locally. Under CI=true it rejects instead, failing the file.
 */
export async function objectStoreForTests(): Promise<ObjectStore | undefined> {
  try {
    building ??= provisionObjectStore();
    const binary = await building;
    return { binary, start: () => startWithBackends(binary) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI === "true")
      throw new Error(`e2e: the object store could not be provisioned (CI=true, not skipping):\n${reason}`);
    console.warn(`e2e: SKIPPING, the object store (versitygw) could not be provisioned:\n${reason}`);
    return undefined;
  }
}

async function startWithBackends(binary: string): Promise<RunningObjectStore> {
  const store = await startObjectStore(binary);
  const dirs: string[] = [];
  return {
    ...store,
    async backend(prefix) {
      const backendUrl = store.backendUrl(prefix);
      const base = await mkdtemp(join(tmpdir(), "mediahost-e2e-runner-"));
      dirs.push(base);
      const runner = async () => ({
        PULUMI_BACKEND_URL: backendUrl,
        PULUMI_HOME: await mkdtemp(join(base, "home-")),
        PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
        ...store.awsEnv(base),
      });
      const envVars = await runner();
      return {
        dir: base,
        backendUrl,
        pulumiHome: envVars.PULUMI_HOME,
        envVars,
        prefix,
        runner,
        async stackState(project, stack) {
          const body = await store.get(`${prefix}/.pulumi/stacks/${project}/${stack}.json`);
          if (body === undefined) throw new Error(`no state of ${project}/${stack} under ${prefix}`);
          return JSON.parse(body);
        },
        dispose: () => rm(base, { recursive: true, force: true }),
      };
    },
    async stop() {
      await store.stop();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}
