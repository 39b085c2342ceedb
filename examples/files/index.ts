// Files as code: an image-processing profile that an alias names as its default, a watermark
// image uploaded from a local file, and a file whose content is a secret.
//
//   pulumi config set mediahost:baseUrl https://api.example.com      (or the emulator's URL)
//   pulumi config set mediahost:clientId <id>
//   pulumi config set --secret mediahost:clientSecret <secret>
//   pulumi config set --secret partnerToken <a token the partner's fetcher reads>
//   pulumi up
//
// In this example, profiles are JSON files under /profiles named after the profile; the alias's
// `defaultProfile` names one. The state keeps each file's SHA-256, size and mtime (never a copy of
// the watermark): `pulumi preview --refresh` finds a file changed outside Pulumi, and `pulumi up`
// puts it back.
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();

const profile = new mediahost.File("shop-profile", {
  path: "/profiles/shop.json",
  content: JSON.stringify({ resize: { width: 1200, fit: "inside" }, format: "webp", quality: 80 }, null, 2),
  contentType: "application/json",
});

new mediahost.Alias("shop", {
  name: "shop",
  prefix: "/shop",
  cdn: true,
  // the profile's name, from the managed file: the alias is written once the file is there
  defaultProfile: profile.path.apply((p) => p.replace(/^\/profiles\//, "").replace(/\.json$/, "")),
});

const watermark = new mediahost.File("watermark", {
  path: "/shop/brand/watermark.png",
  source: new pulumi.asset.FileAsset("assets/watermark.png"),
});

new mediahost.FolderMeta("watermark-meta", {
  path: watermark.path,
  title: "Watermark",
  description: "Placed on product images",
});

new mediahost.File("partner-token", {
  path: "/private/partner-token.txt",
  content: config.requireSecret("partnerToken"),
});

export const watermarkSha256 = watermark.sha256;
export const profileSize = profile.size;
