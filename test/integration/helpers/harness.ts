// Drives the provider the way the Pulumi engine does (check, create, read, diff, update,
// delete through the dynamic-provider adapter) against an emulator over real HTTP, and counts
// the API calls from the emulator's request log.
import type { EmulatorState } from "../../../emulator/control";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator/index";
import * as provider from "../../../provider";
import { MediahostClient, sharedTokenCache } from "../../../provider/client";
import { resetSession } from "../../../provider/dynamic";

export type Props = Record<string, unknown>;

export interface Harness {
  emulator: RunningEmulator;
  /** Stack config as `configure()` sees it. */
  configure(config?: Record<string, string>): void;
  /** check + create, as `pulumi up` does for a new resource; fails on check failures. */
  create(kind: string, inputs: Props): Promise<{ id: string; outs: Props }>;
  /** read, then diff of the program's inputs against what read returned: what `preview --refresh` sees. */
  refresh(
    kind: string,
    id: string,
    outs: Props,
    program: Props,
  ): Promise<{ gone: boolean; outs: Props; inputs: Props; changes: string[]; replaces: string[] }>;
  update(kind: string, id: string, outs: Props, news: Props): Promise<Props>;
  destroy(kind: string, id: string, outs: Props): Promise<void>;
  /** Calls by operation name since the last `mark()`. */
  calls(): Record<string, number>;
  mark(): void;
  /** The emulator's own view of the primary account, secrets included. */
  state(account?: string): Promise<EmulatorState>;
  api(account?: string): ReturnType<typeof clientFor>;
  stop(): Promise<void>;
}

function clientFor(url: string, clientId = "demo-client", clientSecret = "demo-secret") {
  return new MediahostClient({ baseUrl: url, clientId, clientSecret });
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ log: () => {}, ...options });
  let since = 0;
  const harness: Harness = {
    emulator,
    configure(config = {}) {
      // a new run: a new provider process, with nothing cached
      sharedTokenCache.clear();
      resetSession();
      const all: Record<string, string> = {
        "mediahost:baseUrl": emulator.url,
        "mediahost:clientId": "demo-client",
        "mediahost:clientSecret": "demo-secret",
        ...config,
      };
      provider.configure({ config: { get: (key) => all[key] } });
    },
    async create(kind, inputs) {
      const checked = await provider.check(kind, {}, inputs);
      if (checked.failures.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      return provider.create(kind, checked.inputs);
    },
    async refresh(kind, id, outs, program) {
      const read = await provider.read(kind, id, outs);
      if (!read.id) return { gone: true, outs: {}, inputs: {}, changes: [], replaces: [] };
      const checked = await provider.check(kind, read.inputs ?? {}, program);
      const { diffs, replaces } = await provider.diff(kind, id, read.props, checked.inputs);
      return { gone: false, outs: read.props, inputs: read.inputs ?? {}, changes: diffs, replaces };
    },
    async update(kind, id, outs, news) {
      const checked = await provider.check(kind, outs, news);
      if (checked.failures.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      return (await provider.update(kind, id, outs, checked.inputs)).outs;
    },
    destroy: (kind, id, outs) => provider.remove(kind, id, outs),
    calls() {
      const { requests, next } = emulator.control.requests(since);
      void next;
      const counts: Record<string, number> = {};
      for (const r of requests)
        counts[r.operation ?? "unknown"] = (counts[r.operation ?? "unknown"] ?? 0) + 1;
      return counts;
    },
    mark() {
      since = emulator.control.requests(since).next;
    },
    state: async (account) => emulator.control.state(account, { secrets: true }),
    api: (account) =>
      account ? clientFor(emulator.url, `${account}-client`, `${account}-secret`) : clientFor(emulator.url),
    stop: () => emulator.stop(),
  };
  harness.configure();
  return harness;
}
