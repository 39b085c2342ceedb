// The hidden input that tells the provider which stack declares a resource (the provider
// process is not told the stack name). It keys the provider's journal of creates in flight, so
// a run killed after the service created an object converges on the next run of the same stack
// (provider/journal.ts, docs/reliability.md). Not a secret; not part of any diff.
import * as pulumi from "@pulumi/pulumi";
import { OWNER_KEY } from "../provider/journal";

export function ownerInput(): Record<string, string> {
  return { [OWNER_KEY]: `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}` };
}
