// Runs a Pulumi program of this repository (an example, or any directory) with the real CLI
// through the Automation API, against an emulator on a free port, on a temporary file backend.
// Every stack gets a unique name, so two test files may run the same example at once; the
// per-stack config file the CLI writes beside the program is removed on dispose.
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type ConfigMap, LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator/index";
import { MediahostClient } from "../../../provider/client";
import {
  createTemporaryBackend,
  pulumiCommand,
  repoRoot,
  type TemporaryBackend,
  type Toolchain,
} from "./toolchain";

export const DEMO_CLIENT = { clientId: "demo-client", clientSecret: "demo-secret" };

export interface ProjectOptions {
  /** Program directory, e.g. examples/quickstart (relative to the repository root), or an absolute path. */
  workDir: string;
  /** Options of the in-process emulator started for this project, or one to share with other projects (not stopped on dispose). */
  emulator?: EmulatorOptions | RunningEmulator;
  /** Stack config besides the mediahost credentials, which are set for the primary account. */
  config?: ConfigMap;
  /** Extra environment of the CLI and its plugins. */
  env?: Record<string, string>;
  /** The state backend (disposed with the project); default: a fresh file backend. */
  backend?: TemporaryBackend & { stackState?(project: string, stack: string): Promise<unknown> };
}

export interface Project {
  stack: Stack;
  emulator: RunningEmulator;
  backend: TemporaryBackend;
  /** Everything the CLI printed, across all operations, for secret checks and messages. */
  output: string[];
  /** A client of the primary account, for out-of-band changes. */
  api: MediahostClient;
  /** Calls by operation name the emulator saw since the last `mark()`. */
  calls(): Record<string, number>;
  mark(): void;
  /** The stack's state as stored in the backend: its file on disk, or the backend's `stackState` object. */
  stateFile(): Promise<unknown>;
  dispose(): Promise<void>;
}

/** The JSON paths at which `secret` appears in plaintext (empty when nowhere). */
export function plaintextLocations(value: unknown, secret: string, path = "$"): string[] {
  if (typeof value === "string") return value.includes(secret) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => plaintextLocations(v, secret, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => plaintextLocations(v, secret, `${path}.${k}`));
  }
  return [];
}

export async function openProject(toolchain: Toolchain, options: ProjectOptions): Promise<Project> {
  const shared = options.emulator && "control" in options.emulator ? options.emulator : undefined;
  const emulatorOptions = shared ? {} : ((options.emulator ?? {}) as EmulatorOptions);
  const emulator = shared ?? (await startEmulator({ log: () => {}, ...emulatorOptions }));
  const backend = options.backend ?? (await createTemporaryBackend());
  const workDir = resolve(repoRoot, options.workDir);
  const stackName = `e2e-${randomBytes(4).toString("hex")}`;
  const output: string[] = [];
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    {
      pulumiCommand: await pulumiCommand(toolchain),
      envVars: { ...toolchain.env, ...backend.envVars, ...options.env },
    },
  );
  await stack.setAllConfig({
    "mediahost:baseUrl": { value: emulator.url },
    "mediahost:clientId": { value: emulatorOptions.clientId ?? DEMO_CLIENT.clientId },
    "mediahost:clientSecret": {
      value: emulatorOptions.clientSecret ?? DEMO_CLIENT.clientSecret,
      secret: true,
    },
    ...options.config,
  });
  const capture = (line: string) => output.push(line);
  // every operation's output is captured through these wrappers
  const original = {
    up: stack.up.bind(stack),
    preview: stack.preview.bind(stack),
    refresh: stack.refresh.bind(stack),
    destroy: stack.destroy.bind(stack),
  };
  stack.up = (opts) => original.up({ onOutput: capture, ...opts });
  stack.preview = (opts) => original.preview({ onOutput: capture, ...opts });
  stack.refresh = (opts) => original.refresh({ onOutput: capture, ...opts });
  stack.destroy = (opts) => original.destroy({ onOutput: capture, ...opts });

  let since = 0;
  return {
    stack,
    emulator,
    backend,
    output,
    api: new MediahostClient({
      baseUrl: emulator.url,
      clientId: emulatorOptions.clientId ?? DEMO_CLIENT.clientId,
      clientSecret: emulatorOptions.clientSecret ?? DEMO_CLIENT.clientSecret,
    }),
    calls() {
      const counts: Record<string, number> = {};
      for (const r of emulator.control.requests(since).requests) {
        const op = r.operation ?? "unknown";
        counts[op] = (counts[op] ?? 0) + 1;
      }
      return counts;
    },
    mark() {
      since = emulator.control.requests(since).next;
    },
    async stateFile() {
      // not stack.exportStack(): the Automation API exports with secrets decrypted
      const project = (await stack.workspace.projectSettings()).name;
      if (options.backend?.stackState) return options.backend.stackState(project, stackName);
      const file = join(backend.dir, "state", ".pulumi", "stacks", project, `${stackName}.json`);
      return JSON.parse(await readFile(file, "utf8"));
    },
    async dispose() {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => {});
      await rm(join(workDir, `Pulumi.${stackName}.yaml`), { force: true });
      await backend.dispose();
      if (!shared) await emulator.stop();
    },
  };
}
