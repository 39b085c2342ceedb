import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../index";

const dirs: string[] = [];
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dataDir: string) {
  const emu = await startEmulator({ dataDir, log: () => {} });
  running.push(emu);
  const t = await fetch(`${emu.url}/v2/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientId: "demo-client", clientSecret: "demo-secret" }),
  });
  const { token } = (await t.json()) as { token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emu.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, text: await res.text() };
  };
  return { emu, call, token };
}

describe("emulator persistence", () => {
  it("replays every acknowledged write after a crash (no orderly stop)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-data-"));
    dirs.push(dir);
    const first = await start(dir);
    expect((await first.call("POST", "/v2/files/mkdir?dirname=/kept")).status).toBe(200);
    expect((await first.call("POST", "/v2/files/meta/title?filename=/kept", { title: "T" })).status).toBe(
      200,
    );
    expect((await first.call("POST", "/v2/account", { aliases: { cdn2: { prefix: "/kept" } } })).status).toBe(
      200,
    );
    expect((await first.call("POST", "/v2/account/sub-account", { alias: "kid" })).status).toBe(200);

    // a second process on the same folder sees what the first acknowledged: the journal
    // was on disk before each answer, whatever happens to the first one now
    const second = await start(dir);
    expect(JSON.parse((await second.call("GET", "/v2/files/meta/title?filename=/kept")).text)).toEqual({
      title: "T",
    });
    expect(JSON.parse((await second.call("GET", "/v2/account")).text).aliases.cdn2).toEqual({
      prefix: "/kept",
    });
    expect(second.emu.control.state().subAccounts).toEqual(["kid"]);
    // and tokens signed before the restart still work
    const res = await fetch(`${second.emu.url}/v2/account`, {
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(res.status).toBe(200);
  });

  it("ignores a torn last journal line and compacts on start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-data-"));
    dirs.push(dir);
    const first = await start(dir);
    await first.call("POST", "/v2/files/mkdir?dirname=/a");
    appendFileSync(join(dir, "journal.jsonl"), '{"seq":99,"m":{"type":"mkd');
    const second = await start(dir);
    expect((await second.call("GET", "/v2/files/stat?filename=/a")).status).toBe(200);
    expect(readFileSync(join(dir, "journal.jsonl"), "utf8")).toBe("");
    expect(JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8")).accounts[0].alias).toBe("demo");
  });

  it("keeps file contents as files and drops them when no file refers to them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-data-"));
    dirs.push(dir);
    const { call, emu } = await start(dir);
    const link = JSON.parse((await call("GET", "/v2/files/tus/url?location=local")).text) as { url: string };
    const meta = `filename ${Buffer.from("/f.txt").toString("base64")}`;
    const created = await fetch(link.url, {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "3",
        "upload-metadata": meta,
        "content-type": "application/offset+octet-stream",
      },
      body: "abc",
    });
    expect(created.status).toBe(201);
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(1);
    expect((await call("POST", "/v2/files/copy?from=/f.txt&to=/g.txt")).status).toBe(200);
    await call("POST", "/v2/files/delete?filename=/f.txt");
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(1);
    await call("POST", "/v2/files/delete?filename=/g.txt");
    // both in the trash now: their bytes stay until a delete there, which is final
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(1);
    expect((await fetch(`${emu.url}/cdn/demo/g.txt`)).status).toBe(404);
    await call("POST", "/v2/files/delete?filename=/.Trash/f.txt");
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(1);
    await call("POST", "/v2/files/delete?filename=/.Trash/g.txt");
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(0);
  });

  it("keeps the system folders and the trash across a restart; their built-in bytes are never stored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-data-"));
    dirs.push(dir);
    const first = await start(dir);
    expect((await first.call("GET", "/v2/files/stat?filename=/Profiles/Default.profile")).status).toBe(200);
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(0);
    await first.call("POST", "/v2/files/delete?filename=/Profiles/Thumbnail.profile");
    await first.call("POST", "/v2/files/delete?filename=/Shared");
    const before = first.emu.control.state().tree;

    // a second process on the same folder (the first never stopped): journal replayed
    const second = await start(dir);
    expect(second.emu.control.state().tree).toEqual(before);
    const paths = before.map((e) => e.path);
    expect(paths).toContain("/.Trash/Profiles/Thumbnail.profile");
    expect(paths).not.toContain("/Profiles/Thumbnail.profile");
    expect(paths).not.toContain("/Shared");
    const profile = await second.call(
      "GET",
      "/v2/files/download?filename=/.Trash/Profiles/Thumbnail.profile",
    );
    expect(profile.status).toBe(200);
    expect(JSON.parse(profile.text)).toHaveProperty("scale");
    expect((await second.call("GET", "/v2/files/download?filename=/.Trash/old-banner.jpg")).status).toBe(200);

    // a third, from the compacted snapshot
    await second.emu.stop();
    const third = await start(dir);
    expect(third.emu.control.state().tree).toEqual(before);
    expect(readdirSync(join(dir, "blobs"))).toHaveLength(0);
  });

  it("replays an earlier version's journal as it was: its accounts began without system folders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-data-"));
    dirs.push(dir);
    const creds = { alias: "demo", clientId: "demo-client", clientSecret: "demo-secret" };
    const lines = [
      { seq: 1, m: { type: "addAccount", creds, time: Date.parse("2026-01-01T00:00:00Z") } },
      {
        seq: 2,
        m: { type: "mkdir", account: "demo", path: "/old", time: Date.parse("2026-01-02T00:00:00Z") },
      },
      {
        seq: 3,
        m: { type: "mkdir", account: "demo", path: "/gone", time: Date.parse("2026-01-02T00:00:00Z") },
      },
      { seq: 4, m: { type: "delete", account: "demo", path: "/gone", recursive: false } },
    ];
    appendFileSync(join(dir, "journal.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const { emu } = await start(dir);
    expect(emu.control.state().tree.map((e) => e.path)).toEqual(["/old"]);
  });
});
