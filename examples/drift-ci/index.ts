// The program the drift check watches: account settings, an alias, and a folder with meta.
// Any Pulumi program using pulumi-mediahost works the same way; point drift-check.sh at it
// with --cwd.
//
//   pulumi config set mediahost:baseUrl https://api.example.com
//   pulumi config set mediahost:clientId <id>
//   pulumi config set --secret mediahost:clientSecret <secret>
//   pulumi up
//   ./drift-check.sh --stack <stack>          # exit 0: no drift, 2: drift, 1: the check failed
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

// Minify on; leaving the stack (destroy) turns it off again.
new mediahost.AccountSettings("settings", { minify: { enabled: true }, resetOnDelete: true });

new mediahost.Alias("media", { name: "media", prefix: "/media", cdn: true });

const media = new mediahost.Folder("media", { path: "/media" });
const banners = new mediahost.Folder("banners", { path: pulumi.interpolate`${media.path}/banners` });
new mediahost.FolderMeta("banners-meta", {
  path: banners.path,
  title: "Banners",
  tags: ["campaigns"],
});

export const bannersUrl = banners.cdnUrl;
