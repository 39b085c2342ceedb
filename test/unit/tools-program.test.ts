// mediahost-generate's naming and code generation, from account snapshots.
import { describe, expect, it } from "vitest";
import { identifier, NameAllocator, slug } from "../../tools/lib/names";
import { generateProgram, literal } from "../../tools/lib/program";
import type { AccountSnapshot } from "../../tools/lib/read-account";

const options = { project: "mediahost-demo", providerVersion: "^0.1.0", source: "http://x", depth: 2 };

function snapshot(partial: Partial<AccountSnapshot>): AccountSnapshot {
  return {
    accountAlias: "demo",
    aliases: [],
    folders: [{ path: "/" }],
    truncatedAt: [],
    systemFolders: [],
    files: [],
    largeFiles: [],
    fileDetails: [],
    ...partial,
  };
}

describe("names", () => {
  it("slugs paths and names readably", () => {
    expect(slug("/products/Running Shoes")).toBe("products-running-shoes");
    expect(slug("/Café/Ünïcode")).toBe("cafe-unicode");
    expect(slug("/")).toBe("root");
    expect(slug("//--//")).toBe("root");
  });

  it("makes identifiers that compile", () => {
    expect(identifier("products-running-shoes")).toBe("productsRunningShoes");
    expect(identifier("2024", "f")).toBe("f2024");
    expect(identifier("delete", "f")).toBe("fDelete");
    expect(identifier("config", "f")).toBe("fConfig");
  });

  it("numbers collisions", () => {
    const names = new NameAllocator();
    expect(["a-b", "a-b", "a-b"].map((n) => names.take(n))).toEqual(["a-b", "a-b-2", "a-b-3"]);
  });
});

describe("generateProgram", () => {
  it("declares settings with secrets from config, never their values", () => {
    const out = generateProgram(
      snapshot({
        minify: { enabled: true },
        fetching: {
          enabled: true,
          type: "http",
          http: { url: "https://o", auth: { enabled: true, username: "u" } },
        },
      }),
      options,
    );
    const code = out.files["index.ts"] as string;
    expect(code).toContain('password: config.requireSecret("fetchingHttpPassword")');
    expect(code).toContain("minify: { enabled: true }");
    expect(out.secrets).toEqual(["fetchingHttpPassword"]);
    const s3 = generateProgram(
      snapshot({ fetching: { enabled: true, type: "s3", s3: { accessKeyId: "AK", bucket: "b" } } }),
      options,
    );
    expect(s3.files["index.ts"]).toContain(
      'secretAccessKey: config.requireSecret("fetchingS3SecretAccessKey")',
    );
    expect(s3.secrets).toEqual(["fetchingS3SecretAccessKey"]);
  });

  it("adopts aliases, domains and folders, and gives colliding paths distinct names and variables", () => {
    const out = generateProgram(
      snapshot({
        aliases: [{ name: "web", prefix: "/", cdn: true, customDomain: "img.example.com" }],
        folders: [
          { path: "/" },
          { path: "/a b" },
          { path: "/a b/c", meta: { title: "C" } },
          { path: "/a-b" },
          { path: "/a-b/c", options: { scanSpins: true } },
        ],
      }),
      options,
    );
    const code = out.files["index.ts"] as string;
    expect(code).toContain(
      'const webAlias = new mediahost.Alias("web", { name: "web", prefix: "/", cdn: true, adopt: true });',
    );
    expect(code).toContain(
      'new mediahost.CustomDomain("img-example-com", { alias: webAlias.name, domain: "img.example.com", adopt: true });',
    );
    expect(code).toContain('const aB = new mediahost.Folder("a-b", { path: "/a b", adopt: true });');
    expect(code).toContain(
      'const aBC = new mediahost.Folder("a-b-c", { path: "/a b/c", adopt: true }, { dependsOn: [aB] });',
    );
    expect(code).toContain(
      'new mediahost.FolderMeta("a-b-c-meta", { path: aBC.path, title: "C", adopt: true });',
    );
    expect(code).toContain('const aB2 = new mediahost.Folder("a-b-2", { path: "/a-b", adopt: true });');
    expect(code).toContain(
      'const aBC2 = new mediahost.Folder("a-b-c-2", { path: "/a-b/c", adopt: true }, { dependsOn: [aB2] });',
    );
    expect(code).toContain(
      'new mediahost.FolderOptions("a-b-c-2-options", { path: aBC2.path, scanSpins: true, adopt: true });',
    );
    expect(out.counts).toEqual({ Alias: 1, CustomDomain: 1, Folder: 4, FolderMeta: 1, FolderOptions: 1 });
  });

  it("names the account on every resource when one is given, and says what was left out", () => {
    const out = generateProgram(
      snapshot({ minify: { enabled: false }, folders: [{ path: "/" }, { path: "/x" }], truncatedAt: ["/x"] }),
      { ...options, account: "eu" },
    );
    const code = out.files["index.ts"] as string;
    expect(code).toContain(
      'new mediahost.AccountSettings("settings", { minify: { enabled: false }, account: "eu" });',
    );
    expect(code).toContain('new mediahost.Folder("x", { path: "/x", adopt: true, account: "eu" });');
    expect(code).toContain("// Not declared: folders deeper than 2 levels, under 1 folder(s),");
  });

  it("writes Pulumi.yaml and package.json for a TypeScript nodejs program", () => {
    const out = generateProgram(snapshot({}), options);
    expect(out.files["Pulumi.yaml"]).toMatch(
      /^name: mediahost-demo\n[\s\S]*main: index\.ts\nruntime:\n {2}name: nodejs/,
    );
    // the SDK as the provider's own package.json declares it (any supported 3.x)
    const manifest = require("../../package.json") as { dependencies: Record<string, string> };
    expect(JSON.parse(out.files["package.json"] as string).dependencies).toEqual({
      "@pulumi/pulumi": manifest.dependencies["@pulumi/pulumi"],
      "pulumi-mediahost": "^0.1.0",
    });
  });

  it("writes string literals safely", () => {
    const placeholder = "$" + "{x}"; // a template placeholder must stay text
    expect(literal({ title: `He said "hi"\n\`${placeholder}\``, "odd-key": 1 })).toBe(
      `{ title: "He said \\"hi\\"\\n\`${placeholder}\`", "odd-key": 1 }`,
    );
  });
});

describe("files (--files)", () => {
  it("declares each file from its copy under files/, after its folder, and names the ones left out", () => {
    const bytes = new TextEncoder().encode("size chart");
    const out = generateProgram(
      snapshot({
        folders: [{ path: "/" }, { path: "/products" }],
        files: [
          { path: "/products/size chart.txt", bytes },
          { path: "/robots.txt", bytes },
        ],
        largeFiles: [{ path: "/products/video.mp4", size: 9_000_000 }],
      }),
      { ...options, maxFileSize: 1024 },
    );
    const code = out.files["index.ts"] as string;
    expect(code).toMatch(
      /new mediahost\.File\("products-size-chart-txt", \{\s+path: "\/products\/size chart\.txt",\s+source: new pulumi\.asset\.FileAsset\("files\/products\/size chart\.txt"\),\s+adopt: true,?\s+\}, \{ dependsOn: \[products\] \}\);/,
    );
    expect(code).toMatch(
      /new mediahost\.File\("robots-txt", \{\s*path: "\/robots\.txt",\s+source: new pulumi\.asset\.FileAsset\("files\/robots\.txt"\),\s+adopt: true,?\s*\}\);/,
    );
    expect(code).toContain("// Not declared: 1 file(s) over 1024 bytes, e.g. /products/video.mp4.");
    expect(Object.keys(out.assets).sort()).toEqual(["files/products/size chart.txt", "files/robots.txt"]);
    expect(out.assets["files/robots.txt"]).toBe(bytes);
    expect(out.counts.File).toBe(2);
  });

  it("declares a file's meta and points after it, by its path output, and those of a larger file by path", () => {
    const bytes = new TextEncoder().encode("jpeg");
    const out = generateProgram(
      snapshot({
        folders: [{ path: "/" }, { path: "/products" }],
        files: [
          { path: "/products/hero.jpg", bytes },
          { path: "/products/plain.jpg", bytes },
        ],
        largeFiles: [{ path: "/products/big.jpg", size: 9_000_000 }],
        fileDetails: [
          { path: "/products/big.jpg", points: [{ name: "Logo", x: 0, y: 0, width: 1, height: 0.5 }] },
          {
            path: "/products/hero.jpg",
            meta: { title: "Hero", product: { id: "sku-1" }, approval: { approved: true } },
            points: [
              { name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
              { name: "logo", x: 0.5, y: 0.5, width: 0.25, height: 0.25 },
            ],
          },
        ],
      }),
      { ...options, maxFileSize: 1024 },
    );
    const code = out.files["index.ts"] as string;
    expect(code).toContain('const productsHeroJpg = new mediahost.File("products-hero-jpg", {');
    // a file with nothing on it gets no variable
    expect(code).toContain('new mediahost.File("products-plain-jpg", {');
    expect(code).not.toContain("const productsPlainJpg");
    expect(code).toMatch(
      /new mediahost\.FolderMeta\("products-hero-jpg-meta", \{\s+path: productsHeroJpg\.path,\s+title: "Hero",\s+product: \{ id: "sku-1" \},\s+approval: \{ approved: true \},\s+adopt: true,\s+\}\);/,
    );
    expect(code).toMatch(
      /new mediahost\.PointOfInterest\("products-hero-jpg-face", \{\s+path: productsHeroJpg\.path,\s+name: "face",\s+x: 0\.1,\s+y: 0\.2,\s+width: 0\.3,\s+height: 0\.4,\s+adopt: true,\s+\}\);/,
    );
    expect(code).toContain('new mediahost.PointOfInterest("products-hero-jpg-logo", {');
    // the larger file is not declared, its point is, by its path
    expect(code).toMatch(
      /new mediahost\.PointOfInterest\("products-big-jpg-logo", \{\s+path: "\/products\/big\.jpg",\s+name: "Logo",/,
    );
    expect(code.indexOf("products-hero-jpg-face")).toBeGreaterThan(code.indexOf('"products-hero-jpg", {'));
    expect(out.counts).toMatchObject({ File: 2, FolderMeta: 1, PointOfInterest: 3 });
  });
});
