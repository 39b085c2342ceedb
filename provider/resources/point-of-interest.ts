// PointOfInterest: one named rectangle on a file (cropping and zoom use them), its coordinates
// fractions 0..1 of the image. The service keeps a file's points by name and reads them all in one
// call (docs/api.md#points-of-interest): the resources of one file read in a run share that call
// (single flight). A write sets or deletes one name, so the file's other points are never
// touched: one that succeeds puts its name into what was read (the file's next point needs no read
// of its own), one that fails drops what was read. A point found under the name at create is taken
// over only with `adopt: true`, and put back as found on delete. A repeat of a `setPoi` whose
// answer was lost is settled by the client (provider/client/policy.ts).

import { z } from "zod";
import { MediahostError } from "../client";
import { ProviderError } from "../errors";
import { Ref } from "./example";
import { defineKind, type KindContext } from "./kind";
import { WritablePath } from "./schema";

const fraction = (what: string) =>
  z
    .number({ message: "must be a number" })
    .min(0, { message: "must be at least 0" })
    .max(1, { message: `must be at most 1 (a fraction of the image's ${what})` });

/** Rounding of the sums below: 0.1 + 0.9 is not exactly 1 in floating point. */
const EPSILON = 1e-9;

const inRange = (...values: number[]) => values.every((v) => v >= 0 && v <= 1);

const inputs = z
  .strictObject({
    /** Absolute path of the file (at most 1024 characters). Changing it replaces the point. */
    path: WritablePath,
    /** The point's name (at most 256 characters), unique on its file. Changing it replaces the point. */
    name: z
      .string()
      .min(1, { message: "must not be empty" })
      .max(256, { message: "must be at most 256 characters" }),
    /** Left edge, a fraction 0..1 of the image's width. */
    x: fraction("width"),
    /** Top edge, a fraction 0..1 of the image's height. */
    y: fraction("height"),
    /** Width, a fraction 0..1 of the image's width; `x + width` is at most 1. */
    width: fraction("width"),
    /** Height, a fraction 0..1 of the image's height; `y + height` is at most 1. */
    height: fraction("height"),
    /** Take over a point of that name that exists already; on delete it is put back as found. */
    adopt: z.boolean().optional(),
  })
  // a coordinate out of 0..1 is reported on its own, not again as a rectangle that does not fit
  .refine((p) => !inRange(p.x, p.width) || p.x + p.width <= 1 + EPSILON, {
    message: "x + width must be at most 1: the rectangle must fit the image",
    path: ["width"],
  })
  .refine((p) => !inRange(p.y, p.height) || p.y + p.height <= 1 + EPSILON, {
    message: "y + height must be at most 1: the rectangle must fit the image",
    path: ["height"],
  });

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
type Points = Record<string, Rect>;

/** The points of each file read in this run, one call per file however many resources ask. */
class PointReads {
  private readonly files = new Map<string, Promise<Points>>();

  read(ctx: KindContext, path: string): Promise<Points> {
    let reading = this.files.get(path);
    if (!reading) {
      reading = ctx.client.ops.getPoi({ query: { filename: path } }) as Promise<Points>;
      this.files.set(path, reading);
      // a failed read is not kept: the next resource asks again
      reading.catch(() => {
        if (this.files.get(path) === reading) this.files.delete(path);
      });
    }
    return reading;
  }

  /** The write of `name` on the file succeeded: what was read holds it now (`undefined`: deleted). */
  wrote(path: string, name: string, point: Rect | undefined): void {
    const reading = this.files.get(path);
    if (!reading) return;
    const next = reading.then((points) => {
      const { [name]: _, ...others } = points;
      return point ? { ...others, [name]: rect(point) } : others;
    });
    this.files.set(path, next);
    next.catch(() => {
      if (this.files.get(path) === next) this.files.delete(path);
    });
  }

  /** A write whose outcome is not known: what was read of the file is no longer to be trusted. */
  forget(path: string): void {
    this.files.delete(path);
  }
}

const readsOf = (ctx: KindContext) => ctx.account.shared("points-of-interest", () => new PointReads());

const rect = (p: Rect): Rect => ({ x: p.x, y: p.y, width: p.width, height: p.height });

/** Sets the point; a service that refuses a name it has (variant `poi-set-conflict`) gets it deleted first. */
async function setPoint(ctx: KindContext, path: string, name: string, point: Rect): Promise<void> {
  const reads = readsOf(ctx);
  try {
    try {
      await ctx.client.ops.setPoi({ query: { filename: path }, body: { name, ...rect(point) } });
    } catch (err) {
      if (!(err instanceof MediahostError && err.kind === "http" && err.status === 409)) throw err;
      await ctx.client.ops.deletePoi({ query: { filename: path }, body: { name } });
      await ctx.client.ops.setPoi({ query: { filename: path }, body: { name, ...rect(point) } });
    }
  } catch (err) {
    reads.forget(path);
    throw err;
  }
  reads.wrote(path, name, point);
}

/** `path#name`: the path is everything before the last `#`. */
function identity(id: string): { path: string; name: string } {
  const at = id.lastIndexOf("#");
  if (at <= 0 || at === id.length - 1)
    throw new ProviderError(
      `a point of interest is imported by "<path>#<name>", e.g. "/shoes/a.jpg#face": got "${id}"`,
    );
  return { path: id.slice(0, at), name: id.slice(at + 1) };
}

export const pointOfInterest = defineKind({
  name: "PointOfInterest",
  inputs,
  outputs: {},
  replaceOn: ["path", "name"],
  // it sits on its file: when the folder holding it moves, it follows
  tree: { location: "path", belongsTo: "path" },
  id: (i) => `${i.path}#${i.name}`,
  importing: { identity, id: { form: "`<file path>#<point name>`", example: "/products/shoe.svg#face" } },
  docs: {
    summary:
      "One named rectangle on a file (a point of interest), in fractions 0..1 of the image. Deleting it leaves the file's other points.",
    properties:
      "`path`, `name`, `x`, `y`, `width`, `height` (fractions 0..1; the rectangle fits the image), `adopt`",
    delete: "deletes this point only (an adopted resource puts back what it found)",
    drift: "`x`, `y`, `width`, `height`; a point deleted elsewhere is gone",
    example: {
      title: "A named rectangle on an image, for cropping and zoom",
      name: "shoe-face",
      before: [
        {
          kind: "File",
          name: "shoe",
          args: {
            path: "/products/shoe.svg",
            content: '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"/>',
            contentType: "image/svg+xml",
          },
        },
      ],
      args: { path: new Ref("shoe", "path"), name: "face", x: 0.25, y: 0.1, width: 0.5, height: 0.4 },
    },
  },

  async create(ctx, point) {
    const found = (await readsOf(ctx).read(ctx, point.path))[point.name];
    if (found) ctx.found(`its point of interest "${point.name}"`, rect(found));
    // taken over where the program puts it already: nothing to write
    const same = found && (["x", "y", "width", "height"] as const).every((k) => found[k] === point[k]);
    if (!same) await setPoint(ctx, point.path, point.name, point);
    return {};
  },

  // the points of one file come in one call, shared by every point of it read in the run
  refreshReads: (olds) => [{ operation: "getPoi", key: olds.path, batch: Infinity }],

  async read(ctx, olds) {
    const found = (await readsOf(ctx).read(ctx, olds.path))[olds.name];
    return found ? rect(found) : undefined;
  },

  async update(ctx, _olds, news) {
    await setPoint(ctx, news.path, news.name, news);
    return {};
  },

  async delete(ctx, olds) {
    if (ctx.containerLeaving) {
      ctx.keep("left with its folder, which this run moves");
      return;
    }
    const prior = olds.__adopted?.prior as Rect | undefined;
    if (prior) {
      await setPoint(ctx, olds.path, olds.name, prior);
      return;
    }
    const reads = readsOf(ctx);
    try {
      await ctx.client.ops.deletePoi({ query: { filename: olds.path }, body: { name: olds.name } });
    } catch (err) {
      reads.forget(olds.path);
      throw err;
    }
    reads.wrote(olds.path, olds.name, undefined);
  },
});
