// Config: baseUrl, and euClientId/euClientSecret, usClientId/usClientSecret (secrets); euTitle, usTitle.
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost/native";

const config = new pulumi.Config();
const baseUrl = config.require("baseUrl");
const eu = new mediahost.Provider("eu", {
  baseUrl,
  clientId: config.require("euClientId"),
  clientSecret: config.requireSecret("euClientSecret"),
});
const us = new mediahost.Provider("us", {
  baseUrl,
  clientId: config.require("usClientId"),
  clientSecret: config.requireSecret("usClientSecret"),
});

for (const [region, provider] of [
  ["eu", eu],
  ["us", us],
] as const) {
  const folder = new mediahost.Folder(`${region}-media`, { path: `/media-${region}` }, { provider });
  const title = config.get(`${region}Title`) ?? `Media (${region})`;
  new mediahost.FolderMeta(`${region}-meta`, { path: folder.path, title }, { provider });
}

export const euAccount = mediahost.getAccountOutput({}, { provider: eu }).alias;
export const usAccount = mediahost.getAccountOutput({}, { provider: us }).alias;
