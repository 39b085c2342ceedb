// CustomDomain: the custom CDN domain of one alias, read back from the alias entry
// (`aliases.<alias>.customDomain`, docs/api.md#account). Changing the alias or the domain
// replaces it, the old one first (an alias carries one domain). An alias that carries another
// domain already is taken over only with `adopt: true`, which puts that domain back on delete.
import { z } from "zod";
import { ProviderError } from "../errors";
import { defineKind, type KindContext } from "./kind";
import { AliasName } from "./schema";

const Hostname = z
  .string()
  .max(253, { message: "must be at most 253 characters" })
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    message: "must be a lower-case host name such as img.example.com (no scheme, port or path)",
  });

const inputs = z.strictObject({
  /** The alias the domain serves. Changing it replaces the domain. */
  alias: AliasName,
  /** Host name such as `img.example.com`. Changing it replaces the domain (the old one is removed first). */
  domain: Hostname,
  /**
   * Take over the alias's domain if it carries one already (this one or another); on delete it is
   * put back as found.
   */
  adopt: z.boolean().optional(),
});

interface Prior {
  /** The domain the alias carried before the adoption, if any. */
  domain?: string;
}

async function setDomain(
  ctx: KindContext,
  alias: string,
  domain: string | undefined,
  from: string | undefined,
) {
  if (from === domain) return;
  if (from !== undefined) await ctx.client.ops.removeCustomDomain({ query: { alias, domain: from } });
  if (domain !== undefined) await ctx.client.ops.addCustomDomain({ body: { alias, domain } });
  ctx.account.patch((a) => {
    const entry = a.aliases?.[alias];
    if (entry) entry.customDomain = domain;
  });
}

export const customDomain = defineKind({
  name: "CustomDomain",
  inputs,
  outputs: {},
  replaceOn: ["alias", "domain"],
  deleteBeforeReplace: true,
  id: (i) => `${i.alias}/${i.domain}`,
  importing: {
    identity: (id) => {
      const cut = id.indexOf("/");
      if (cut <= 0)
        throw new ProviderError(`"${id}" is not a custom domain's id: write it as <alias>/<domain>`);
      return { alias: id.slice(0, cut), domain: id.slice(cut + 1) };
    },
  },
  docs: {
    summary: "A custom CDN domain of an alias, read back from the alias entry.",
    properties: "`alias`, `domain` (host name), `adopt`",
    delete: "removes the domain from the alias (an adopted one: puts back the domain it found)",
    drift: "read back from `aliases.<alias>.customDomain`; removal reported gone",
  },

  async create(ctx, { alias, domain }) {
    const entry = (await ctx.account.account()).aliases?.[alias];
    if (!entry) {
      throw new ProviderError(
        `alias "${alias}" does not exist in account "${ctx.accountAlias}"; create it first (for example with an ` +
          "Alias resource, and pass that alias's `name` output here so it is created first)",
      );
    }
    const current = entry.customDomain;
    if (current === domain) ctx.found(`the custom domain of alias "${alias}"`, { domain } satisfies Prior);
    else if (current)
      ctx.found(`alias "${alias}" with the custom domain ${current}`, { domain: current } satisfies Prior);
    await setDomain(ctx, alias, domain, current);
    return {};
  },

  async read(ctx, olds) {
    const entry = (await ctx.account.account()).aliases?.[olds.alias];
    return entry?.customDomain === olds.domain ? {} : undefined;
  },

  async update() {
    // everything but `adopt` replaces
    return {};
  },

  async delete(ctx, olds) {
    const prior = olds.__adopted?.prior as Prior | undefined;
    await setDomain(ctx, olds.alias, prior?.domain, olds.domain);
  },
});
