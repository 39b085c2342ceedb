// Config: originUrl (a secret: it holds credentials), accessKeyId (a secret), s3Secret (a secret).
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
