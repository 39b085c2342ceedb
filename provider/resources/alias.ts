// Alias: one entry of the account's `aliases` map. Writes go through the account writer
// (provider/account/writer.ts), which gathers concurrent changes into one write built on a read
// made just before it, and checks it on the read after. No operation is known that deletes an
// alias: delete writes the map without it; if the service kept it (it merges the map), the
// resource leaves the state with a warning that says so. An alias taken over with `adopt` is put
// back as it was found on delete.
import { z } from "zod";
import type { AliasUpdate } from "../account/account-object";
import { ACCOUNT_READ, defineKind } from "./kind";
import { AliasName } from "./schema";

const ENTRY_KEYS = ["prefix", "cdn", "defaultProfile"] as const;

const inputs = z.strictObject({
  /** The alias name (1-63 letters, digits, '-' or '_'). Changing it replaces the alias. */
  name: AliasName,
  /** Path prefix the alias serves (at most 1024 characters). */
  prefix: z.string().max(1024, { message: "must be at most 1024 characters" }).optional(),
  /** Serve the alias through the CDN. */
  cdn: z.boolean().optional(),
  /** The image profile applied to files served through the alias when a request names none (at most 256 characters). */
  defaultProfile: z.string().max(256, { message: "must be at most 256 characters" }).optional(),
  /** Take over an alias that exists already instead of failing; on delete it is put back as found. */
  adopt: z.boolean().optional(),
});
type Inputs = z.output<typeof inputs>;

/** The managed fields of an entry: the ones the program gives. */
function fieldsOf(i: Partial<Inputs>): AliasUpdate {
  return Object.fromEntries(ENTRY_KEYS.filter((k) => i[k] !== undefined).map((k) => [k, i[k]]));
}

/** What an entry holds of the fields an update may write. */
function entryOf(live: Record<string, unknown>): AliasUpdate {
  return Object.fromEntries(ENTRY_KEYS.filter((k) => live[k] !== undefined).map((k) => [k, live[k]]));
}

export const alias = defineKind({
  name: "Alias",
  inputs,
  outputs: {
    /** The custom CDN domain the service reports for this alias, if any. */
    customDomain: z.string().optional(),
  },
  replaceOn: ["name"],
  id: (i) => i.name,
  importing: { identity: (name) => ({ name }), id: { form: "the alias's name", example: "web" } },
  viaAccountWriter: true,
  docs: {
    summary:
      "One address alias of the account. Only the fields given are managed. Writes of several aliases in one run are gathered into one account update. The API cannot delete an alias: on delete the map is written without it and read back; if the service kept it, a warning says so.",
    properties: "`name`, `prefix`, `cdn`, `defaultProfile`, `adopt`; output `customDomain`",
    delete:
      "writes the alias map without it (an adopted alias: as it was found) and reads back; if the service kept it, the resource leaves the state with a warning saying so",
    drift: "managed fields; a deleted alias is reported gone",
    example: {
      title: "An alias serving /products through the CDN",
      name: "web",
      args: { name: "web", prefix: "/products", cdn: true },
    },
  },

  async create(ctx, i) {
    const { account } = await ctx.account.writer.submit({
      resource: `Alias ${i.name}`,
      alias: { name: i.name, fields: fieldsOf(i) },
      prepare(live) {
        ctx.landed(live.alias);
        const existing = live.aliases?.[i.name];
        if (existing) ctx.found("the alias", entryOf(existing));
        return undefined;
      },
    });
    return { customDomain: account.aliases?.[i.name]?.customDomain };
  },

  // read from the account object, once a run
  refreshReads: () => [ACCOUNT_READ],

  async read(ctx, olds, scope) {
    const live = (await ctx.account.account()).aliases?.[olds.name];
    if (!live) return undefined;
    // managed fields only (a field the service no longer reports reads as unset), or for an
    // import every field the entry has
    const fields = Object.fromEntries(
      ENTRY_KEYS.filter((k) => (scope === "all" ? live[k] !== undefined : olds[k] !== undefined)).map((k) => [
        k,
        live[k],
      ]),
    );
    return { ...fields, customDomain: live.customDomain };
  },

  async update(ctx, olds, news) {
    const fields = fieldsOf(news);
    if (!ENTRY_KEYS.some((k) => fields[k] !== undefined && fields[k] !== olds[k])) {
      return { customDomain: olds.customDomain };
    }
    const { account } = await ctx.account.writer.submit({
      resource: `Alias ${news.name}`,
      alias: { name: news.name, fields },
      expectedAlias: olds.accountAlias,
    });
    return { customDomain: account.aliases?.[news.name]?.customDomain };
  },

  async delete(ctx, olds) {
    const prior = olds.__adopted?.prior as AliasUpdate | undefined;
    const { aliasKept } = await ctx.account.writer.submit({
      resource: `Alias ${olds.name}`,
      alias: { name: olds.name, fields: prior ?? null, exact: prior !== undefined },
      expectedAlias: olds.accountAlias,
      // already gone: nothing to write
      prepare: (live) => (live.aliases?.[olds.name] ? undefined : "skip"),
    });
    if (aliasKept) {
      ctx.warn(
        `Alias ${olds.name}: the service kept the alias after it was written out of the account's alias map ` +
          "(it merges the map on update, and the API has no operation that deletes an alias). " +
          "It is no longer managed by this stack; remove it in the service's console if it must go.",
      );
    }
  },
});
