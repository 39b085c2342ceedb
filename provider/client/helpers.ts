// Multi-call helpers over the typed client: folder listings that follow `continuation`,
// search that pages (and scrolls only past 1,000 hits), and polling of asynchronous jobs.
import type { MediahostClient } from "./client";
import { MediahostError } from "./errors";
import type { FolderEntry, JobStatus, Read } from "./reads";

type SearchHit = Read<"search">["hits"][number];

/** Every entry of a folder, page by page (100 a page), in the service's order. */
export async function* listFolder(client: MediahostClient, dirname: string): AsyncGenerator<FolderEntry> {
  let continuation: string | undefined;
  do {
    const page = await client.ops.readdir({ query: { dirname, continuation } });
    yield* page.contents;
    continuation = page.continuation;
  } while (continuation);
}

/** Hits a plain search reaches with `from`/`size` (docs/api.md#search). */
export const PAGED_MAX = 1000;

/**
 * The first `limit` hits of a search, and how many there are. Up to 1,000 it pages with
 * `from`/`size`: plain searches, repeated like any read after a lost answer. Only when both the
 * limit and the hits go past 1,000 does it scroll (the first call asks for a scroll then, so as
 * not to search twice): a scroll call moves the service's cursor, so it is never repeated, and
 * counts `rest:post:files:search:scroll`. The service documents no call that closes a scroll: it
 * ends when the last page is in or the limit is reached, and no call is made past it.
 */
export async function searchHits(
  client: MediahostClient,
  request: { query: string; sort?: Record<string, "asc" | "desc"> },
  limit: number,
  pageSize = 100,
): Promise<{ total: number; hits: SearchHit[] }> {
  const size = Math.min(pageSize, limit);
  const body = { ...request, size };
  let page = await client.ops.search({ body: { ...body, ...(limit > PAGED_MAX ? { scroll: true } : {}) } });
  const total = page.total;
  const wanted = Math.min(limit, total);
  const hits = page.hits.slice(0, wanted);
  if (wanted > PAGED_MAX) {
    while (hits.length < wanted && page.scrollId && page.hits.length > 0) {
      page = await client.ops.searchScroll({ body: { scrollId: page.scrollId } });
      hits.push(...page.hits.slice(0, wanted - hits.length));
    }
    return { total, hits };
  }
  while (hits.length < wanted && page.hits.length > 0) {
    const from = hits.length;
    page = await client.ops.search({ body: { ...body, from, size: Math.min(size, wanted - from) } });
    hits.push(...page.hits.slice(0, wanted - hits.length));
  }
  return { total, hits };
}

export type JobKind = "zip" | "batchDelete";

const pollOperation = { zip: "getZipJob", batchDelete: "getBatchDeleteJob" } as const;

/** A job is over when it says so, or when its progress reaches 100 (percent). */
export function jobFinished(status: JobStatus): boolean {
  // a service that reports no states (docs/api.md#jobs) says a failure only as `error`
  if (status.error) return true;
  const word = status.status?.toLowerCase();
  if (word && ["done", "completed", "complete", "finished", "failed", "error"].includes(word)) return true;
  return status.progress >= 100;
}

export interface WaitOptions {
  onProgress?: (status: JobStatus) => void;
  timeoutMs?: number;
  intervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Polls a job until it is over; fails when it reports an error or the timeout passes. */
export async function waitForJob(
  client: MediahostClient,
  kind: JobKind,
  id: string,
  options: WaitOptions = {},
): Promise<JobStatus> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + timeoutMs;
  let interval = options.intervalMs ?? 250;
  for (;;) {
    const status = await client.ops[pollOperation[kind]]({ query: { id } });
    options.onProgress?.(status);
    if (jobFinished(status)) {
      const word = status.status?.toLowerCase();
      if (word === "failed" || word === "error" || status.error) {
        throw new MediahostError({
          kind: "job",
          operation: pollOperation[kind],
          subject: `job ${id}`,
          serviceMessage: status.error ?? `it says ${word}`,
        });
      }
      return status;
    }
    if (Date.now() + interval > deadline) {
      throw new MediahostError({
        kind: "timeout",
        operation: pollOperation[kind],
        subject: `job ${id}`,
        serviceMessage: `job not finished after ${Math.round(timeoutMs / 1000)} s (progress ${status.progress})`,
      });
    }
    await sleep(interval);
    interval = Math.min(interval * 2, 2_000);
  }
}
