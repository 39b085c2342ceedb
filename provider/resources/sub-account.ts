// SubAccount: a sub-account of the account, by alias. The API has no operation that lists or
// reads sub-accounts, so drift is invisible: refresh keeps what the state says, and a
// sub-account deleted elsewhere is only noticed when this stack deletes it (a 404 then counts as
// done). A sub-account that exists is taken over only with `adopt: true`, and only when the
// service says it is this account's: an alias another account holds is refused, naming why.
// An adopted sub-account is left in place on delete.
import { z } from "zod";
import { MediahostError } from "../client";
import { ProviderError } from "../errors";
import { defineKind } from "./kind";
import { AliasName } from "./schema";

const inputs = z.strictObject({
  /** The sub-account's alias. Changing it replaces the sub-account. */
  alias: AliasName,
  /** Take over a sub-account of this account that exists already instead of failing; on delete it is left in place. */
  adopt: z.boolean().optional(),
});

/**
 * What a 409 of sub-account creation says: the alias is a sub-account of this account, another
 * account holds it, or the text does not tell (docs/api.md#account).
 */
function conflictOf(err: MediahostError): "ours" | "theirs" | "unclear" {
  const text = err.serviceMessage ?? "";
  if (/another account|in use|taken/i.test(text)) return "theirs";
  if (/sub-account already exists/i.test(text)) return "ours";
  return "unclear";
}

export const subAccount = defineKind({
  name: "SubAccount",
  inputs,
  outputs: {},
  replaceOn: ["alias"],
  id: (i) => i.alias,
  importing: {
    refused:
      "the API has no operation that lists or reads sub-accounts, so a SubAccount cannot be imported: " +
      "declare it with `adopt: true` (the first `pulumi up` takes it over), or keep it in the dynamic face",
  },
  docs: {
    summary:
      "A sub-account (shares the parent's plan). The API cannot list or read sub-accounts, so drift is invisible: refresh keeps the state, and one deleted elsewhere is noticed only on delete.",
    properties: "`alias`, `adopt`",
    delete: "deletes it (already gone counts as done); an adopted one is left in place",
    drift: "**none**: the API cannot list or read sub-accounts; refresh keeps the state",
    example: { title: "A sub-account", name: "partner", args: { alias: "partner-media" } },
  },

  async create(ctx, { alias }) {
    try {
      await ctx.client.ops.createSubAccount({ body: { alias } });
    } catch (err) {
      if (!(err instanceof MediahostError && err.status === 409)) throw err;
      const conflict = conflictOf(err);
      if (conflict === "theirs") {
        throw new ProviderError(
          `the alias "${alias}" is held by another account (the service said: ${err.serviceMessage}); ` +
            "it cannot be adopted as a sub-account of this one: choose another alias",
        );
      }
      if (conflict === "unclear") {
        throw new ProviderError(
          `the service refused the sub-account "${alias}" with "${err.serviceMessage}", which does not say whether ` +
            "it is a sub-account of this account; nothing is taken over",
        );
      }
      ctx.found("the sub-account");
    }
    return {};
  },

  // its read keeps the state: no call
  refreshReads: () => [],

  async read() {
    // nothing to read it with: keep the state as it is (see the module comment)
    return {};
  },

  async update() {
    return {};
  },

  async delete(ctx, olds) {
    if (olds.__adopted) {
      ctx.info(`SubAccount ${olds.alias}: left in place: it existed before this stack adopted it`);
      return;
    }
    await ctx.client.ops.deleteSubAccount({ query: { alias: olds.alias } });
  },
});
