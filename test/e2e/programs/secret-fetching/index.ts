// Config: originUrl (a secret: it holds credentials), accessKeyId (a secret), s3Secret (a secret),
// fileOrigin (an http URL the service fetches a file from, with basic auth given here in plain text:
// the SDK keeps `fetchAuth` secret by itself).
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
new mediahost.AccountSettings("settings", {
  minify: { enabled: true },
  fetching: {
    enabled: true,
    type: "http",
    http: { url: config.requireSecret("originUrl") },
    s3: {
      accessKeyId: config.requireSecret("accessKeyId"),
      secretAccessKey: config.requireSecret("s3Secret"),
      bucket: "media",
    },
  },
});

new mediahost.File("fetched", {
  path: "/fetched/logo.txt",
  fetchUrl: config.require("fileOrigin"),
  fetchAuth: { username: "fetcher", password: "file-origin-pw-41c7" },
});
