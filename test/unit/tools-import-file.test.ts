// mediahost-generate --import-file: every object read becomes a `pulumi import --file` entry with
// the id the provider records, named as the generated program names it; what import cannot take
// is said.
import { describe, expect, it } from "vitest";
import { importDocumentOf } from "../../tools/lib/import-file";
import { importDocument } from "../../tools/lib/pending";
import type { AccountSnapshot } from "../../tools/lib/read-account";

const snapshot: AccountSnapshot = {
  accountAlias: "demo",
  minify: { enabled: true },
  fetching: {
    enabled: true,
    type: "http",
    http: { url: "https://o.example", auth: { enabled: true, username: "u" } },
  },
  aliases: [
    { name: "web", prefix: "/", customDomain: "img.example.com" },
    { name: "thumbs", prefix: "/t" },
  ],
  folders: [
    { path: "/", options: { allowListing: true } },
    { path: "/products", meta: { title: "Products" } },
    { path: "/products/shoes", options: { scanSpins: true }, meta: { tags: ["a"] } },
    { path: "/products/boots", meta: { product: { id: "sku-1" } } },
  ],
  truncatedAt: [],
  systemFolders: [],
  files: [
    { path: "/products/readme.txt", bytes: Buffer.from("hello") },
    { path: "/products/photo.png", bytes: Buffer.from([0xff, 0xd8, 0xff, 0x00, 0xc3]) },
  ],
  largeFiles: [{ path: "/big.mp4", size: 5_000_000 }],
  fileDetails: [
    { path: "/big.mp4", meta: { product: { id: "sku-2" } }, points: [] },
    {
      path: "/products/photo.png",
      meta: { title: "Photo" },
      points: [{ name: "face", x: 0.1, y: 0.1, width: 0.2, height: 0.2 }],
    },
  ],
};

describe("importDocumentOf", () => {
  it("names every object with its import id", () => {
    const { document } = importDocumentOf(snapshot);
    expect(document.resources).toEqual([
      { type: "mediahost:index:AccountSettings", name: "settings", id: "demo" },
      { type: "mediahost:index:Alias", name: "web", id: "web" },
      { type: "mediahost:index:CustomDomain", name: "img-example-com", id: "web/img.example.com" },
      { type: "mediahost:index:Alias", name: "thumbs", id: "thumbs" },
      { type: "mediahost:index:FolderOptions", name: "root-options", id: "/" },
      { type: "mediahost:index:Folder", name: "products", id: "/products" },
      { type: "mediahost:index:FolderMeta", name: "products-meta", id: "/products" },
      { type: "mediahost:index:Folder", name: "products-shoes", id: "/products/shoes" },
      { type: "mediahost:index:FolderOptions", name: "products-shoes-options", id: "/products/shoes" },
      { type: "mediahost:index:FolderMeta", name: "products-shoes-meta", id: "/products/shoes" },
      { type: "mediahost:index:Folder", name: "products-boots", id: "/products/boots" },
      { type: "mediahost:index:FolderMeta", name: "products-boots-meta", id: "/products/boots" },
      { type: "mediahost:index:File", name: "products-readme-txt", id: "/products/readme.txt" },
      // a binary file is left out, its meta and points are not; then those of the large file
      { type: "mediahost:index:FolderMeta", name: "products-photo-png-meta", id: "/products/photo.png" },
      {
        type: "mediahost:index:PointOfInterest",
        name: "products-photo-png-face",
        id: "/products/photo.png#face",
      },
      { type: "mediahost:index:FolderMeta", name: "big-mp4-meta", id: "/big.mp4" },
    ]);
  });

  it("says what import cannot take: binary and large files, credentials it cannot read", () => {
    const { notes } = importDocumentOf(snapshot);
    expect(notes).toEqual([
      "AccountSettings: remote fetching is left unmanaged (its credentials cannot be read back): add it to the program with its secret to manage it",
      "/products/photo.png left out: not UTF-8 text of at most 1 MiB (declare it with source and adopt: true)",
      "/big.mp4 left out: 5000000 bytes, more than --max-file-size",
    ]);
  });
});

describe("importDocument (mediahost-recover)", () => {
  it("keeps a pending create's URN: its name, its parent and its explicit provider by name", () => {
    expect(
      importDocument(
        {
          urn: "urn:pulumi:ci::p::examples:C$mediahost:index:Folder::eu-shoes",
          type: "mediahost:index:Folder",
          kind: "Folder",
          inputs: {},
          parent: "urn:pulumi:ci::p::examples:C::eu",
          provider: "urn:pulumi:ci::p::pulumi:providers:mediahost::eu::8f1c",
        },
        "/shoes",
      ),
    ).toEqual({
      nameTable: {
        parent: "urn:pulumi:ci::p::examples:C::eu",
        provider: "urn:pulumi:ci::p::pulumi:providers:mediahost::eu",
      },
      resources: [
        {
          type: "mediahost:index:Folder",
          name: "eu-shoes",
          id: "/shoes",
          parent: "parent",
          provider: "provider",
        },
      ],
    });
    // the stack as parent and the default provider are the import's own defaults
    expect(
      importDocument(
        {
          urn: "urn:pulumi:ci::p::mediahost:index:Alias::web",
          type: "mediahost:index:Alias",
          kind: "Alias",
          inputs: {},
          parent: "urn:pulumi:ci::p::pulumi:pulumi:Stack::p-ci",
          provider: "urn:pulumi:ci::p::pulumi:providers:mediahost::default_0_3_0::1d2e",
        },
        "web",
      ),
    ).toEqual({ nameTable: {}, resources: [{ type: "mediahost:index:Alias", name: "web", id: "web" }] });
    // the default provider of the native classes, which name their version and download URL
    expect(
      importDocument(
        {
          urn: "urn:pulumi:ci::p::mediahost:index:Alias::web",
          type: "mediahost:index:Alias",
          kind: "Alias",
          inputs: {},
          provider:
            "urn:pulumi:ci::p::pulumi:providers:mediahost::default_0_3_0_github_/api.github.com/pulumi-mediahost/pulumi-mediahost::1d2e",
        },
        "web",
      ),
    ).toEqual({ nameTable: {}, resources: [{ type: "mediahost:index:Alias", name: "web", id: "web" }] });
  });
});
