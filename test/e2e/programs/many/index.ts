// `count` folders under `root`, each with its options and its meta: 3 × count resources.
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 34;
const root = config.get("root") ?? "/rel";

for (let i = 0; i < count; i++) {
  const folder = new mediahost.Folder(`f${i}`, { path: `${root}/f${i}` });
  new mediahost.FolderOptions(`f${i}-options`, {
    path: folder.path,
    allowListing: i % 2 === 0,
    scanSpins: true,
  });
  new mediahost.FolderMeta(`f${i}-meta`, {
    path: folder.path,
    title: `Folder ${i}`,
    description: `the ${i}th folder`,
    tags: [`n${i}`, i % 2 === 0 ? "even" : "odd"],
  });
}
export const folders = count;
