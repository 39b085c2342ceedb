// Token, account, users, billing, sub-accounts, custom domains, events and statistics.
import { httpError } from "../errors";
import { dayRange, monthRange } from "../stats";
import { type Handlers, seconds } from "./types";

type AccountOps =
  | "token"
  | "getAccount"
  | "updateAccount"
  | "getUser"
  | "getLimits"
  | "getStorage"
  | "listUsers"
  | "getBillingPlan"
  | "addCustomDomain"
  | "removeCustomDomain"
  | "createSubAccount"
  | "deleteSubAccount"
  | "searchEvents"
  | "markEventsSeen"
  | "getHttpStats"
  | "getStorageStats"
  | "getTrafficStats"
  | "getSpinViews";

export const accountHandlers: Pick<Handlers, AccountOps> = {
  token: ({ ctx, body, now, request }) => {
    const account = ctx.world.byClientId(body.clientId);
    if (!account || account.secretOf(body.clientId) !== body.clientSecret)
      throw httpError(401, "Invalid client credentials");
    if (request.emu) request.emu.account = account.alias;
    return ctx.issueToken(account, body.clientId, body.expiresIn, now);
  },

  getAccount: ({ account }) => account.view(),
  updateAccount: async ({ ctx, account, body }) => {
    await ctx.store.commit({
      type: "updateAccount",
      account: account.alias,
      update: body,
      aliases: ctx.behaviour.aliasesUpdate,
    });
  },
  getUser: ({ account, query }) => account.user(query.userId),
  getLimits: ({ account, now }) => account.limiter.all(seconds(now)),
  getStorage: ({ account }) => account.storage(),
  listUsers: ({ account }) => account.users(),
  getBillingPlan: ({ account }) => account.billingPlan(),

  addCustomDomain: async ({ ctx, account, body }) => {
    await ctx.store.commit({ type: "addCustomDomain", account: account.alias, ...body });
  },
  removeCustomDomain: async ({ ctx, account, query }) => {
    await ctx.store.commit({ type: "removeCustomDomain", account: account.alias, ...query });
  },
  createSubAccount: async ({ ctx, account, body, now }) => {
    await ctx.store.commit({
      type: "createSubAccount",
      account: account.alias,
      alias: body.alias,
      time: now,
    });
    return { alias: body.alias };
  },
  deleteSubAccount: async ({ ctx, account, query }) => {
    await ctx.store.commit({ type: "deleteSubAccount", account: account.alias, alias: query.alias });
    return { alias: query.alias };
  },

  /** Newest first; every given field must match exactly. */
  searchEvents: ({ account, body }) =>
    account.events
      .filter(
        (e) =>
          (body.module === undefined || e.module === body.module) &&
          (body.type === undefined || e.type === body.type) &&
          (body.filename === undefined || e.filename === body.filename) &&
          (body.level === undefined || e.level === body.level),
      )
      .reverse(),

  markEventsSeen: async ({ ctx, account, body }) => {
    await ctx.store.commit({ type: "eventsSeen", account: account.alias, ids: body });
  },

  getHttpStats: ({ account, query, now }) => account.stats.http(monthRange(query.from, query.to, now)),
  getTrafficStats: ({ account, query, now }) =>
    account.stats.aggregatedTraffic(monthRange(query.from, query.to, now)),
  getStorageStats: ({ account, query, now }) => {
    const { plan, burstable, extra } = account.storage() as {
      plan: number;
      burstable: number;
      extra: number;
    };
    return account.stats.storageHistory(monthRange(query.from, query.to, now), now, {
      plan,
      burstable,
      extra,
    });
  },
  getSpinViews: ({ account, query, now }) => {
    // spins are served only from the top-level account's tree: another alias has no views
    if (query.alias !== undefined && query.alias !== account.alias) return [];
    return account.stats.spinViews(dayRange(query.from, query.to, now));
  },
};
