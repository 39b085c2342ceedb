// CustomDomain: the custom CDN domain of one alias, read back from the alias entry
// (`aliases.<alias>.customDomain`, docs/api.md#account). Changing the alias or the domain
// replaces it, the old one first (an alias carries one domain). An alias that carries another
// domain already is taken over only with `adopt: true`, which puts that domain back on delete.
//
// That the account object shows the domain is [likely], not documented: a service may never show
// it. So the read after the write records whether it did (`seenOnAccount`); where it did not, a
// domain missing from the entry is kept, and a removal made elsewhere cannot be seen. A state
// written before `seenOnAccount` existed holds none, and counts as shown, as it was then.
import { z } from "zod";
import { MediahostError } from "../client";
import { ProviderError } from "../errors";
import { Ref } from "./example";
import { ACCOUNT_READ, defineKind, type KindContext } from "./kind";
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
  /**
   * Host name such as `img.example.com` (at most 253 characters). Changing it replaces the domain
   * (the old one is removed first).
   */
  domain: Hostname,
  /**
   * Take over the alias's domain if it carries one already (this one or another); on delete it is
   * put back as found.
   */
  adopt: z.boolean().optional(),
});

/** What the kind records besides its inputs. */
export interface Seen {
  seenOnAccount?: boolean;
}

interface Prior {
  /** The domain the alias carried before the adoption, if any. */
  domain?: string;
}

/** Whether the account shows `domain` on `alias` now (a fresh read, not the run's cached account). */
async function shown(ctx: KindContext, alias: string, domain: string): Promise<boolean> {
  const account = await ctx.client.ops.getAccount();
  return account.aliases?.[alias]?.customDomain === domain;
}

async function setDomain(
  ctx: KindContext,
  alias: string,
  domain: string | undefined,
  from: string | undefined,
  onExisting?: () => void,
) {
  if (from === domain) return;
  if (from !== undefined) await ctx.client.ops.removeCustomDomain({ query: { alias, domain: from } });
  if (domain !== undefined) {
    try {
      await ctx.client.ops.addCustomDomain({ body: { alias, domain } });
    } catch (err) {
      // set already although the account did not show it: a service that hides custom domains
      if (!(onExisting && err instanceof MediahostError && err.isConflictExists)) throw err;
      onExisting();
    }
  }
  ctx.account.patch((a) => {
    const entry = a.aliases?.[alias];
    if (entry) entry.customDomain = domain;
  });
}

export const customDomain = defineKind({
  name: "CustomDomain",
  inputs,
  outputs: {
    /**
     * Whether the account object showed this domain on its alias once it was set. `false`: the
     * service does not show custom domains (docs/api.md#account), so one removed elsewhere cannot
     * be seen, and a domain missing from the alias entry is not taken as removed.
     */
    seenOnAccount: z.boolean().optional(),
  },
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
    id: { form: "`<alias>/<domain>`", example: "images/img.example.com" },
  },
  docs: {
    summary: "A custom CDN domain of an alias, read back from the alias entry.",
    properties: "`alias`, `domain` (host name), `adopt`",
    delete: "removes the domain from the alias (an adopted one: puts back the domain it found)",
    drift:
      "read back from `aliases.<alias>.customDomain`; removal reported gone, except on a service that did not " +
      "show the domain once set (`seenOnAccount: false`), where a removal cannot be seen",
    example: {
      title: "A custom domain for an alias",
      name: "images-domain",
      before: [{ kind: "Alias", name: "images", args: { name: "images", prefix: "/", cdn: true } }],
      args: { alias: new Ref("images", "name"), domain: "img.example.com" },
    },
  },

  async create(ctx, { alias, domain }): Promise<Seen> {
    const aliases = (await ctx.account.account()).aliases ?? {};
    const entry = aliases[alias];
    if (!entry) {
      throw new ProviderError(
        `alias "${alias}" does not exist in account "${ctx.accountAlias}"; create it first (for example with an ` +
          "Alias resource, and pass that alias's `name` output here so it is created first)",
      );
    }
    const current = entry.customDomain;
    const foundOwn = () => ctx.found(`the custom domain of alias "${alias}"`, { domain } satisfies Prior);
    if (current === domain) foundOwn();
    else if (current)
      ctx.found(`alias "${alias}" with the custom domain ${current}`, { domain: current } satisfies Prior);
    await setDomain(ctx, alias, domain, current, foundOwn);
    // an account that shows another alias's domain shows this one too: no read needed to know
    const showsDomains = Object.values(aliases).some((e) => typeof e.customDomain === "string");
    return { seenOnAccount: showsDomains || (await shown(ctx, alias, domain)) };
  },

  // read from the account object, once a run
  refreshReads: () => [ACCOUNT_READ],

  async read(ctx, olds, scope): Promise<Seen | undefined> {
    const entry = (await ctx.account.account()).aliases?.[olds.alias];
    if (!entry) return undefined;
    const live = entry.customDomain;
    // shown now: so the service shows domains (a state from before `seenOnAccount` keeps none)
    if (live === olds.domain)
      return { seenOnAccount: olds.seenOnAccount === false ? true : olds.seenOnAccount };
    // another domain shown, or none where the service shows them: gone
    if (typeof live === "string") return undefined;
    if (scope === "all") {
      ctx.warn(
        `CustomDomain ${olds.alias}/${olds.domain}: taken in unseen: the account object shows no custom domain ` +
          "on this alias, so whether the domain is set cannot be checked (docs/api.md#account)",
      );
      return { seenOnAccount: false };
    }
    if (olds.seenOnAccount !== false) return undefined;
    // the service did not show it even right after it was set: nothing tells it is gone
    return { seenOnAccount: false };
  },

  async update(_ctx, olds): Promise<Seen> {
    // everything but `adopt` replaces
    return { seenOnAccount: olds.seenOnAccount };
  },

  async delete(ctx, olds) {
    const prior = olds.__adopted?.prior as Prior | undefined;
    await setDomain(ctx, olds.alias, prior?.domain, olds.domain);
  },
});
