// The data functions' work in the program's process (the dynamic face): their arguments checked
// and their API calls made as provider/functions.ts declares them, through a face of their own
// (provider/face.ts: the program's configuration, a session; not the lifecycle). Loaded on the
// first call (sdk/functions.ts), so that programs that only declare resources never load the HTTP
// client or the schemas.
import * as pulumi from "@pulumi/pulumi";
import { isExpected } from "../provider/errors";
import { Face } from "../provider/face";
import { argumentsOf, type DataFunctionName, dataFunctionByName } from "../provider/functions";

let face: Face | undefined;

/** Runs the data function `name`; its secret results come back as secret Outputs. */
export async function run(name: DataFunctionName, args: unknown): Promise<Record<string, unknown>> {
  const fn = dataFunctionByName(name);
  if (!fn) throw new Error(`pulumi-mediahost: unknown data function ${name}`);
  try {
    const checked = argumentsOf(name, fn, args);
    const account = typeof checked.account === "string" ? checked.account : undefined;
    face ??= Face.of((key) => pulumi.runtime.getConfig(key));
    const result = await fn.run(face.account(account).client, checked);
    for (const key of fn.secrets ?? []) result[key] = pulumi.secret(result[key]);
    return result;
  } catch (err) {
    if (!isExpected(err)) throw err;
    // the Outputs the program derived from this call reject with it before the engine reads them;
    // the host reports the first as the program's failure, and Node would warn of each one read
    // afterwards (PromiseRejectionHandledWarning): a listener says they are expected
    if (process.listenerCount("rejectionHandled") === 0) process.on("rejectionHandled", () => {});
    // one line: a RunError, which the host prints with no stack
    throw new pulumi.RunError((err as Error).message);
  }
}
