// Config: galleryPath (default /gallery), account (an account name under mediahost:accounts, or none).
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
const account = config.get("account");
const gallery = new mediahost.Folder("gallery", {
  path: config.get("galleryPath") ?? "/gallery",
  forceDestroy: config.getBoolean("forceDestroy"),
  account,
});
new mediahost.FolderOptions("gallery-options", { path: gallery.path, allowListing: true, account });
new mediahost.FolderMeta("gallery-meta", { path: gallery.path, title: "Gallery", tags: ["a", "b"], account });
new mediahost.SubAccount("team", { alias: "gallery-team", account });

export const path = gallery.path;
