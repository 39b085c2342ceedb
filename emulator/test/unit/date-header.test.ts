// The emulator's answers carry the Date of the moment they are sent (emulator/server.ts): the
// provider records an upload's Date as the time the file was written, and counts the file as
// unchanged while its mtime falls within that second (docs/reliability.md, "When a file was
// written"). Node's own Date header is a string cached per second and renewed by a timer, which
// lags the clock on a busy event loop; here the emulator's clock (the global Date, which its
// mtimes follow) moves ahead and Node's cached header does not follow it, as when it lags.
import { afterEach, expect, it, vi } from "vitest";
import { startEmulator } from "../../index";
import { Client } from "../contract/helpers/emulator";

afterEach(() => {
  vi.useRealTimers();
});

it("answers an upload with a Date in the second of the file's mtime, however late Node's cached Date is", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-27T12:00:00.000Z"));
  const emulator = await startEmulator({ log: () => {} });
  try {
    const api = new Client(emulator.url);
    // an answer in this second: Node caches its Date string until its timer renews it
    expect((await api.call("GET", "/v2/account")).status).toBe(200);
    vi.setSystemTime(new Date("2026-11-27T12:00:05.300Z"));
    const upload = await fetch(new URL("/v2/files/upload?filename=%2Fd%2Fa.txt", emulator.url), {
      method: "POST",
      headers: { authorization: `Bearer ${await api.token()}`, "content-type": "text/plain" },
      body: "hello",
    });
    expect(upload.status).toBe(200);
    const answered = Date.parse(upload.headers.get("date") ?? "");
    const stat = await api.call("GET", "/v2/files/stat", { query: { filename: "/d/a.txt" } });
    const mtime = Date.parse(stat.body?.mtime as string);
    expect(mtime).toBe(Date.parse("2026-11-27T12:00:05.300Z"));
    expect(answered).toBe(Date.parse("2026-11-27T12:00:05.000Z"));
  } finally {
    await emulator.stop();
  }
});
