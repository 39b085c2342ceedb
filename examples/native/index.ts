// The quickstart on the native face (pulumi-mediahost/native, served by the provider plugin
// pulumi-resource-mediahost): one account's settings, two aliases, a custom domain and a small
// folder tree. The same program as examples/quickstart but for its import.
//
//   pulumi config set mediahost:baseUrl https://api.example.com      (or the emulator's URL)
//   pulumi config set mediahost:clientId <id>
//   pulumi config set --secret mediahost:clientSecret <secret>
//   pulumi config set --secret originPassword <password of the origin the account fetches from>
//   pulumi up
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost/native";

const config = new pulumi.Config();
const originUrl = config.get("originUrl") ?? "https://origin.example.com/media";

// Fetch files missing from the account from our origin, and minify JS/CSS.
const settings = new mediahost.AccountSettings("settings", {
  minify: { enabled: true },
  fetching: {
    enabled: true,
    type: "http",
    http: {
      url: originUrl,
      auth: { enabled: true, username: "fetcher", password: config.requireSecret("originPassword") },
    },
  },
});

// Two address aliases and a custom domain on the first.
const web = new mediahost.Alias("web", { name: "web", prefix: "/", cdn: true });
new mediahost.Alias("thumbs", {
  name: "thumbs",
  prefix: "/products",
  cdn: true,
  // the profile file below (a plain name keeps the settings and both aliases in one account
  // write; examples/files derives the name from the file's output, so the alias waits for it)
  defaultProfile: "thumbnail",
});
const domain = new mediahost.CustomDomain("web-domain", {
  alias: web.name,
  domain: config.get("domain") ?? "img.example.com",
});

// A folder tree: children name their parent's output, so they are created after it and deleted before it.
const products = new mediahost.Folder("products", { path: config.get("productsFolder") ?? "/products" });
const shoes = new mediahost.Folder("shoes", { path: pulumi.interpolate`${products.path}/shoes` });
const bags = new mediahost.Folder("bags", { path: pulumi.interpolate`${products.path}/bags` });

new mediahost.FolderOptions("shoes-options", {
  path: shoes.path,
  scanSpins: true,
  nameSpinsAfterFolder: true,
});
new mediahost.FolderMeta("shoes-meta", {
  path: shoes.path,
  title: "Shoes",
  description: "Every shoe in the catalog",
  tags: ["catalog", "shoes"],
});
new mediahost.FolderMeta("bags-meta", { path: bags.path, title: "Bags", tags: ["catalog"] });

// Files as code: the image profile the "thumbs" alias names as its default, and a watermark from
// a local file. The state keeps their hashes; a refresh finds a file changed out of band.
const assets = new mediahost.Folder("assets", { path: "/assets" });
new mediahost.File("thumbnail-profile", {
  path: pulumi.interpolate`${assets.path}/thumbnail.profile.json`,
  content: JSON.stringify({ resize: { width: 320, height: 320, fit: "cover" }, format: "webp" }),
  contentType: "application/json",
});
new mediahost.File("watermark", {
  path: pulumi.interpolate`${assets.path}/watermark.png`,
  source: new pulumi.asset.FileAsset(path.join(__dirname, "..", "quickstart", "assets", "watermark.png")),
});

export const accountAlias = settings.accountAlias;
export const cdnHost = settings.cdnUrl;
export const customDomain = domain.domain;
export const shoesUrl = shoes.cdnUrl;
