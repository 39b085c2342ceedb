// A maintenance window with the real CLI, on both faces: the emulator refuses every call with 503
// for 4 seconds (well inside the 30 s deadline of an operation), once with `Retry-After` in
// seconds, once as an HTTP date, once with none. `up` (the window opening on its first write),
// `preview --refresh` (on its first read) and `destroy` (on its first delete) fail no command,
// and nothing is written twice: every write the window refused succeeds once after it, none more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Unavailable } from "../../emulator/faults";
import { openProject, type Project } from "./helpers/project";
import { toolchainForTests } from "./helpers/toolchain";

const FACES = ["dynamic", "native"] as const;
const WINDOW_SECONDS = 4;

interface LogEntry {
  method: string;
  operation: string | null;
  query?: string;
  status: number;
}

/** Calls that change nothing, though some are POSTs. */
const READS = new Set(["token", "search", "searchScroll", "searchEvents"]);
/** Written whole (the account object): a write may follow another of the same key on purpose. */
const WHOLE = new Set(["updateAccount"]);

describe("a 503 window shorter than the deadline", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");

  for (const face of FACES) {
    describe(`${face} face`, () => {
      let p: Project;
      let since = 0;
      const figures: Record<string, unknown>[] = [];

      /** Opens the window for the next command, and after it: what the command sent. */
      const windowFor = async (window: Partial<Unavailable>) => {
        since = p.emulator.control.requests(since).next;
        await p.emulator.control.setFaults({ unavailable: { seconds: WINDOW_SECONDS, ...window } });
      };
      const sent = (step: string) => {
        const { requests, next } = p.emulator.control.requests(since);
        since = next;
        const log = requests as LogEntry[];
        const refused = log.filter((r) => r.status === 503);
        const writes = log.filter((r) => r.operation && r.method !== "GET" && !READS.has(r.operation));
        figures.push({
          face,
          step,
          apiCalls: log.length,
          refused: refused.length,
          refusedWrites: refused.filter((r) => writes.includes(r)).length,
        });
        return { log, refused, writes };
      };
      /** Each write key's successes: a refused write succeeds once after the window, never twice. */
      const writtenOnce = (writes: LogEntry[]) => {
        const done = new Map<string, number>();
        for (const w of writes.filter((r) => r.status < 300 && !WHOLE.has(r.operation ?? ""))) {
          const key = `${w.operation} ${w.query ?? ""}`;
          done.set(key, (done.get(key) ?? 0) + 1);
        }
        for (const w of writes.filter((r) => r.status === 503 && !WHOLE.has(r.operation ?? "")))
          expect(done.get(`${w.operation} ${w.query ?? ""}`), `${w.operation} ${w.query}`).toBe(1);
        expect([...done].filter(([, n]) => n > 1)).toEqual([]);
      };

      beforeAll(async () => {
        p = await openProject(toolchain, {
          workDir: "test/e2e/programs/variants",
          config: {
            face: { value: face },
            stage: { value: "1" },
            originPassword: { value: "origin-pw-window-51c2", secret: true },
          },
        });
      });
      afterAll(async () => {
        console.log(`503 window figures: ${JSON.stringify(figures)}`);
        await p?.dispose();
      });

      it("up succeeds through a window opened by its first write (Retry-After in seconds)", async () => {
        await windowFor({ on: "write", retryAfter: "seconds" });
        const up = await p.stack.up();
        expect(up.summary.result).toBe("succeeded");
        const { refused, writes } = sent("up");
        expect(refused.filter((r) => writes.includes(r)).length).toBeGreaterThan(0);
        writtenOnce(writes);
        const s = p.emulator.control.state();
        expect(s.tree.map((e) => e.path)).toEqual(
          expect.arrayContaining(["/v", "/v/a", "/v/a/b", "/v/a/readme.txt"]),
        );
        expect(s.subAccounts.filter((a) => a === "vsub-e2e")).toHaveLength(1);
        expect(s.account.aliases.vweb?.customDomain).toBe("v.example.com");
      });

      it("preview --refresh stays quiet through a window opened by its first read (Retry-After a date)", async () => {
        await windowFor({ on: "any", retryAfter: "date" });
        await p.stack.preview({ refresh: true, expectNoChanges: true });
        const { refused, writes } = sent("preview --refresh");
        expect(refused.length).toBeGreaterThan(0);
        expect(writes.filter((r) => r.status < 300)).toEqual([]);
      });

      it("destroy succeeds through a window with no Retry-After, opened by its first delete (the backoff waits it out)", async () => {
        await windowFor({ on: "write", retryAfter: "none" });
        const destroyed = await p.stack.destroy();
        expect(destroyed.summary.result).toBe("succeeded");
        const { refused, writes } = sent("destroy");
        expect(refused.filter((r) => writes.includes(r)).length).toBeGreaterThan(0);
        writtenOnce(writes);
        const s = p.emulator.control.state();
        expect(s.tree.filter((e) => e.path === "/v" || e.path.startsWith("/v/"))).toEqual([]);
        expect(s.subAccounts).not.toContain("vsub-e2e");
      });
    });
  }
});
