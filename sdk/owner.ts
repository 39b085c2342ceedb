// The hidden input that tells the provider which stack declares a resource (the provider
// process is not told the stack name). It keys the provider's stack journal of creates in flight,
// objects kept and objects taken over (provider/journal.ts, docs/reliability.md). Not a secret;
// not part of any diff.
import * as pulumi from "@pulumi/pulumi";
import { OWNER_KEY } from "../provider/hidden";

export function ownerInput(): Record<string, string> {
  return { [OWNER_KEY]: `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}` };
}
