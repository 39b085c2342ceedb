// Asynchronous jobs (ZIP archive, batch delete). A job works through its items in a few steps
// a short while apart, so a poll can see it pending, running with partial progress, then done.
// Jobs and archives live in memory only.
import { randomBytes } from "node:crypto";
import { ZipFile } from "yazl";
import type { Account } from "./accounts";
import { ApiError, notFound } from "./errors";
import type { Store } from "./state";
import type { TreeNode } from "./tree";

export type JobStatus = "pending" | "running" | "done" | "failed";

export type JobKind = "zip" | "batchDelete";

export interface Job {
  id: string;
  status: JobStatus;
  /** 0 to 100. */
  progress: number;
  result?: unknown;
  error?: string;
}

const STEPS = 4;
const STEP_MS = 25;
/** Jobs remembered per account; the oldest finished ones are forgotten first. */
const MAX_JOBS = 200;
/** Archives kept for download; the oldest go first. */
const MAX_ARCHIVES = 50;

export interface Archive {
  filename: string;
  data: Buffer;
}

export class JobRunner {
  private readonly jobs = new Map<string, Map<string, { kind: JobKind; job: Job }>>();
  readonly archives = new Map<string, Archive>();

  constructor(private readonly store: Store) {}

  get(account: string, id: string, kind: JobKind): Job {
    const entry = this.jobs.get(account)?.get(id);
    if (entry?.kind !== kind) throw notFound(`Job not found: ${id}`);
    return { ...entry.job };
  }

  clear(): void {
    this.jobs.clear();
    this.archives.clear();
  }

  /**
   * Runs `work` over `items` in STEPS steps, then `finish`, then `cleanup` (also after a
   * failure); returns the job's id at once.
   */
  private run<T, R>(
    kind: JobKind,
    account: string,
    items: T[],
    work: (item: T) => Promise<R>,
    finish: (results: R[]) => Promise<unknown>,
    cleanup: () => void = () => {},
  ): string {
    const job: Job = { id: randomBytes(12).toString("hex"), status: "pending", progress: 0 };
    let jobs = this.jobs.get(account);
    if (!jobs) {
      jobs = new Map();
      this.jobs.set(account, jobs);
    }
    jobs.set(job.id, { kind, job });
    this.evict(jobs);
    const perStep = Math.max(1, Math.ceil(items.length / STEPS));
    const results: R[] = [];
    const step = async (): Promise<void> => {
      job.status = "running";
      for (const item of items.slice(results.length, results.length + perStep))
        results.push(await work(item));
      // 100 only once the result is there: a poll never sees "complete" without it
      job.progress = Math.min(99, Math.floor((results.length / Math.max(1, items.length)) * 100));
      if (results.length < items.length) {
        setTimeout(() => void step().catch(fail), STEP_MS);
        return;
      }
      job.result = await finish(results);
      job.progress = 100;
      job.status = "done";
      cleanup();
    };
    const fail = (e: unknown) => {
      job.status = "failed";
      job.error = (e as Error).message;
      cleanup();
    };
    setTimeout(() => void step().catch(fail), STEP_MS);
    return job.id;
  }

  private evict(jobs: Map<string, { job: Job }>): void {
    for (const [id, { job }] of jobs) {
      if (jobs.size <= MAX_JOBS) break;
      if (job.status === "done" || job.status === "failed") jobs.delete(id);
    }
  }

  /** A ZIP of the named files and folders (recursively), entries named by their path. */
  startZip(
    account: Account,
    filenames: string[],
    zipFilename: string | undefined,
    urlFor: (id: string, name: string) => string,
  ): string {
    const entries: { path: string; node: TreeNode }[] = [];
    for (const name of filenames) {
      for (const [path, node] of account.tree.walk(name, account.tree.require(name)))
        entries.push({ path, node });
    }
    const blobs = this.store.world.blobs;
    // hold the contents until they are archived, whatever happens to the files meanwhile
    for (const e of entries) if (e.node.kind === "file") blobs.retain(e.node.blob);
    const zip = new ZipFile();
    const filename = zipFilename
      ? zipFilename.endsWith(".zip")
        ? zipFilename
        : `${zipFilename}.zip`
      : "archive.zip";
    const release = () => {
      for (const e of entries) if (e.node.kind === "file") blobs.release(e.node.blob);
      void blobs.sweep();
    };
    const id: string = this.run(
      "zip",
      account.alias,
      entries,
      async ({ path, node }) => {
        const name = path.replace(/^\/+/, "");
        if (name === "") return;
        if (node.kind === "dir") zip.addEmptyDirectory(name, { mtime: new Date(node.mtime) });
        else zip.addBuffer(await blobs.read(node.blob), name, { mtime: new Date(node.mtime) });
      },
      async (): Promise<unknown> => {
        const chunks: Buffer[] = [];
        zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
        const done = new Promise((resolve) => zip.outputStream.on("end", resolve));
        zip.end();
        await done;
        const data = Buffer.concat(chunks);
        this.archives.set(id, { filename, data });
        for (const key of this.archives.keys()) {
          if (this.archives.size <= MAX_ARCHIVES) break;
          this.archives.delete(key);
        }
        return [{ filename, size: data.length, url: urlFor(id, filename) }];
      },
      release,
    );
    return id;
  }

  /**
   * Deletes each named file or folder with its content, files to the trash when `trash`
   * (docs/api.md#files-and-folders); the result says what failed.
   */
  startBatchDelete(account: Account, filenames: string[], trash: boolean): string {
    return this.run(
      "batchDelete",
      account.alias,
      filenames,
      async (filename) => {
        try {
          await this.store.commit({
            type: "delete",
            account: account.alias,
            path: filename,
            recursive: true,
            ...(trash ? { trash: true, time: Date.now() } : {}),
          });
          return { filename, success: true };
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          return { filename, success: false, error: e.message };
        }
      },
      async (results) => results,
    );
  }
}
