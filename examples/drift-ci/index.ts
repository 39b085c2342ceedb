// The program the drift check watches: account settings, an alias, and a folder with meta.
// Any Pulumi program using pulumi-mediahost works the same way; point drift-check.sh or
// mediahost-drift at it with --cwd.
//
//   pulumi config set mediahost:baseUrl https://api.example.com
//   pulumi config set mediahost:clientId <id>
//   pulumi config set --secret mediahost:clientSecret <secret>
//   pulumi up
//   ./drift-check.sh --stack <stack>          # exit 0: no drift, 2: drift, 1: the check failed
//
// One stack per site (the multi-stack form): each stack sets `site` (its alias and folder are
// named after it) and only one stack per account manages the account's settings
// (`manageSettings: false` in the others); `mediahost-drift --all-stacks` checks them all.
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
const site = config.get("site") ?? "media";

// Minify on; leaving the stack (destroy) turns it off again.
if (config.getBoolean("manageSettings") ?? true) {
  new mediahost.AccountSettings("settings", { minify: { enabled: true }, resetOnDelete: true });
}

new mediahost.Alias(site, { name: site, prefix: `/${site}`, cdn: true });

const media = new mediahost.Folder(site, { path: `/${site}` });
const banners = new mediahost.Folder("banners", { path: pulumi.interpolate`${media.path}/banners` });
new mediahost.FolderMeta("banners-meta", {
  path: banners.path,
  title: "Banners",
  tags: ["campaigns"],
});

export const bannersUrl = banners.cdnUrl;
