// The emulator's web console in a real browser (headless Chromium from Debian's package, driven by
// playwright-core): the quickstart stack deployed by the real CLI is shown; a folder's title and
// an alias are changed by hand through the page (partly from the keyboard alone), and
// mediahost-drift then reports exactly those two properties; a file is uploaded, renamed and
// deleted and minify toggled through the page; no secret (the origin password, the
// client secret, any token) is in the page's HTML, its network answers (the request stream
// included) or the browser's console; the page fits a narrow window; a console error fails the
// test. Screenshots go to test-output/console/ (not committed).
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { chromiumForTests } from "./helpers/browser";
import { openProject, type Project } from "./helpers/project";
import { repoRoot, type Toolchain, toolchainForTests } from "./helpers/toolchain";

const ORIGIN_PASSWORD = "origin-pw-console-3d7a";
const DRIFT_BIN = join(repoRoot, "dist/tools/drift.js");
const NODE = join(repoRoot, "node_modules/.bin/node");
const OUTPUT = join(repoRoot, "test-output", "console");
/** A JWT (every token the emulator issues is one): three base64url parts, the first `{"`. */
const JWT = /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/;
/** In the page: how far the document is wider than the window, and (for a failure) what sticks out. */
const WIDTH_CHECK = `(() => {
  const widest = [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(-5)
    .map((el) => el.tagName.toLowerCase() + "#" + el.id + "." + el.className);
  return { overflow: document.documentElement.scrollWidth - window.innerWidth, widest };
})()`;

function runDrift(
  toolchain: Toolchain,
  p: Project,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [
        DRIFT_BIN,
        "--cwd",
        join(repoRoot, "examples/quickstart"),
        "--backend-url",
        p.backend.backendUrl,
        "--stack",
        p.stack.name,
        "--json",
      ],
      {
        env: {
          ...toolchain.env,
          PULUMI_BACKEND_URL: "",
          PULUMI_HOME: p.backend.pulumiHome,
          PULUMI_CONFIG_PASSPHRASE: p.backend.envVars.PULUMI_CONFIG_PASSPHRASE as string,
        },
        maxBuffer: 16 << 20,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("the emulator's web console in Chromium", async () => {
  const toolchain = await toolchainForTests();
  if (!toolchain) return void it.skip("needs the Pulumi toolchain");
  const chromiumPath = await chromiumForTests();
  if (!chromiumPath) return void it.skip("needs Chromium (scripts/toolchain/chromium.sh)");

  let p: Project;
  let browser: Browser;
  let page: Page;
  /** Everything the browser received or printed, for the secret checks. */
  const seen = { responses: [] as string[], events: [] as string[], console: [] as string[] };
  const errors: string[] = [];

  beforeAll(async () => {
    p = await openProject(toolchain, {
      workDir: "examples/quickstart",
      config: { originPassword: { value: ORIGIN_PASSWORD, secret: true } },
    });
    const up = await p.stack.up();
    expect(up.summary.result).toBe("succeeded");
    // the emulator holds the password: masking, not its absence, keeps it off the page
    expect(p.emulator.control.state(undefined, { secrets: true }).account.fetching.http?.auth?.password).toBe(
      ORIGIN_PASSWORD,
    );

    browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on("console", (m) => {
      seen.console.push(`${m.type()}: ${m.text()}`);
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => {
      // the request stream is cut when the page closes; anything else failing is an error
      if (!r.url().includes("/_emulator/requests/stream")) errors.push(`request failed: ${r.url()}`);
    });
    page.on("response", async (r) => {
      if ((r.headers()["content-type"] ?? "").startsWith("text/event-stream")) return;
      const body = await r.body().catch(() => Buffer.alloc(0));
      seen.responses.push(`${r.url()}\n${body.toString("utf8")}`);
    });
    // the stream's events, as the browser received them
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.eventSourceMessageReceived", (e) => seen.events.push(e.data));
    await mkdir(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await p?.dispose();
  });

  it("shows the quickstart's account: settings with the password masked, aliases, custom domain, limits", async () => {
    await page.goto(p.emulator.consoleUrl);
    await page.waitForSelector("body[data-ready=yes]");
    expect(await page.locator("#minify").isChecked()).toBe(true);
    const fetching = await page.locator("#fetching").innerText();
    expect(fetching).toContain("https://origin.example.com/media");
    expect(fetching).toMatch(/Password\s+hidden \(set\)/);
    const aliases = await page.locator("#aliases").innerText();
    expect(aliases).toMatch(/thumbs\s+\/products\s+yes\s+thumbnail/);
    expect(aliases).toMatch(/web\s+\/\s+yes\s+not set\s+img\.example\.com/);
    const limits = await page.locator("#limits").innerText();
    expect(limits).toMatch(/rest:post:account\s+\d+\s+50\s+\d+\s+\S+/);
    await page.screenshot({ path: join(OUTPUT, "account.png"), fullPage: true });
  });

  it("shows the folder tree, a folder's options and meta, a file's size and type", async () => {
    await page.getByRole("link", { name: "Files" }).click();
    // the tree is drawn from the service's answers: wait for it
    for (const path of ["/products", "/products/shoes", "/products/bags", "/assets/thumbnail.profile.json"])
      await expect
        .poll(() => page.getByRole("button", { name: new RegExp(`^(Folder|File) ${path}$`) }).count())
        .toBe(1);
    await page.getByRole("button", { name: "Folder /products/shoes" }).click();
    expect(await page.locator("#meta-title").inputValue()).toBe("Shoes");
    expect(await page.locator("#meta-description").inputValue()).toBe("Every shoe in the catalog");
    expect(await page.locator("#meta-tags").inputValue()).toBe("catalog, shoes");
    expect(await page.locator("#option-scanSpins").inputValue()).toBe("true");
    expect(await page.locator("#option-nameSpinsAfterFolder").inputValue()).toBe("true");
    expect(await page.locator("#option-allowListing").inputValue()).toBe("");
    await page.getByRole("button", { name: "File /assets/thumbnail.profile.json" }).click();
    const details = await page.locator("#details").innerText();
    expect(details).toMatch(/Size\s+\d+ B/);
    expect(details).toMatch(/Type\s+application\/json/);
  });

  it("keeps the keyboard's place when someone else's write redraws the page", async () => {
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("button", { name: "Edit alias thumbs" }).focus();
    await page.evaluate("window.focusedBefore = document.activeElement");
    // a write from outside the page (the same title again: nothing drifts) makes the page redraw
    const meta = await p.api.ops.getMeta({ query: { filename: "/products/shoes" } });
    await p.api.ops.setMeta({ query: { filename: "/products/shoes" }, body: { title: meta.title } });
    await expect.poll(() => page.evaluate("window.focusedBefore.isConnected")).toBe(false);
    expect(await page.evaluate("document.activeElement.getAttribute('aria-label')")).toBe(
      "Edit alias thumbs",
    );
    await page.getByRole("link", { name: "Files" }).click();
  });

  it("changes a folder's title and an alias by hand; mediahost-drift reports exactly those", async () => {
    // the folder's title, with the mouse
    await page.getByRole("button", { name: "Folder /products/shoes" }).click();
    await page.locator("#meta-title").fill("Boots");
    await page.getByRole("button", { name: "Save meta" }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("meta of /products/shoes: done");
    await page.screenshot({ path: join(OUTPUT, "files.png"), fullPage: true });

    // the alias, from the keyboard alone
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("button", { name: "Edit alias thumbs" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate("document.activeElement && document.activeElement.id"))
      .toBe("alias-prefix");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("/catalog");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#status").innerText()).toBe("save alias thumbs: done");
    await expect.poll(() => page.locator("#aliases").innerText()).toMatch(/thumbs\s+\/catalog/);

    const state = p.emulator.control.state();
    expect(state.meta["/products/shoes"]).toMatchObject({ title: "Boots", tags: ["catalog", "shoes"] });
    expect(state.account.aliases.thumbs).toEqual({
      prefix: "/catalog",
      cdn: true,
      defaultProfile: "thumbnail",
    });
    // the changes were API calls, made for the console
    const hand = p.emulator.control.requests(0).requests.filter((r) => r.via === "console");
    expect(hand.map((r) => [r.operation, r.status])).toEqual([
      ["setMeta", 200],
      ["updateAccount", 200],
    ]);

    const run = await runDrift(toolchain, p);
    expect(run.code, run.stderr).toBe(2);
    const report = JSON.parse(run.stdout) as {
      resources: {
        name: string;
        kind: string;
        properties: { property: string; state: unknown; account: unknown }[];
      }[];
    };
    const named = report.resources.sort((a, b) => a.name.localeCompare(b.name));
    expect(named.map((r) => [r.name, r.kind, r.properties])).toEqual([
      ["shoes-meta", "changed", [{ property: "title", state: "Shoes", account: "Boots" }]],
      ["thumbs", "changed", [{ property: "prefix", state: "/products", account: "/catalog" }]],
    ]);
  });

  it("uploads, renames and deletes a file, and toggles minify, through the page", async () => {
    const paths = () => p.emulator.control.state().tree.map((e) => e.path);
    await page.getByRole("link", { name: "Files" }).click();
    await page.getByRole("button", { name: "Folder /assets" }).click();
    await page
      .locator("#upload-file")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("written by hand") });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("upload /assets/notes.txt: done");
    const uploaded = await p.api.ops.download({ query: { filename: "/assets/notes.txt" } });
    expect(Buffer.from(uploaded).toString()).toBe("written by hand");

    await page.getByRole("button", { name: "File /assets/notes.txt" }).click();
    await page.locator("#rename-to").fill("/assets/renamed.txt");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect
      .poll(() => page.locator("#status").innerText())
      .toBe("rename /assets/notes.txt to /assets/renamed.txt: done");
    expect(paths()).toContain("/assets/renamed.txt");
    expect(paths()).not.toContain("/assets/notes.txt");

    // a delete asks for a second press, not a dialog
    await page.getByRole("button", { name: "Delete this file" }).click();
    expect(paths()).toContain("/assets/renamed.txt");
    await page.getByRole("button", { name: "Delete /assets/renamed.txt? Press again" }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("delete /assets/renamed.txt: done");
    expect(paths()).not.toContain("/assets/renamed.txt");

    await page.getByRole("link", { name: "Account" }).click();
    await page.locator("#minify").uncheck();
    await page.getByRole("button", { name: "Save minify" }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("minify off: done");
    expect(p.emulator.control.state().account.minify).toEqual({ enabled: false });
    await page.locator("#minify").check();
    await page.getByRole("button", { name: "Save minify" }).click();
    await expect.poll(() => p.emulator.control.state().account.minify).toEqual({ enabled: true });
    const hand = p.emulator.control.requests(0).requests.filter((r) => r.via === "console");
    expect(hand.slice(2).map((r) => [r.operation, r.status])).toEqual([
      ["upload", 200],
      ["rename", 200],
      ["deleteFile", 200],
      ["updateAccount", 200],
      ["updateAccount", 200],
    ]);
  });

  it("shows the request log as requests arrive, filtered by operation and status", async () => {
    await page.getByRole("link", { name: "Requests" }).click();
    await p.api.ops.stat({ query: { filename: "/products/shoes" } });
    await expect
      .poll(() => page.locator("#requests tbody").innerText())
      .toContain("/v2/files/stat?filename=/products/shoes");
    await page.locator("#filter-operation").selectOption("setMeta");
    const rows = await page.locator("#requests tbody tr").allInnerTexts();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/\tsetMeta/);
    expect(rows.some((r) => r.includes("setMeta (console)"))).toBe(true);
    await page.locator("#filter-operation").selectOption("");
    await page.locator("#filter-status").selectOption("4");
    for (const row of await page.locator("#requests tbody tr").allInnerTexts())
      expect(row).toMatch(/\t4\d\d\t/);
    await page.locator("#filter-status").selectOption("");
    await page.screenshot({ path: join(OUTPUT, "requests.png"), fullPage: true });
  });

  it("shows the fault settings and changes them", async () => {
    await page.getByRole("link", { name: "Faults" }).click();
    expect(await page.locator("#latencyMs").inputValue()).toBe("0");
    expect(await page.locator("#aliasesUpdate").inputValue()).toBe("merge");
    expect(await page.locator("#mkdirExists").inputValue()).toBe("200");
    await page.locator("#latencyMs").fill("7");
    await page.locator("#mkdirExists").selectOption("409");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("faults and behaviour applied");
    expect(p.emulator.control.faults()).toMatchObject({ latencyMs: 7 });
    expect(p.emulator.control.behaviour()).toEqual({ aliasesUpdate: "merge", mkdirExists: "409" });
    await page.locator("#latencyMs").fill("0");
    await page.locator("#mkdirExists").selectOption("200");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => p.emulator.control.faults().latencyMs).toBe(0);
  });

  it("with a control token, the printed link opens it: the token becomes a script-proof cookie and leaves the URL", async () => {
    const token = "console-e2e-token-0123456789";
    const guarded = await startEmulator({ log: () => {}, controlToken: token });
    const context = await browser.newContext();
    try {
      const other = await context.newPage();
      other.on("console", (m) => {
        if (m.type() === "error") errors.push(`console (token page): ${m.text()}`);
      });
      other.on("pageerror", (e) => errors.push(`page error (token page): ${e.message}`));
      expect(guarded.consoleUrl).toBe(`${guarded.url}/_emulator/console?token=${token}`);
      await other.goto(guarded.consoleUrl);
      await other.waitForSelector("body[data-ready=yes]");
      expect(other.url()).toBe(`${guarded.url}/_emulator/console`);
      expect(await other.locator("#aliases").innerText()).toMatch(/demo\s+\/\s+yes/);
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({
        name: `mediahost-emulator-${guarded.port}`,
        httpOnly: true,
        sameSite: "Strict",
      });
      expect(await other.evaluate("document.cookie")).toBe("");
      // the request stream passes the check too
      await other.getByRole("link", { name: "Requests" }).click();
      await fetch(`${guarded.url}/v2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: "demo-client", clientSecret: "demo-secret" }),
      });
      await expect.poll(() => other.locator("#requests tbody").innerText()).toContain("/v2/token");
      // without the cookie, nothing
      const bare = await fetch(`${guarded.url}/_emulator/state`);
      expect(bare.status).toBe(401);
    } finally {
      await context.close();
      await guarded.stop();
    }
  });

  it("fits a narrow window", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const section of ["Account", "Files", "Requests", "Faults"]) {
      await page.getByRole("link", { name: section }).click();
      const { overflow, widest } = (await page.evaluate(WIDTH_CHECK)) as {
        overflow: number;
        widest: string[];
      };
      expect(overflow, `${section} is wider than the window: ${widest.join(", ")}`).toBeLessThanOrEqual(0);
    }
    await page.getByRole("link", { name: "Account" }).click();
    await page.screenshot({ path: join(OUTPUT, "narrow.png"), fullPage: true });
    console.log(`console screenshots: ${OUTPUT}`);
  });

  it("no secret reached the page, its network answers or its console; no console error", async () => {
    const html = await page.content();
    const everything = {
      html,
      responses: seen.responses.join("\n"),
      events: seen.events.join("\n"),
      console: seen.console.join("\n"),
    };
    expect(seen.responses.length).toBeGreaterThan(5);
    expect(seen.events.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries(everything)) {
      for (const secret of [ORIGIN_PASSWORD, "demo-secret"])
        expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
      expect(JWT.exec(text)?.[0], `a token in ${where}`).toBeUndefined();
    }
    expect(errors).toEqual([]);
  });
});
