#!/usr/bin/env node
// mediahost-recover: the one command a CI job runs before `pulumi up` when an earlier job of the
// same stack was cancelled (or killed) in the middle of an update, on any machine that shares the
// stack's backend. What the killed run had started creating is in the state, shared by every
// runner, as *pending creates*: this command turns them into knowledge the next `up` acts on.
//
//   1. repairs a local file backend the kill left unreadable (an emptied `.attrs` side file), and
//      releases the lock the killed run left, and only that: a lock is released when its holder
//      is shown dead (this host, its process gone) or nothing moved for --lock-timeout; a live
//      one is waited for (--wait) or named in the one-line failure (tools/lib/locks.ts);
//   2. reads the stack's pending creates (`pulumi stack export`; secrets stay encrypted);
//   3. for each pending create of the dynamic face's resources, notes in this machine's stack
//      journal (provider/journal.ts) that the stack was creating that object: the next `up`
//      takes over what the killed run made, without `adopt`, and creates what it did not;
//      objects anyone else made still need `adopt`;
//   4. drops the pending creates from the state (`pulumi stack import` of the same deployment),
//      only if the state is still the one it read (exported again just before): else it writes
//      nothing and says so;
//   5. imports each object of a native resource's pending create that exists (`pulumi import
//      --file`, under the resource's own URN: the native provider reads it by its id), which is
//      what `pulumi refresh --import-pending-creates` should do and, in CLI 3.259, does not. A
//      native resource an import would not give back as declared (a File from `source`: an
//      import declares inline text) is noted in the journal as in 3, under the stack's
//      `<project>/<stack>`, which is how the native provider keys it.
//
// With --print it only lists the pending creates and what it would do. Progress goes to stderr.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { describe, Face, importOf, kindByName } from "../provider/for-tools";
import { describeBackend } from "./lib/backend";
import { type DiyStore, diyStore } from "./lib/diy-store";
import { fileBackendDir, repairEmptyAttrs } from "./lib/file-backend";
import { judge, lockDir, parseLock } from "./lib/locks";
import {
  type Deployment,
  importDocument,
  importFoundNothing,
  isNative,
  type PendingCreate,
  pendingCreates,
} from "./lib/pending";
import { locatePulumi, pathWith } from "./lib/pulumi-cli";
import { runMain } from "./lib/run";

const USAGE = `Usage: mediahost-recover [--stack NAME] [--cwd DIR] [--pulumi PATH] [--lock-timeout MINUTES]
                         [--wait SECONDS] [--print]

Run it once before \`pulumi up\` after an update of the stack was cancelled or killed midway, on
any machine that shares the stack's backend (a fresh CI runner will do): it repairs a file://
backend the kill left unreadable, releases the lock the interrupted run left, notes the objects
that run had begun creating as this stack's (so that the next \`pulumi up\` takes over what it
made, without \`adopt\`), and drops the pending creates from the state. Objects anyone else made
still need \`adopt: true\`. A lock whose holder may still run is never released: recover waits for
it (--wait) or fails naming it, and writes the state only if no other job saved it meanwhile.

  --stack NAME            the stack (default: $PULUMI_STACK, or the stack selected in DIR)
  --cwd DIR               the program's directory, holding Pulumi.yaml (default: .)
  --pulumi PATH           the pulumi CLI (default: pulumi on PATH, then $PULUMI_HOME/bin, then ~/.pulumi/bin)
  --lock-timeout MINUTES  release a lock whose holder is not shown dead once neither it nor a save of
                          the state is newer than this (default: 360, longer than a CI job runs)
  --wait SECONDS          wait this long for a live lock to be released before failing (default: 0)
  --print                 list the pending creates and what would be done; change nothing

The stack's secrets provider needs what it always needs (e.g. PULUMI_CONFIG_PASSPHRASE).`;

const progress = (line: string) => process.stderr.write(`mediahost-recover: ${line}\n`);

interface Cli {
  /** Runs a pulumi command, on the stack given (`ofStack`, default) or none. */
  run(args: string[], options?: { ofStack?: boolean }): Promise<string>;
}

/** The backend the CLI is logged in to, when PULUMI_BACKEND_URL does not say. */
async function whoami(cli: Cli): Promise<string | undefined> {
  const said = await cli.run(["whoami", "--json"], { ofStack: false }).catch(() => "");
  try {
    return (JSON.parse(said) as { url?: string }).url;
  } catch {
    return undefined;
  }
}

/** What a failed command said: stderr, else its error lines on stdout (where `pulumi import` puts them). */
function whatItSaid(stdout: string, stderr: string): string {
  if (stderr.trim()) return stderr.trim();
  return [
    ...new Set(
      stdout
        .split("\n")
        .filter((l) => /^\s*error: /.test(l))
        .map((l) => l.trim()),
    ),
  ].join("\n");
}

function cliAt(binary: string, cwd: string, stack: string | undefined): Cli {
  const env = { ...process.env, PATH: pathWith(binary) };
  return {
    run: (args, { ofStack = true } = {}) =>
      new Promise((ok, fail) =>
        execFile(
          binary,
          [...args, ...(stack && ofStack ? ["--stack", stack] : []), "--non-interactive"],
          { cwd, env, maxBuffer: 256 << 20 },
          (err, stdout, stderr) =>
            err
              ? fail(
                  new Error(
                    `pulumi ${args[0]} ${args[1] ?? ""}: ${whatItSaid(stdout, stderr) || err.message}`,
                  ),
                )
              : ok(stdout),
        ),
      ),
  };
}

async function main(argv: string[]): Promise<number> {
  const values = parse(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const boundMs = Number(values["lock-timeout"]) * 60_000;
  const waitMs = Number(values.wait) * 1000;
  if (!(boundMs > 0))
    throw new Error(`--lock-timeout: must be a number of minutes above 0, got ${values["lock-timeout"]}`);
  if (!(waitMs >= 0)) throw new Error(`--wait: must be a number of seconds, got ${values.wait}`);
  const cwd = resolve(values.cwd ?? ".");
  const stack = values.stack ?? process.env.PULUMI_STACK;
  const cli = cliAt(locatePulumi(values.pulumi).binary, cwd, stack);

  // any backend the CLI reaches (an object store, Pulumi Cloud, a directory): every step goes through
  // the CLI, and the messages name the backend
  const backendUrl = process.env.PULUMI_BACKEND_URL ?? (await whoami(cli));
  const where = backendUrl ? describeBackend(backendUrl) : "the backend pulumi is logged in to";
  const name = stack ?? (await cli.run(["stack", "--show-name"]).catch(() => "")).trim();
  progress(`stack ${name || "(selected)"} on ${where}`);
  const run: Run = { cli, print: values.print, where, name, exportState: () => cli.run(["stack", "export"]) };
  if (!run.print) await repairFileBackend(backendUrl, name);
  const exported = await exportUnlocked(run, { backendUrl, cwd, boundMs, waitMs });
  const pending = pendingCreates(JSON.parse(exported) as Deployment);
  if (pending.all.length === 0) {
    progress("no pending creates: nothing to recover");
    return 0;
  }
  progress(`${pending.all.length} pending create(s), ${pending.ours.length} of pulumi-mediahost resources`);
  const imports = await takeOver(run, pending.ours);
  for (const other of pending.others) progress(`left as it is (not a pulumi-mediahost resource): ${other}`);
  if (run.print) return 0;
  return dropPending(run, exported, pending.without, imports);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      stack: { type: "string" },
      cwd: { type: "string" },
      pulumi: { type: "string" },
      print: { type: "boolean", default: false },
      "lock-timeout": { type: "string", default: "360" },
      wait: { type: "string", default: "0" },
      help: { type: "boolean", short: "h", default: false },
    },
  }).values;
}

/** What every step of a run shares. */
interface Run {
  cli: Cli;
  /** --print: list what would be done, change nothing. */
  print: boolean;
  /** The backend, as messages name it. */
  where: string;
  /** The stack's name ("" when none is selected). */
  name: string;
  exportState: () => Promise<string>;
}

/** A native resource's pending create to import under its own URN: what it is, and its document. */
interface Import {
  what: string;
  document: Record<string, unknown>;
}

/** A local file backend the kill left unreadable (an emptied .attrs file): repaired first. */
async function repairFileBackend(backendUrl: string | undefined, name: string): Promise<void> {
  const dir = fileBackendDir(backendUrl);
  if (!dir || !name) return;
  for (const file of await repairEmptyAttrs(dir, name))
    progress(`removed ${file}: the interrupted run left it empty, and the backend could not load the stack`);
}

/** The state as exported, once the locks an interrupted run left are released (where they can be read). */
async function exportUnlocked(
  run: Run,
  o: { backendUrl: string | undefined; cwd: string; boundMs: number; waitMs: number },
): Promise<string> {
  const { where, name, exportState } = run;
  const store = diyStore(o.backendUrl);
  const project = await projectName(o.cwd);
  const exported = await exportState();
  if (run.print) return exported;
  if (store && project && name)
    return releaseLocks({
      store,
      project,
      stack: name,
      where,
      boundMs: o.boundMs,
      waitMs: o.waitMs,
      exportState,
      exported,
    });
  progress(
    `the locks on ${where} cannot be read from here: none released (\`pulumi cancel\` releases every lock, ` +
      "a live update's too: only once no job of the stack runs)",
  );
  return exported;
}

/**
 * For each pending create of ours: a native one an import gives back as declared is to be imported
 * (answered); the others (a File from `source`, the dynamic face's) are noted in the journal, so
 * that the next create takes the object over.
 */
async function takeOver(run: Run, ours: PendingCreate[]): Promise<Import[]> {
  // the accounts the stack's config names, to key the journal as the provider does
  const config = Object.fromEntries(
    Object.entries(
      JSON.parse(await run.cli.run(["config", "--json", "--show-secrets"])) as Record<
        string,
        { value?: string }
      >,
    ).map(([k, v]) => [k, v.value]),
  );
  const face = Face.of((k) => config[k]);
  const imports: Import[] = [];
  for (const create of ours) {
    const found = await takeOverOne(run, face, create);
    if (found) imports.push(found);
  }
  return imports;
}

async function takeOverOne(run: Run, face: Face, create: PendingCreate): Promise<Import | undefined> {
  const kind = kindByName(create.kind);
  if (!kind || !create.owner) {
    progress(`${create.urn}: skipped (${kind ? "no owner recorded" : `unknown kind ${create.kind}`})`);
    return undefined;
  }
  const what = describe(kind, create.inputs);
  const account = () => face.account(create.inputs.account as string | undefined);
  let id: string;
  try {
    // the account singleton's id is the account's alias, which only a read tells
    id = kind.id(create.inputs, kind.singleton ? await account().alias(undefined, what) : undefined);
  } catch {
    progress(`${create.urn}: skipped (its id is not known from its inputs)`);
    return undefined;
  }
  const importing = importOf(kind);
  if (isNative(create) && !("refused" in importing) && (importing.reimports?.(create.inputs) ?? true)) {
    progress(
      `${run.print ? "would import" : "imports"} ${what} if it exists (${create.urn}): pulumi import ${create.type} ${create.urn.slice(create.urn.lastIndexOf("::") + 2)} ${id}`,
    );
    return { what, document: importDocument(create, id) };
  }
  if (run.print) {
    progress(`would note ${what} as this stack's create in flight (${create.urn})`);
    return undefined;
  }
  const ctx = account();
  const alias = await ctx.alias(undefined, what);
  face.setOwner(create.owner);
  face.session.journal(ctx, alias)?.beginCreate(kind.name, id);
  progress(`noted ${what} in account "${alias}": the next \`pulumi up\` takes it over if it exists`);
  return undefined;
}

/**
 * The pending creates leave the state; nothing else of it changes, and nothing at all if another
 * job saved it since it was read (the import takes the stack's lock: a running job refuses it).
 * Then the native resources the interrupted run made are taken in under their own URN.
 */
async function dropPending(
  run: Run,
  exported: string,
  without: Deployment,
  imports: Import[],
): Promise<number> {
  const { cli, where, name } = run;
  if ((await run.exportState()) !== exported) {
    progress(
      `the state on ${where} changed since recover read it (another job saved it): wrote nothing to it; ` +
        "run mediahost-recover again once that job has ended",
    );
    return 1;
  }
  const dir = await mkdtemp(join(tmpdir(), "mediahost-recover-"));
  try {
    const file = join(dir, "deployment.json");
    await writeFile(file, JSON.stringify(without), { mode: 0o600 });
    await cli.run(["stack", "import", "--file", file]);
    progress(`dropped the pending creates from the state on ${where}`);
    // one at a time: an object it never made (the service did not get that far) is left to the next up
    for (const { what, document } of imports) {
      const one = join(dir, "import.json");
      await writeFile(one, JSON.stringify(document), { mode: 0o600 });
      await cli
        .run(["import", "--file", one, "--yes", "--protect=false", "--generate-code=false", "--skip-preview"])
        .then(
          () => progress(`imported ${what}`),
          (err: Error) => {
            if (!importFoundNothing(err.message)) throw err;
            progress(`${what} was not made: the next \`pulumi up\` creates it`);
          },
        );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  progress(`run \`pulumi up\` now (stack ${name || "(selected)"} on ${where})`);
  return 0;
}

/** The project's name, from Pulumi.yaml in `cwd` (the locks are kept per project). */
async function projectName(cwd: string): Promise<string | undefined> {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const text = await readFile(join(cwd, file), "utf8").catch(() => undefined);
    const name = text && /^name:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
    if (name) return name;
  }
  return undefined;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds the pid
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Releases the stack's locks whose holder is shown dead or quiet past the bound, each by its own
 * key (not `pulumi cancel`, which deletes a live update's too); waits up to `waitMs` for a live
 * one to go, else fails naming it. Answers the state as exported after the last look.
 */
async function releaseLocks(o: {
  store: DiyStore;
  project: string;
  stack: string;
  where: string;
  boundMs: number;
  waitMs: number;
  exportState: () => Promise<string>;
  exported: string;
}): Promise<string> {
  const started = Date.now();
  let exported = o.exported;
  for (let waited = false; ; waited = true) {
    const manifest = (JSON.parse(exported) as { deployment?: { manifest?: { time?: string } } }).deployment
      ?.manifest?.time;
    const seen = {
      now: new Date(),
      host: hostname(),
      alive: isAlive,
      savedAt: manifest ? new Date(manifest) : undefined,
      boundMs: o.boundMs,
    };
    const locks = [];
    // a lock is a `.json` object (a file backend keeps its attributes beside it: `.json.attrs`)
    for (const key of (await o.store.list(lockDir(o.project, o.stack))).filter((k) => k.endsWith(".json"))) {
      const text = await o.store.read(key);
      if (text !== undefined) locks.push(parseLock(key, text));
    }
    const judged = locks.map((lock) => ({ lock, verdict: judge(lock, seen) }));
    const live = judged.find((j) => !j.verdict.release);
    if (live && Date.now() - started < o.waitMs) {
      if (!waited) progress(`waiting for the update holding the lock ${live.verdict.text} on ${o.where}`);
      await new Promise((r) => setTimeout(r, 2_000));
      exported = await o.exportState();
      continue;
    }
    if (live)
      throw new Error(
        `the stack is locked by an update that may still run: ${live.lock.key} ${live.verdict.text}; ` +
          "nothing was released: run this again once it ends (--wait SECONDS waits for it), or, if that " +
          "job is gone, with a --lock-timeout below its quiet time",
      );
    for (const { lock, verdict } of judged) {
      await o.store.remove(lock.key);
      progress(
        verdict.release && verdict.why === "dead"
          ? `released the lock an interrupted update left on ${o.where}: ${lock.key} ${verdict.text}`
          : `released a lock that may be a live update's, on ${o.where}: ${lock.key} ${verdict.text}`,
      );
    }
    if (judged.length === 0) progress(`no lock on ${o.where}`);
    return judged.length === 0 ? exported : o.exportState();
  }
}

runMain(main, progress);
