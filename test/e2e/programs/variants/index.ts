// Every kind of the provider, on the face the config names (`face`: dynamic or native), in two
// stages (`stage`: 1, then 2 changes one property of most kinds), for test/e2e/variants.test.ts,
// which runs it against the emulator playing the other answers of docs/api.md's guesses.
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-mediahost";
import * as native from "pulumi-mediahost/native";

const config = new pulumi.Config();
const stage = config.requireNumber("stage");
const mediahost = (config.require("face") === "native" ? native : dynamic) as typeof dynamic;
const second = stage >= 2;

new mediahost.AccountSettings("settings", {
  minify: { enabled: !second },
  fetching: {
    enabled: true,
    type: "http",
    http: {
      url: "https://origin.example.com/v",
      auth: { enabled: true, username: "fetcher", password: config.requireSecret("originPassword") },
    },
  },
});
const web = new mediahost.Alias("vweb", { name: "vweb", prefix: "/v", cdn: !second });
new mediahost.CustomDomain("vweb-domain", { alias: web.name, domain: "v.example.com" });
new mediahost.SubAccount("vsub", { alias: "vsub-e2e" });

const root = new mediahost.Folder("v", { path: "/v" });
const a = new mediahost.Folder("v-a", { path: pulumi.interpolate`${root.path}/a` });
const b = new mediahost.Folder("v-a-b", { path: pulumi.interpolate`${a.path}/b` });
// destroyed with whatever others put in it: the batch delete job
new mediahost.Folder("v-full", { path: pulumi.interpolate`${root.path}/full`, forceDestroy: true });
new mediahost.FolderOptions("v-a-options", {
  path: a.path,
  scanSpins: true,
  ...(second ? { allowListing: true } : {}),
});
new mediahost.FolderMeta("v-a-b-meta", {
  path: b.path,
  title: second ? "B, second" : "B",
  tags: second ? ["one", "two"] : ["one"],
});
const readme = new mediahost.File("v-readme", {
  path: pulumi.interpolate`${a.path}/readme.txt`,
  content: second ? "the second text\n" : "the first text\n",
  contentType: "text/plain",
});
// a video beside it: the live service answers its computed meta as null (docs/api.md#files-and-folders),
// which every listing of the folder (refresh, destroy) reads
new mediahost.File("v-clip", { path: pulumi.interpolate`${a.path}/clip.mp4`, content: "a video's bytes\n" });

export const readmeSize = readme.size;
