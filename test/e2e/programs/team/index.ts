// Config: team (the aliases' name prefix), aliases (count), sharedFolder (an existing folder) and
// option (which of its options this team sets to true).
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
const team = config.require("team");
for (let i = 0; i < (config.getNumber("aliases") ?? 24); i++) {
  new mediahost.Alias(`${team}${i}`, { name: `${team}${i}`, prefix: `/${team}/${i}`, cdn: true });
}
const sharedFolder = config.get("sharedFolder");
if (sharedFolder) {
  const option = config.require("option");
  new mediahost.FolderOptions(`${team}-options`, {
    path: sharedFolder,
    scanSpins: option === "scanSpins" ? true : undefined,
    allowListing: option === "allowListing" ? true : undefined,
  });
}
