// mediahost-doctor's write probe (--write-probe PREFIX): the facts only a write shows. It makes
// one folder and one small file under a prefix the user names, asks what each write did, and
// removes everything it made, the copies the trash took too, also when it is interrupted.
import { errorText } from "mediahost-contract";
import { type Facts, list, type Row, undocumentedIn, WRITE_FACTS } from "./doctor-facts";
import { type Answer, asObject, fsError, isNoSuchFile, said, succeeded, type Wire } from "./doctor-wire";

/** A problem with what the user asked (exit 2), not with the service. */
export class UsageError extends Error {}
export class Interrupted extends Error {}

export interface ProbeOptions {
  say: (line: string) => void;
  /** true once the run must stop (a signal): the probe then cleans up and throws `Interrupted`. */
  stopping?: () => boolean;
}

const PROBE_FILE = "probe.mediahost-doctor";
const depth = (p: string) => p.split("/").length;

/** Makes and removes what the probe writes under `prefix`, filling the rows of WRITE_FACTS. */
export async function writeProbe(
  wire: Wire,
  facts: Facts,
  prefix: string,
  options: ProbeOptions,
  extras: string[],
): Promise<void> {
  const probe = new Probe(wire, facts, prefix, options);
  const trashHeld = await probe.checkPrefix();
  try {
    options.say(`write probe under ${prefix}`);
    await probe.mkdirs();
    const file = await probe.upload();
    await probe.contentType(file);
    await probe.folderOptions(extras);
    await probe.deleteMissing();
    await probe.points(file);
    await probe.deleteToTrash(file);
  } finally {
    await probe.cleanUp(trashHeld);
  }
}

type WriteFact = (typeof WRITE_FACTS)[number][0];

/** One write probe: its rows, and what it may have made (asked for, answered or not). */
class Probe {
  private readonly rows: Record<string, Row>;
  /** What the probe may have made: removed deepest first. */
  private readonly made = new Set<string>();
  /** The status of each write that succeeded. */
  private readonly writes: number[] = [];
  /** The probe's copies in the trash, when the trash held its folder before (else all under it). */
  private readonly trashed: string[] = [];
  /** Where a deleted file under the prefix goes (docs/api.md#files-and-folders). */
  private readonly trash: string;

  constructor(
    private readonly wire: Wire,
    facts: Facts,
    private readonly prefix: string,
    private readonly options: ProbeOptions,
  ) {
    this.rows = Object.fromEntries(
      WRITE_FACTS.map(([id, fact, section, expects]) => [id, facts.add(id, section, fact, expects)]),
    );
    this.trash = `/.Trash${prefix}`;
  }

  private expect(id: WriteFact): Row {
    return this.rows[id] as Row;
  }

  private check(): void {
    if (this.options.stopping?.()) throw new Interrupted("interrupted");
  }

  private async write(
    method: "POST" | "DELETE",
    path: string,
    input: Parameters<Wire["call"]>[2],
    makes: string[] = [],
  ): Promise<Answer> {
    this.check();
    for (const p of makes) this.made.add(p);
    const a = await this.wire.call(method, path, input);
    if (succeeded(a)) this.writes.push(a.status);
    else for (const p of makes) this.made.delete(p);
    return a;
  }

  private stat(filename: string): Promise<Answer> {
    return this.wire.call("GET", "/v2/files/stat", { query: { filename } });
  }

  /**
   * Refuses a prefix that exists or whose parent is no folder; answers whether the trash held the
   * prefix's folder before the probe (then only the probe's own copies there are removed).
   */
  async checkPrefix(): Promise<boolean> {
    const { prefix } = this;
    const before = await this.stat(prefix);
    if (succeeded(before))
      throw new UsageError(`--write-probe ${prefix}: it exists; name a folder that does not exist`);
    if (!isNoSuchFile(before)) throw new Error(`GET /v2/files/stat ${prefix}: ${said(before)}`);
    const trashHeld = succeeded(await this.stat(this.trash));
    const parent = prefix.slice(0, prefix.lastIndexOf("/")) || "/";
    if (parent !== "/") {
      const p = await this.stat(parent);
      if (!succeeded(p) || asObject(p.json)?.isDirectory !== true)
        throw new UsageError(`--write-probe ${prefix}: its parent ${parent} is not a folder of the account`);
    }
    return trashHeld;
  }

  private mkdir(dirname: string, makes: string[]): Promise<Answer> {
    return this.write("POST", "/v2/files/mkdir", { query: { dirname } }, makes);
  }

  /** The prefix made, then made again, then a folder under a parent that does not exist. */
  async mkdirs(): Promise<void> {
    const { prefix } = this;
    const made0 = await this.mkdir(prefix, [prefix]);
    if (!succeeded(made0)) throw new Error(`mkdir ${prefix}: ${said(made0)}`);

    const again = await this.mkdir(prefix, []);
    const exists = /exist/i.test(fsError(again)?.message ?? errorText(again.text));
    const existsRow = this.expect("mkdir-exists");
    if (again.status === 200 && exists) existsRow.documented(said(again));
    else if (again.status === 409) existsRow.variant("mkdir-exists-409", said(again));
    else if (again.status === 400 && exists) existsRow.variant("fs-errors-400", said(again));
    else existsRow.no(said(again));

    const orphan = `${prefix}/no-parent/child`;
    const deep = await this.mkdir(orphan, [`${prefix}/no-parent`, orphan]);
    const parentsRow = this.expect("mkdir-parents");
    if (succeeded(deep)) parentsRow.variant("mkdir-parents", `${deep.status}: made the parent too`);
    else if (isNoSuchFile(deep)) parentsRow.documented(said(deep));
    else parentsRow.no(said(deep));
  }

  private uploadTo(filename: string, makes: string[]): Promise<Answer> {
    const bytes = new TextEncoder().encode("mediahost-doctor probe\n");
    return this.write(
      "POST",
      "/v2/files/upload",
      { query: { filename }, bytes, contentType: "text/plain" },
      makes,
    );
  }

  /** The probe's file uploaded into a folder that does not exist, else into the prefix: its path. */
  async upload(): Promise<string | undefined> {
    const { prefix } = this;
    // a name whose extension no table knows: a type taken from the name cannot be the one sent
    let file: string | undefined = `${prefix}/no-folder/${PROBE_FILE}`;
    const intoMissing = await this.uploadTo(file, [`${prefix}/no-folder`, file]);
    const uploadRow = this.expect("upload-mkdir");
    if (succeeded(intoMissing)) uploadRow.documented(`${intoMissing.status}: made the folder`);
    else if (isNoSuchFile(intoMissing)) {
      uploadRow.variant("upload-no-mkdir", said(intoMissing));
      file = `${prefix}/${PROBE_FILE}`;
      const direct = await this.uploadTo(file, [file]);
      if (!succeeded(direct)) {
        uploadRow.no(`${said(intoMissing)}; into ${prefix} too: ${said(direct)}`);
        file = undefined;
      }
    } else {
      uploadRow.no(said(intoMissing));
      file = undefined;
    }
    return file;
  }

  async contentType(file: string | undefined): Promise<void> {
    const typeRow = this.expect("content-type");
    if (!file) return typeRow.unobserved("not observed: no file was uploaded");
    this.check();
    const st = await this.stat(file);
    const type = asObject(st.json)?.contentType;
    if (!succeeded(st)) typeRow.no(`stat: ${said(st)}`);
    else if (type === "application/octet-stream")
      typeRow.documented(`${type} (from the name \`${PROBE_FILE}\`)`);
    else if (type === "text/plain") typeRow.variant("content-type-declared", String(type));
    else typeRow.no(String(type));
  }

  /** Two option sets POSTed one after the other: whether the second replaced or merged. */
  async folderOptions(extras: string[]): Promise<void> {
    const { prefix } = this;
    const setOptions = (body: Record<string, boolean>) =>
      this.write("POST", "/v2/files/options", { query: { filename: prefix }, body });
    const optionsRow = this.expect("options-post");
    const o1 = await setOptions({ scanSpins: true });
    const o2 = await setOptions({ allowListing: false });
    this.check();
    const opts = await this.wire.call("GET", "/v2/files/options", { query: { filename: prefix } });
    extras.push(...undocumentedIn("getFolderOptions", opts, `folder options of ${prefix}`));
    const got = asObject(opts.json) ?? {};
    const shownOpts = JSON.stringify(opts.json);
    if (!succeeded(o1) || !succeeded(o2)) optionsRow.no(`POST: ${said(succeeded(o1) ? o2 : o1)}`);
    else if (got.allowListing === false && got.scanSpins === undefined)
      optionsRow.documented(`kept the last: ${shownOpts}`);
    else if (got.allowListing === false && got.scanSpins === true)
      optionsRow.variant("options-merge", `kept both: ${shownOpts}`);
    else optionsRow.no(`${opts.status} ${shownOpts}`);
  }

  async deleteMissing(): Promise<void> {
    const filename = `${this.prefix}/never-made`;
    const gone = await this.write("POST", "/v2/files/delete", { query: { filename } });
    const deleteRow = this.expect("delete-missing");
    if (succeeded(gone)) deleteRow.variant("delete-missing-ok", `${gone.status} (empty)`);
    else if (isNoSuchFile(gone)) deleteRow.documented(said(gone));
    else deleteRow.no(said(gone));
  }

  /** A point of the file set twice by name, then a point it does not have deleted. */
  async points(file: string | undefined): Promise<void> {
    const poiAgain = this.expect("poi-set-again");
    const poiMissing = this.expect("poi-delete-missing");
    if (!file) {
      poiAgain.unobserved("not observed: no file was uploaded");
      poiMissing.unobserved("not observed: no file was uploaded");
      return;
    }
    const point = { name: "mediahost-doctor", x: 0.1, y: 0.1, width: 0.2, height: 0.2 };
    const p1 = await this.write("POST", "/v2/files/poi", { query: { filename: file }, body: point });
    const p2 = await this.write("POST", "/v2/files/poi", {
      query: { filename: file },
      body: { ...point, x: 0.3 },
    });
    if (!succeeded(p1)) poiAgain.no(`the first set: ${said(p1)}`);
    else if (succeeded(p2)) poiAgain.documented(`${p2.status}: replaced`);
    else if (p2.status === 409) poiAgain.variant("poi-set-conflict", said(p2));
    else poiAgain.no(said(p2));
    const d = await this.write("DELETE", "/v2/files/poi", {
      query: { filename: file },
      body: { name: "mediahost-doctor-none" },
    });
    if (d.status === 404) poiMissing.documented(said(d));
    else if (succeeded(d)) poiMissing.variant("poi-delete-missing-ok", `${d.status} (empty)`);
    else poiMissing.no(said(d));
  }

  /** The file deleted: whether it moved to the trash. */
  async deleteToTrash(file: string | undefined): Promise<void> {
    const trashRow = this.expect("delete-trash");
    if (!file) return trashRow.unobserved("not observed: no file was uploaded");
    const removed = await this.write("POST", "/v2/files/delete", { query: { filename: file } });
    if (!succeeded(removed)) return trashRow.no(`delete: ${said(removed)}`);
    this.made.delete(file);
    this.check();
    const copy = `/.Trash${file}`;
    const there = await this.stat(copy);
    if (succeeded(there)) {
      this.trashed.push(copy);
      trashRow.documented(`moved to ${copy}`);
    } else if (isNoSuchFile(there)) trashRow.variant("delete-final", "gone, and not in `/.Trash`");
    else trashRow.no(`stat ${copy}: ${said(there)}`);
  }

  /** Removes what the probe made and its copies in the trash; tells what is left and how writes answered. */
  async cleanUp(trashHeld: boolean): Promise<void> {
    const { wire, prefix, made, writes } = this;
    const { say } = this.options;
    const left = await removeAll(wire, [...made], say);
    // a delete inside the trash is final
    left.push(...(await removeAll(wire, trashHeld ? this.trashed : await treeUnder(wire, this.trash), say)));
    const after = await this.stat(prefix).catch(() => undefined);
    if (after && !isNoSuchFile(after) && !left.includes(prefix)) left.push(prefix);
    const cleanRow = this.expect("probe-cleanup");
    if (left.length) cleanRow.no(`could not remove ${list(left)}: remove them by hand`);
    else cleanRow.documented(`removed the ${made.size} paths it made`);
    const statusRow = this.expect("writes-status");
    const statuses = [...new Set(writes)];
    if (statuses.every((s) => s === 200)) statusRow.documented(`200 on all ${writes.length} writes`);
    else if (statuses.every((s) => s === 200 || s === 204))
      statusRow.variant(
        "writes-204",
        `204 on ${writes.filter((s) => s === 204).length} of ${writes.length} writes`,
      );
    else statusRow.no(list(statuses.map(String)));
  }
}

/** `folder` and every path under it (none when it does not exist). */
async function treeUnder(wire: Wire, folder: string): Promise<string[]> {
  const paths: string[] = [];
  const walk = async (dir: string): Promise<boolean> => {
    let continuation: string | undefined;
    do {
      const query: Record<string, string> = { dirname: dir, ...(continuation ? { continuation } : {}) };
      const page = await wire.call("GET", "/v2/files/readdir", { query });
      if (!succeeded(page)) return false;
      const json = asObject(page.json);
      for (const e of (Array.isArray(json?.contents) ? json.contents : []) as {
        filename?: unknown;
        isDirectory?: unknown;
      }[]) {
        if (typeof e?.filename !== "string") continue;
        const path = `${dir}/${e.filename}`;
        paths.push(path);
        if (e.isDirectory === true) await walk(path);
      }
      continuation = typeof json?.continuation === "string" ? json.continuation : undefined;
    } while (continuation);
    return true;
  };
  if (await walk(folder)) paths.push(folder);
  return paths;
}

/** Deletes `paths` deepest first; a path already gone is fine. Answers the paths that remain. */
async function removeAll(wire: Wire, paths: string[], say: (line: string) => void): Promise<string[]> {
  const left: string[] = [];
  for (const path of paths.sort((a, b) => depth(b) - depth(a) || b.localeCompare(a))) {
    try {
      const a = await wire.call("POST", "/v2/files/delete", { query: { filename: path } });
      if (!succeeded(a) && !isNoSuchFile(a)) {
        say(`could not remove ${path}: ${said(a)}`);
        left.push(path);
      }
    } catch (err) {
      say(`could not remove ${path}: ${err instanceof Error ? err.message : String(err)}`);
      left.push(path);
    }
  }
  if (paths.length)
    say(
      left.length ? `${left.length} paths left behind` : `removed the ${paths.length} paths the probe made`,
    );
  return left;
}
