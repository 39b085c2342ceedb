// Config: violate (true: every rule of examples/policy-pack is broken once; false: all kept).
// Native resources and dynamic ones side by side: the pack judges both.
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-mediahost";
import * as native from "pulumi-mediahost/native";

const violate = new pulumi.Config().getBoolean("violate") ?? false;

new native.AccountSettings("settings", {
  fetching: {
    enabled: true,
    type: "http",
    http: { url: violate ? "http://origin.example.com" : "https://origin.example.com" },
  },
});
new dynamic.FolderOptions("private-options", {
  path: violate ? "/private/drafts" : "/public/drafts",
  allowListing: true,
});
new native.Alias("web", { name: "web", cdn: true, ...(violate ? {} : { defaultProfile: "thumbnail" }) });
new dynamic.Folder("scratch", { path: violate ? "/scratch" : "/scratch-ok/tmp", forceDestroy: true });
new native.File("notes", { path: "/notes.txt", content: violate ? "more than ten bytes" : "short" });
const product = "/products/shoe.jpg";
new native.File("product-image", { path: product, content: "img" });
new dynamic.FolderMeta("product-meta", {
  path: product,
  ...(violate ? { title: "Shoe" } : { product: { id: "sku-1" } }),
});
