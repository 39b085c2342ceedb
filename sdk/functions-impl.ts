// The data functions' work in the program's process (the dynamic face): their arguments checked
// and their API calls made as provider/functions.ts declares them, through the configuration and
// a session of their own (not the lifecycle). Loaded on the first call (sdk/functions.ts), so that
// programs that only declare resources never load the HTTP client or the schemas.
import * as pulumi from "@pulumi/pulumi";
import { readConfiguration } from "../provider/config";
import { argumentsOf, type DataFunctionName, dataFunctions } from "../provider/functions";
import { Session } from "../provider/session";

let session: Session | undefined;

/** Runs the data function `name`; its secret results come back as secret Outputs. */
export async function run(name: DataFunctionName, args: unknown): Promise<Record<string, unknown>> {
  const fn = dataFunctions[name] as (typeof dataFunctions)[DataFunctionName];
  const checked = argumentsOf(name, fn, args) as { account?: string };
  session ??= new Session(
    readConfiguration({ config: (key) => pulumi.runtime.getConfig(key), env: process.env }),
  );
  const result = await fn.run(session.context(checked.account).client, checked as never);
  for (const key of fn.secrets ?? []) result[key] = pulumi.secret(result[key]);
  return result;
}
