// The package schema as the package ships it: compact. tsc emits the imported JSON indented (99 KB);
// the plugin serves it re-serialized anyway (provider/native/server.ts), and the reviewed, indented
// copy stays provider/native/schema.json. Run by `npm run build` after tsc.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const file = join(__dirname, "..", "provider/native/schema.json");
writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, "utf8"))));
