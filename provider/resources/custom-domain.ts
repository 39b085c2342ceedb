// CustomDomain: a custom CDN domain of one alias. It is read back from the alias entry
// (`aliases.<alias>.customDomain`, observed.md). Changing the alias or the domain replaces it,
// the old one first (an alias carries one domain).
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

const Hostname = z
  .string()
  .max(253, { message: "must be at most 253 characters" })
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    message: "must be a lower-case host name such as img.example.com (no scheme, port or path)",
  });

const Inputs = z.strictObject({
  ...CommonInputs,
  alias: AliasName,
  domain: Hostname,
  adopt: z.boolean().optional(),
});
export type CustomDomainInputs = z.output<typeof Inputs>;
export type CustomDomainOutputs = CustomDomainInputs & CommonOutputs;

const properties = ["account", "alias", "domain", "adopt"] as const;
const idOf = (i: { alias: string; domain: string }) => `${i.alias}/${i.domain}`;

export const customDomain: ResourceKind<CustomDomainInputs, CustomDomainOutputs> = {
  name: "CustomDomain",
  schema: Inputs,
  diff: { properties, replaceOn: ["account", "alias", "domain"], deleteBeforeReplace: true },

  async create(ctx, inputs) {
    const what = `custom domain ${inputs.domain} of alias "${inputs.alias}"`;
    const accountAlias = await ctx.assertAccount(undefined, `CustomDomain ${idOf(inputs)}`);
    const entry = (await ctx.account()).aliases?.[inputs.alias];
    if (!entry) {
      throw new Error(
        `CustomDomain: alias "${inputs.alias}" does not exist in account "${accountAlias}"; create it first ` +
          "(for example with an Alias resource, and pass that alias's `name` output here so it is created first)",
      );
    }
    const journal = beginCreate(ctx, "CustomDomain", idOf(inputs), accountAlias);
    if (entry.customDomain === inputs.domain) {
      journal.found(inputs.adopt, what);
    } else {
      await ctx.client.ops.addCustomDomain({ body: { alias: inputs.alias, domain: inputs.domain } });
      ctx.patch((a) => {
        const target = a.aliases?.[inputs.alias];
        if (target) target.customDomain = inputs.domain;
      });
    }
    return { id: idOf(inputs), outs: { ...inputs, accountAlias } };
  },

  async read(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `CustomDomain ${idOf(olds)}`);
    const entry = (await ctx.account()).aliases?.[olds.alias];
    if (entry?.customDomain !== olds.domain) return undefined;
    return { id: idOf(olds), outs: olds, inputs: inputsOf(properties, olds) };
  },

  async update(ctx, _id, olds, news) {
    // everything but `adopt` replaces
    await ctx.assertAccount(olds.accountAlias, `CustomDomain ${idOf(olds)}`);
    return { ...news, accountAlias: olds.accountAlias };
  },

  async delete(ctx, _id, olds) {
    await ctx.assertAccount(olds.accountAlias, `CustomDomain ${idOf(olds)}`);
    try {
      await ctx.client.ops.removeCustomDomain({ query: { alias: olds.alias, domain: olds.domain } });
    } catch (err) {
      if (!(err instanceof MediahostError && err.isNotFound)) throw err;
    }
    ctx.patch((a) => {
      const target = a.aliases?.[olds.alias];
      if (target?.customDomain === olds.domain) delete target.customDomain;
    });
  },
};
