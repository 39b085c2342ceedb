// A real-size account for the default account (`--real-account N`, startEmulator's
// `realAccount`): N files in nested folders of varied sizes, a third of them with meta, some
// with points of interest, options and meta on some folders, beside the system folders every
// account holds. Its size by default is the live sample account's (6,537 files). The same
// content every run: names, bytes, meta and times come from a fixed seed. Files are small (a few
// hundred bytes to a few KB) with real headers, so images have dimensions and 50,000 fit in
// memory. Seeding commits mutations through the state layer (emulator/state.ts), as requests
// do: storage counts, times, content types by extension and media facts are the service's.
import { crc32 } from "node:zlib";
import { joinPath } from "mediahost-contract";
import { fileContent } from "./media";
import { generator } from "./random";
import type { Store } from "./state";
import type { FolderOptions, PointOfInterest } from "./tree";

/** Files of the live sample account, the size a real account is by default. */
export const REAL_ACCOUNT_FILES = 6537;

export interface PlannedFolder {
  path: string;
  depth: number;
  options?: FolderOptions;
  meta?: { title: string; tags: string[] };
}

export interface PlannedFile {
  path: string;
  /** Index over the account's files, in plan order: what picks its bytes, meta and points. */
  index: number;
  meta?: {
    title: string;
    tags: string[];
    product: { id: string; name: string; brand: string; category1: string; category2: string };
  };
  points?: Record<string, PointOfInterest>;
}

export interface AccountPlan {
  /** Parents before children. */
  folders: PlannedFolder[];
  files: PlannedFile[];
}

const TOP = [
  "products",
  "campaigns",
  "brands",
  "editorial",
  "press",
  "stores",
  "ugc",
  "banners",
  "lookbook",
  "team",
  "archive",
  "social",
];
const WORDS = [
  "shoes",
  "bags",
  "summer",
  "winter",
  "hero",
  "detail",
  "outlet",
  "kids",
  "men",
  "women",
  "home",
  "sport",
  "2023",
  "2024",
  "2025",
  "spring",
  "autumn",
  "accessories",
  "jewelry",
  "denim",
];
const TAGS = ["catalog", "hero", "sale", "new", "featured", "lifestyle", "studio", "outdoor", "print", "web"];
const BRANDS = ["Northwind", "Acme", "Globex", "Initech", "Umbrella", "Stark"];
/** Extensions and their share of the files; the content type follows the extension. */
const EXTENSIONS: [string, number][] = [
  ["jpg", 0.55],
  ["png", 0.2],
  ["webp", 0.06],
  ["gif", 0.03],
  ["mp4", 0.04],
  ["pdf", 0.04],
  ["svg", 0.03],
  ["json", 0.02],
  ["txt", 0.03],
];
const DIMENSIONS: [number, number][] = [
  [640, 480],
  [800, 800],
  [1024, 768],
  [1200, 1600],
  [1600, 900],
  [2000, 2000],
  [3000, 2000],
];
/** Files at the root, as a real account's logo and feeds are. */
const ROOT_FILES = ["banner.jpg", "brand-guide.pdf", "favicon.png", "feed.json", "logo.svg"];
const MAX_DEPTH = 4;
/** Average files per folder: the folder count follows the file count. */
const FILES_PER_FOLDER = 30;

const pick = <T>(rng: () => number, list: readonly T[]) => list[Math.floor(rng() * list.length)] as T;

function extension(rng: () => number): string {
  let x = rng();
  for (const [ext, share] of EXTENSIONS) {
    x -= share;
    if (x < 0) return ext;
  }
  return "jpg";
}

/**
 * The account's folders and files, the same for the same `files`: about one folder per 30 files,
 * up to 4 levels deep, files spread by a heavy-tailed weight so that a few folders hold hundreds
 * (their listings page) and most a handful; every third file has meta, every eleventh image
 * points, every fifth folder options and every seventh meta.
 */
export function planRealAccount(files: number): AccountPlan {
  const rng = generator(6537);
  const folders: PlannedFolder[] = TOP.map((name) => ({ path: `/${name}`, depth: 1 }));
  const wanted = Math.max(TOP.length, Math.round(files / FILES_PER_FOLDER));
  const children = new Map<string, number>();
  while (folders.length < wanted) {
    const parent = pick(rng, folders);
    if (parent.depth >= MAX_DEPTH) continue;
    const k = children.get(parent.path) ?? 0;
    children.set(parent.path, k + 1);
    folders.push({ path: `${parent.path}/${pick(rng, WORDS)}-${k}`, depth: parent.depth + 1 });
  }
  folders.sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const [i, f] of folders.entries()) {
    if (i % 5 === 2) f.options = i % 2 === 0 ? { scanSpins: true } : { allowListing: true, scanSpins: false };
    if (i % 7 === 3) f.meta = { title: `Folder ${f.path.slice(1)}`, tags: [pick(rng, TAGS)] };
  }

  const rootFiles = ROOT_FILES.slice(0, Math.min(ROOT_FILES.length, files));
  const weights = folders.map(() => rng() ** 4);
  const sum = weights.reduce((a, b) => a + b, 0);
  const rest = files - rootFiles.length;
  // largest remainder: the counts add up to exactly `rest`
  const exact = weights.map((w) => (w / sum) * rest);
  const counts = exact.map(Math.floor);
  let missing = rest - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of byRemainder) {
    if (missing-- <= 0) break;
    counts[i] = (counts[i] as number) + 1;
  }

  const planned: PlannedFile[] = [];
  const add = (path: string) => {
    const index = planned.length;
    const file: PlannedFile = { path, index };
    const frng = generator(index + 1);
    if (index % 3 === 0) {
      const sku = `SKU-${String(100000 + index)}`;
      const brand = pick(frng, BRANDS);
      file.meta = {
        title: `${brand} ${pick(frng, WORDS)} ${index}`,
        tags: [...new Set([pick(frng, TAGS), pick(frng, TAGS)])],
        product: {
          id: sku,
          name: `${pick(frng, WORDS)} ${index}`,
          brand,
          category1: pick(frng, WORDS),
          category2: pick(frng, WORDS),
        },
      };
    }
    if (index % 11 === 5 && /\.(jpg|png|webp)$/.test(path)) {
      file.points = { face: { x: 0.1, y: 0.1, width: 0.3, height: 0.4 } };
      if (index % 2 === 0) file.points.logo = { x: 0.6, y: 0.75, width: 0.35, height: 0.2 };
    }
    planned.push(file);
  };
  for (const name of rootFiles) add(`/${name}`);
  for (const [i, folder] of folders.entries()) {
    const stem = folder.path.split("/")[1] === "products" ? "product" : "IMG";
    for (let j = 0; j < (counts[i] as number); j++)
      add(joinPath(folder.path, `${stem}-${String(j).padStart(4, "0")}.${extension(rng)}`));
  }
  return { folders, files: planned };
}

// ---- bytes: real headers, then filler, a few hundred bytes to a few KB ----

/** A 1x1 progressive JPEG (the one of emulator/system.ts); its size is set in its SOF2 header. */
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////" +
    "////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

function jpeg(width: number, height: number, filler: Buffer): Buffer {
  const out = Buffer.from(JPEG);
  const sof = out.indexOf(Buffer.from([0xff, 0xc2]));
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  // a comment segment after SOI carries the filler, as cameras' and editors' do
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(filler.length + 2, 2);
  return Buffer.concat([out.subarray(0, 2), com, filler, out.subarray(2)]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function png(width: number, height: number, filler: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("tEXt", Buffer.concat([Buffer.from("Comment\0"), filler])),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function gif(width: number, height: number, filler: Buffer): Buffer {
  const head = Buffer.alloc(13);
  head.write("GIF89a", 0, "latin1");
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  // a comment extension in sub-blocks of at most 255 bytes, then the trailer
  const blocks: Buffer[] = [Buffer.from([0x21, 0xfe])];
  for (let at = 0; at < filler.length; at += 255) {
    const part = filler.subarray(at, at + 255);
    blocks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat([head, ...blocks, Buffer.from([0x00, 0x3b])]);
}

function webp(width: number, height: number, filler: Buffer): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write("VP8X", 0, "latin1");
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const even = filler.length % 2 === 0 ? filler : filler.subarray(1);
  const xmp = Buffer.alloc(8);
  xmp.write("XMP ", 0, "latin1");
  xmp.writeUInt32LE(even.length, 4);
  const body = Buffer.concat([Buffer.from("WEBP"), vp8x, xmp, even]);
  const riff = Buffer.alloc(8);
  riff.write("RIFF", 0, "latin1");
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

function mp4(filler: Buffer): Buffer {
  const ftyp = Buffer.alloc(20);
  ftyp.writeUInt32BE(20, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isom", 16, "latin1");
  const free = Buffer.alloc(8);
  free.writeUInt32BE(filler.length + 8, 0);
  free.write("free", 4, "latin1");
  return Buffer.concat([ftyp, free, filler]);
}

/** Printable bytes the fillers are cut from: made once, the same every run. */
const POOL = (() => {
  const rng = generator(42);
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  const out = Buffer.alloc(8192);
  for (let i = 0; i < out.length; i++) out[i] = alphabet.charCodeAt(Math.floor(rng() * alphabet.length));
  return out;
})();

/** Printable filler of about `size` bytes that starts with the file's path, so no two files share their bytes. */
function filler(path: string, size: number, rng: () => number): Buffer {
  const name = Buffer.from(`${path} `, "latin1");
  const rest = Math.max(0, size - name.length);
  const at = Math.floor(rng() * (POOL.length - rest));
  return Buffer.concat([name, POOL.subarray(at, at + rest)]);
}

/** A planned file's bytes: the same every run. */
export function fileBytes(file: PlannedFile): Buffer {
  const rng = generator(1_000_003 + file.index);
  const [width, height] = pick(rng, DIMENSIONS);
  const pad = filler(file.path, 200 + Math.floor(rng() ** 2 * 3800), rng);
  const ext = file.path.slice(file.path.lastIndexOf(".") + 1);
  switch (ext) {
    case "jpg":
      return jpeg(width, height, pad);
    case "png":
      return png(width, height, pad);
    case "gif":
      return gif(width, height, pad);
    case "webp":
      return webp(width, height, pad);
    case "mp4":
      return mp4(pad);
    case "pdf":
      return Buffer.concat([Buffer.from("%PDF-1.4\n% "), pad, Buffer.from("\n%%EOF\n")]);
    case "svg":
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><!-- ${pad.toString("latin1")} --></svg>\n`,
      );
    case "json":
      return Buffer.from(`${JSON.stringify({ file: file.path, note: pad.toString("latin1") })}\n`);
    default:
      return Buffer.concat([pad, Buffer.from("\n")]);
  }
}

/** When the account's content was made: fixed, so two runs agree to the millisecond. */
const SEEDED_AT = Date.UTC(2025, 0, 6, 9, 0, 0);

/**
 * Fills account `alias` with the plan for `files` files, mutation by mutation through `store`
 * (journaled with --data). Each file's bytes go to the blob store first, as an upload's do.
 */
export async function seedRealAccount(store: Store, alias: string, files: number): Promise<AccountPlan> {
  const plan = planRealAccount(files);
  const blobs = store.world.blobs;
  // a minute apart, in plan order: folders first, then their files
  let time = SEEDED_AT;
  const next = () => (time += 60_000);
  for (const folder of plan.folders) {
    await store.commit({ type: "mkdir", account: alias, path: folder.path, time: next() });
    if (folder.options)
      await store.commit({ type: "setOptions", account: alias, path: folder.path, options: folder.options });
    if (folder.meta)
      await store.commit({ type: "setMeta", account: alias, path: folder.path, meta: folder.meta, time });
  }
  for (const file of plan.files) {
    const bytes = fileBytes(file);
    const hash = await blobs.put(bytes);
    try {
      const content = fileContent(hash, bytes.length, bytes, file.path);
      await store.commit({ type: "writeFile", account: alias, path: file.path, content, time: next() });
    } finally {
      blobs.release(hash);
    }
    if (file.meta)
      await store.commit({ type: "setMeta", account: alias, path: file.path, meta: file.meta, time });
    for (const [name, point] of Object.entries(file.points ?? {}))
      await store.commit({ type: "setPoi", account: alias, path: file.path, name, point });
  }
  return plan;
}
