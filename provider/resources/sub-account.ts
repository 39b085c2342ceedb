// SubAccount: a sub-account of the account, by alias. The API has no operation that lists or
// reads sub-accounts, so drift is invisible: refresh keeps what the state says, and a
// sub-account deleted elsewhere is only noticed when this stack deletes it (a 404 then counts
// as done). Creation of one that exists fails unless `adopt: true`.
import { z } from "zod";
import { MediahostError } from "../client";
import {
  AliasName,
  beginCreate,
  CommonInputs,
  type CommonOutputs,
  inputsOf,
  type ResourceKind,
} from "./common";

const Inputs = z.strictObject({
  ...CommonInputs,
  alias: AliasName,
  adopt: z.boolean().optional(),
});
export type SubAccountInputs = z.output<typeof Inputs>;
export type SubAccountOutputs = SubAccountInputs & CommonOutputs;

const properties = ["account", "alias", "adopt"] as const;

export const subAccount: ResourceKind<SubAccountInputs, SubAccountOutputs> = {
  name: "SubAccount",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "alias"] },

  async create(ctx, inputs) {
    const accountAlias = await ctx.assertAccount(undefined, `SubAccount ${inputs.alias}`);
    const journal = beginCreate(ctx, "SubAccount", inputs.alias, accountAlias);
    try {
      await ctx.client.ops.createSubAccount({ body: { alias: inputs.alias } });
    } catch (err) {
      const exists = err instanceof MediahostError && err.status === 409;
      if (!exists) throw err;
      journal.found(inputs.adopt, `sub-account "${inputs.alias}"`);
    }
    return { id: inputs.alias, outs: { ...inputs, accountAlias } };
  },

  async read(ctx, _id, olds) {
    // nothing to read it with: keep the state as it is (see the module comment)
    await ctx.assertAccount(olds.accountAlias, `SubAccount ${olds.alias}`);
    return { id: olds.alias, outs: olds, inputs: inputsOf(properties, olds) };
  },

  async update(ctx, _id, olds, news) {
    await ctx.assertAccount(olds.accountAlias, `SubAccount ${olds.alias}`);
    return { ...news, accountAlias: olds.accountAlias };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `SubAccount ${olds.alias}`);
    try {
      await ctx.client.ops.deleteSubAccount({ query: { alias: olds.alias } });
    } catch (err) {
      if (!(err instanceof MediahostError && err.isNotFound)) throw err;
    }
  },
};
