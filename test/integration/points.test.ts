// PointOfInterest against the emulator over HTTP: one read per file shared by its points, deletes
// that leave the other points, drift under the same name, adoption, import by `path#name`, and the
// service that refuses a name it has (variant poi-set-conflict).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readConfiguration } from "../../provider/config";
import { Lifecycle } from "../../provider/lifecycle";
import { kinds } from "../../provider/resources";
import type { Kind } from "../../provider/resources/kind";
import { Session } from "../../provider/session";
import { putFile } from "./helpers/files";
import { type Harness, startHarness } from "./helpers/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(async () => {
  h.emulator.control.setVariants([]);
  await h.emulator.control.reset();
  h.configure();
  h.mark();
});

const points = (path: string) => h.api().ops.getPoi({ query: { filename: path } });
const face = { path: "/p/a.jpg", name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 };
const rectOf = ({ x, y, width, height }: typeof face) => ({ x, y, width, height });
const logo = { path: "/p/a.jpg", name: "logo", x: 0.5, y: 0.5, width: 0.5, height: 0.5 };

describe("PointOfInterest", () => {
  it("creates points of one file, and a refresh reads them with one call for the file", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const made = await Promise.all([h.create("PointOfInterest", face), h.create("PointOfInterest", logo)]);
    expect(made.map((m) => m.id)).toEqual(["/p/a.jpg#face", "/p/a.jpg#logo"]);
    expect(await points("/p/a.jpg")).toEqual({
      face: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
      logo: { x: 0.5, y: 0.5, width: 0.5, height: 0.5 },
    });

    h.configure(); // a new run
    h.mark();
    const seen = await Promise.all(
      made.map((m, i) => h.refresh("PointOfInterest", m.id, m.outs, i === 0 ? face : logo)),
    );
    expect(seen.map((s) => s.changes)).toEqual([[], []]);
    expect(h.calls().getPoi).toBe(1);
  });

  it("reads a file's points once in a run, however its points' writes interleave with their reads", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    h.mark();
    const a = await h.create("PointOfInterest", face);
    const b = await h.create("PointOfInterest", logo);
    expect(h.calls()).toMatchObject({ getPoi: 1, setPoi: 2 });
    // what the run holds of the file after its writes is what the service holds: a read sees both
    const seen = await Promise.all([
      h.refresh("PointOfInterest", a.id, a.outs, face),
      h.refresh("PointOfInterest", b.id, b.outs, logo),
    ]);
    expect(seen.map((s) => s.changes)).toEqual([[], []]);
    // a delete takes its name out of it; the other point stays
    await h.destroy("PointOfInterest", a.id, a.outs);
    expect(await h.refresh("PointOfInterest", a.id, a.outs, face)).toMatchObject({ gone: true });
    expect((await h.refresh("PointOfInterest", b.id, b.outs, logo)).changes).toEqual([]);
    expect(h.calls().getPoi).toBe(1);
    expect(Object.keys(await points("/p/a.jpg"))).toEqual(["logo"]);
  });

  it("sees a point set out of band under the same name as drift, and a point deleted elsewhere as gone", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const a = await h.create("PointOfInterest", face);
    const b = await h.create("PointOfInterest", logo);
    await h.api().ops.setPoi({
      query: { filename: "/p/a.jpg" },
      body: { name: "face", x: 0.15, y: 0.2, width: 0.3, height: 0.4 },
    });
    h.configure();
    const drift = await h.refresh("PointOfInterest", a.id, a.outs, face);
    expect(drift.changes).toEqual(["x"]);
    expect(drift.outs.x).toBe(0.15);
    await h.api().ops.deletePoi({ query: { filename: "/p/a.jpg" }, body: { name: "logo" } });
    h.configure();
    expect((await h.refresh("PointOfInterest", b.id, b.outs, logo)).gone).toBe(true);
  });

  it("updates and deletes one point, leaving the file's others", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const a = await h.create("PointOfInterest", face);
    await h.create("PointOfInterest", logo);
    await h.api().ops.setPoi({
      query: { filename: "/p/a.jpg" },
      body: { name: "theirs", x: 0, y: 0, width: 1, height: 1 },
    });
    h.mark();
    const outs = await h.update("PointOfInterest", a.id, a.outs, { ...face, width: 0.5 });
    expect(h.calls()).toMatchObject({ setPoi: 1 });
    expect((await points("/p/a.jpg")).face?.width).toBe(0.5);
    await h.destroy("PointOfInterest", a.id, outs);
    expect(Object.keys(await points("/p/a.jpg")).sort()).toEqual(["logo", "theirs"]);
  });

  it("refuses a point that exists already without adopt, and puts an adopted one back on delete", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const theirs = { x: 0, y: 0, width: 0.2, height: 0.2 };
    await h.api().ops.setPoi({ query: { filename: "/p/a.jpg" }, body: { name: "face", ...theirs } });
    await expect(h.create("PointOfInterest", face)).rejects.toThrow(/adopt/);
    const adopted = await h.create("PointOfInterest", { ...face, adopt: true });
    expect((await points("/p/a.jpg")).face).toEqual({ x: 0.1, y: 0.2, width: 0.3, height: 0.4 });
    await h.destroy("PointOfInterest", adopted.id, adopted.outs);
    expect((await points("/p/a.jpg")).face).toEqual(theirs);
  });

  it("takes over a point where the program puts it already with the file's one read and no write", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    await h.api().ops.setPoi({ query: { filename: "/p/a.jpg" }, body: { name: "face", ...rectOf(face) } });
    await h.api().ops.setPoi({ query: { filename: "/p/a.jpg" }, body: { name: "logo", ...rectOf(face) } });
    h.configure();
    h.mark();
    const [a, b] = await Promise.all([
      h.create("PointOfInterest", { ...face, adopt: true }),
      h.create("PointOfInterest", { ...face, name: "logo", adopt: true }),
    ]);
    expect([a?.outs.__adopted, b?.outs.__adopted]).toEqual([
      { prior: rectOf(face) },
      { prior: rectOf(face) },
    ]);
    expect(h.calls()).toEqual({ token: 1, getAccount: 1, getPoi: 1 });
  });

  it("imports by path#name", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    await h.api().ops.setPoi({
      query: { filename: "/p/a.jpg" },
      body: { name: "zoom", x: 0.25, y: 0.25, width: 0.5, height: 0.5 },
    });
    // as the native face imports: a lifecycle of its own, on the provider's configuration
    const config: Record<string, string> = {
      "mediahost:baseUrl": h.emulator.url,
      "mediahost:clientId": "demo-client",
      "mediahost:clientSecret": "demo-secret",
    };
    const lifecycle = new Lifecycle(new Session(readConfiguration({ config: (k) => config[k], env: {} })));
    const kind = kinds.PointOfInterest as unknown as Kind;
    const read = await lifecycle.import(kind, "/p/a.jpg#zoom");
    expect(read?.inputs).toEqual({
      path: "/p/a.jpg",
      name: "zoom",
      x: 0.25,
      y: 0.25,
      width: 0.5,
      height: 0.5,
    });
    expect(await lifecycle.import(kind, "/p/a.jpg#none")).toBeUndefined();
    await expect(lifecycle.import(kind, "/p/a.jpg")).rejects.toThrow('imported by "<path>#<name>"');
  });

  it("changes a point on a service that refuses a name it has (poi-set-conflict)", async () => {
    await putFile(h.api(), "/p/a.jpg", "img");
    const a = await h.create("PointOfInterest", face);
    h.emulator.control.setVariants(["poi-set-conflict"]);
    await h.update("PointOfInterest", a.id, a.outs, { ...face, x: 0 });
    expect((await points("/p/a.jpg")).face?.x).toBe(0);
  });

  it("refreshes 100 files, each with meta and two points, with one getMeta and one getPoi a file", async () => {
    const n = 100;
    const made = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const path = `/cat/f${String(i).padStart(3, "0")}.jpg`;
        const file = { path, content: "img" };
        const meta = { path, title: `F${i}`, product: { id: `sku-${i}` } };
        const points = [
          { ...face, path },
          { ...logo, path },
        ] as const;
        return {
          specs: [
            ["File", file],
            ["FolderMeta", meta],
            ["PointOfInterest", points[0]],
            ["PointOfInterest", points[1]],
          ] as const,
          made: [
            await h.create("File", file),
            await h.create("FolderMeta", meta),
            await h.create("PointOfInterest", points[0]),
            await h.create("PointOfInterest", points[1]),
          ],
        };
      }),
    );
    h.configure(); // a new run, as `pulumi refresh` is
    h.mark();
    const seen = await Promise.all(
      made.flatMap(({ specs, made }) =>
        specs.map(([kind, program], i) => h.refresh(kind, made[i]!.id, made[i]!.outs, program)),
      ),
    );
    expect(seen.filter((s) => s.changes.length > 0 || s.gone)).toEqual([]);
    const calls = h.calls();
    // the files from their folder's listing (a page per 100), meta and points one call a file
    expect(calls).toMatchObject({ getMeta: n, getPoi: n });
    expect(calls.readdir ?? 0).toBeLessThanOrEqual(2);
    expect(calls.stat ?? 0).toBe(0);
  }, 60_000);
});
