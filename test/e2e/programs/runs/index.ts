// Config: folders (count), aliases (count), prefix (of every alias), minify (bool), keep (bool:
// declare /runs/keep), password and s3Secret (secrets for fetching), user (a user id to read).
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
const folders = config.getNumber("folders") ?? 20;
const aliases = config.getNumber("aliases") ?? 10;
const prefix = config.get("prefix") ?? "/v1";

new mediahost.AccountSettings("settings", {
  minify: { enabled: config.getBoolean("minify") ?? true },
  fetching: {
    enabled: true,
    type: "http",
    http: {
      url: "https://origin.example.com/media",
      auth: { enabled: true, username: "fetcher", password: config.requireSecret("password") },
    },
    s3: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: config.requireSecret("s3Secret"), bucket: "media" },
  },
});

const web = new mediahost.Alias("web", { name: "web", prefix: "/", cdn: true });
new mediahost.CustomDomain("web-domain", { alias: web.name, domain: "img.example.com" });
for (let i = 0; i < aliases; i++) {
  new mediahost.Alias(`a${i}`, { name: `a${i}`, prefix: `${prefix}/a${i}`, cdn: i % 2 === 0 });
}
new mediahost.SubAccount("team", { alias: "team-runs" });

for (let i = 0; i < folders; i++) {
  new mediahost.Folder(`f${i}`, { path: `/runs/f${i}` });
}
if (config.getBoolean("keep") ?? true) new mediahost.Folder("keep", { path: "/runs/keep" });

const user = config.get("user");
const found = user ? mediahost.getUserOutput({ userId: user }) : undefined;
export const userEmail = found?.email;
export const userS3Secret = found?.apply((u) => u.s3Secret);
