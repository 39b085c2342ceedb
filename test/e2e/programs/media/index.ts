// Config: protectionKey (a secret: the protected folder's key), productId, logo (false drops that
// point), face (native: the classes and functions of pulumi-mediahost/native, served by the plugin).
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-mediahost";
import * as native from "pulumi-mediahost/native";

const config = new pulumi.Config();
const mediahost = (config.get("face") === "native" ? native : dynamic) as unknown as typeof dynamic;
const shoe = new mediahost.File("shoe", { path: "/products/shoe.jpg", content: "a shoe" });
const path = shoe.path;

new mediahost.FolderMeta("shoe-meta", {
  path,
  title: "Shoe",
  product: { id: config.require("productId"), brand: "Acme" },
  approval: { approved: true, comment: "looks right" },
});
new mediahost.PointOfInterest("face", { path, name: "face", x: 0.1, y: 0.2, width: 0.3, height: 0.4 });
if (config.getBoolean("logo") ?? true)
  new mediahost.PointOfInterest("logo", { path, name: "logo", x: 0.5, y: 0.5, width: 0.5, height: 0.5 });

const manual = new mediahost.File("manual", { path: "/private/manual.pdf", content: "the manual" });
// signed anew on every run: a stack output, never a resource's input
export const downloadUrl = mediahost.getSignedUrlOutput({
  path: manual.path,
  key: config.requireSecret("protectionKey"),
  expiresIn: 3600,
  secureParams: { w: 300 },
}).url;
export const products = mediahost.searchFilesOutput({ query: "dirname:\\/products", limit: 10 }).total;
