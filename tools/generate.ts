#!/usr/bin/env node
// mediahost-generate: writes a Pulumi program that declares what a live account holds (settings,
// aliases, custom domains, the folder tree to --depth, folder options and meta; with --files the
// files, their meta and points of interest), every object
// with `adopt: true` where the kind has it, so that a first `pulumi up` takes the account over
// instead of failing on "exists". Secrets are read from stack config by the generated code.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  type Credentials,
  credentialsFor,
  MediahostClient,
  resolveAccounts,
  VERSION,
} from "../provider/for-tools";
import { importDocumentOf } from "./lib/import-file";
import { slug } from "./lib/names";
import { runPaced } from "./lib/pacer";
import { type GeneratedProgram, generateProgram } from "./lib/program";
import { type AccountSnapshot, readAccount, systemFoldersLine } from "./lib/read-account";
import { runMain } from "./lib/run";

const USAGE = `Usage: mediahost-generate (--out DIR | --import-file FILE) [--depth N] [--account NAME]
                          [--base-url URL] [--client-id ID] [--client-secret SECRET] [--project NAME]
                          [--concurrency N] [--files] [--max-file-size BYTES] [--wait-for-budget]
                          [--force]

Reads a live account and writes DIR/index.ts, Pulumi.yaml, package.json and tsconfig.json: a
Pulumi program declaring its settings, aliases, custom domains, folders (to --depth levels),
folder options and meta, with adopt: true. Secrets are taken from stack config, never written.

Credentials, as the provider finds them:
  --base-url, --client-id, --client-secret   (or MEDIAHOST_BASE_URL, MEDIAHOST_CLIENT_ID,
                                               MEDIAHOST_CLIENT_SECRET; prefer the environment
                                               for the secret)
  --account NAME     read the account NAME of MEDIAHOST_ACCOUNTS (a JSON object shaped like the
                     mediahost:accounts config); the generated resources get account: "NAME"

  --out DIR          where to write (refuses to overwrite files unless --force)
  --depth N          folder levels to declare (default 2; 0 = no folders)
  --project NAME     Pulumi project name (default mediahost-<account alias>)
  --concurrency N    API requests in flight at most (default 16)
  --files            also declare the files of the declared folders, each as a File uploaded from
                     a copy written under DIR/files/ (the round trip stays clean), and every listed
                     file's meta and points of interest
  --max-file-size B  with --files, the largest file to include, in bytes (default 1048576)
  --wait-for-budget  when the reads need more calls than the account's rate budget has left (with
                     --files, 3 calls a file: its meta, its points and its bytes), read at the
                     service's pace, waiting for the counter as it frees up; without it, such a
                     read stops after the listing with one line saying what it needs and when the
                     counter frees up
  --import-file FILE write a \`pulumi import --file\` document for the native face (every object read,
                     by its import id; text files with --files) instead of, or besides, a program`;

const progress = (line: string) => process.stderr.write(`mediahost-generate: ${line}\n`);

function positiveInt(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag}: must be an integer >= ${min}, got "${value}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const values = parse(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const run = settingsOf(values);
  const started = Date.now();
  const client = new MediahostClient(run.credentials);
  const snapshot = await read(client, run);
  progress(
    `read account "${snapshot.accountAlias}": ${snapshot.aliases.length} aliases, ${snapshot.folders.length - 1} folders${values.files ? `, ${snapshot.files.length} files (${snapshot.largeFiles.length} larger left out)` : ""} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const systemLine = systemFoldersLine(snapshot.systemFolders);
  if (systemLine) progress(systemLine);

  if (values["import-file"]) {
    await writeImportFile(values["import-file"], snapshot);
    if (!values.out) return 0;
  }
  const program = generateProgram(snapshot, {
    project: values.project ?? `mediahost-${slug(snapshot.accountAlias)}`,
    account: values.account,
    providerVersion: `^${VERSION}`,
    source: run.credentials.baseUrl,
    depth: run.depth,
    ...(values.files ? { maxFileSize: run.maxFileSize } : {}),
  });
  await writeProgram(run.outDir, program);
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.stdout.write(`${nextSteps(run, snapshot, program).join("\n")}\n`);
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      depth: { type: "string" },
      account: { type: "string" },
      "base-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      project: { type: "string" },
      concurrency: { type: "string" },
      files: { type: "boolean" },
      "max-file-size": { type: "string" },
      force: { type: "boolean" },
      "wait-for-budget": { type: "boolean" },
      "import-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }).values;
}

/** What a run does, from its flags: checked, its credentials found, its outputs free to write. */
interface Settings {
  values: ReturnType<typeof parse>;
  depth: number;
  concurrency: number;
  maxFileSize: number;
  credentials: Credentials;
  outDir: string;
}

function settingsOf(values: ReturnType<typeof parse>): Settings {
  if (!values.out && !values["import-file"])
    throw new Error("--out DIR or --import-file FILE is required (see --help)");
  const depth = positiveInt("depth", values.depth, 2, 0);
  const concurrency = positiveInt("concurrency", values.concurrency, 16, 1);
  const maxFileSize = positiveInt("max-file-size", values["max-file-size"], 1024 * 1024, 0);
  if (values["max-file-size"] !== undefined && !values.files)
    throw new Error("--max-file-size needs --files");

  const flags: Record<string, string | undefined> = {
    "mediahost:baseUrl": values["base-url"],
    "mediahost:clientId": values["client-id"],
    "mediahost:clientSecret": values["client-secret"],
    "mediahost:accounts": process.env.MEDIAHOST_ACCOUNTS,
  };
  const accounts = resolveAccounts({ config: (key) => flags[key], env: process.env });
  const credentials = credentialsFor(accounts, values.account);

  const outDir = resolve(values.out ?? ".");
  const targets = [
    "index.ts",
    "Pulumi.yaml",
    "package.json",
    "tsconfig.json",
    ...(values.files ? ["files"] : []),
  ];
  const existing = values.out ? targets.filter((f) => existsSync(join(outDir, f))) : [];
  if (values["import-file"] && existsSync(values["import-file"]) && !values.force)
    existing.push(values["import-file"]);
  if (existing.length && !values.force)
    throw new Error(`${outDir} already has ${existing.join(", ")}; pass --force to overwrite`);
  return { values, depth, concurrency, maxFileSize, credentials, outDir };
}

/** The account read, paced to its rate budget, with a progress line now and then. */
function read(client: MediahostClient, run: Settings): Promise<AccountSnapshot> {
  const { values, depth, concurrency } = run;
  progress(
    `reading the account at ${run.credentials.baseUrl} (folders to depth ${depth}, ${concurrency} requests at once)`,
  );
  let lastReport = Date.now();
  let lastStep = 0;
  return readAccount(client, {
    depth,
    concurrency,
    ...(values.files ? { files: { maxSize: run.maxFileSize } } : {}),
    runReads: (reads) =>
      runPaced(client, reads, { concurrency, wait: !!values["wait-for-budget"], say: progress }),
    onProgress: (p) => {
      // every 250 folders found, or every second when reads are slow
      const step = Math.floor(p.folders / 250);
      if (step === lastStep && Date.now() - lastReport < 1000) return;
      lastStep = step;
      lastReport = Date.now();
      progress(
        `  ${p.folders} folders found, ${p.listings} listed, ${p.details} folders' options and meta read${values.files ? `, ${p.fileDetails} files' meta and points` : ""}`,
      );
    },
  });
}

/** The native face's way: `pulumi import --file` takes every object in, each read by its id. */
async function writeImportFile(file: string, snapshot: AccountSnapshot): Promise<void> {
  const { document, notes } = importDocumentOf(snapshot);
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  for (const note of notes) progress(note);
  process.stdout.write(
    `Wrote ${file} (${document.resources.length} resources). Next, in a project of the native face:\n` +
      `  pulumi import --file ${file} --out index.ts --protect=false\n`,
  );
}

async function writeProgram(outDir: string, program: GeneratedProgram): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const [file, text] of Object.entries(program.files)) await writeFile(join(outDir, file), text);
  for (const [file, bytes] of Object.entries(program.assets)) {
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), bytes);
  }
}

/** What was written, and the commands that take the account over with it. */
function nextSteps(run: Settings, snapshot: AccountSnapshot, program: GeneratedProgram): string[] {
  const { values, credentials, outDir, depth } = run;
  const total = Object.values(program.counts).reduce((a, b) => a + b, 0);
  const summary = Object.entries(program.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  const cfg = values.account
    ? [
        `  pulumi config set --secret --path 'mediahost:accounts.${values.account}.clientSecret' <secret>`,
        `  pulumi config set --secret --path 'mediahost:accounts.${values.account}.clientId' ${credentials.clientId}`,
        `  pulumi config set --secret --path 'mediahost:accounts.${values.account}.baseUrl' ${credentials.baseUrl}`,
      ]
    : [
        `  pulumi config set mediahost:baseUrl ${credentials.baseUrl}`,
        `  pulumi config set mediahost:clientId ${credentials.clientId}`,
        "  pulumi config set --secret mediahost:clientSecret <client secret>",
      ];
  return [
    `Wrote ${join(outDir, "index.ts")} (${total} resources: ${summary || "none"}),`,
    `  Pulumi.yaml, package.json and tsconfig.json.`,
    ...(snapshot.truncatedAt.length
      ? [
          `Folders deeper than ${depth} levels were left out (under ${snapshot.truncatedAt.length} folders); use --depth to include them.`,
        ]
      : []),
    "",
    "Next steps:",
    `  cd ${outDir}`,
    "  npm install",
    "  pulumi stack init <stack>",
    ...cfg,
    ...program.secrets.map(
      (key) => `  pulumi config set --secret ${key} <value>     # write-only at the service`,
    ),
    "  pulumi preview                                  # every resource is a create (an adoption)",
    "  pulumi up",
    "  pulumi preview --refresh --expect-no-changes    # the stack now matches the account",
  ];
}

runMain(main, progress);
