// Token, account, users, billing, sub-accounts, custom domains, events and statistics.
import { schemas } from "mediahost-contract";
import type { Account } from "../accounts";
import type { Context } from "../context";
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

  getAccount: ({ ctx, account }) => accountView(ctx, account),
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
  getBillingPlan: ({ ctx, account }) => account.billingPlan(ctx.plays("documented-shapes")),

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
    return ctx.plays("subaccount-empty") ? undefined : { alias: body.alias };
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
    if (!ctx.plays("events-alt"))
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
  getSpinViews: ({ ctx, account, query, now }) => {
    // spins are served only from the top-level account's tree: another alias has no views
    if (query.alias !== undefined && query.alias !== account.alias) return [];
    const views = account.stats.spinViews(dayRange(query.from, query.to, now));
    return ctx.plays("spin-views-alt") ? views.map(otherSpinView) : views;
  },
};

const MASK = "********";

/** GET /v2/account as the variants play it: secrets, custom domains and read-only fields. */
function accountView(ctx: Context, account: Account): Record<string, unknown> {
  const view = ctx.plays("secrets-clear") ? account.secretView() : account.view();
  const fetching = view.fetching as {
    http?: { auth?: { enabled?: boolean; password?: string } };
    s3?: Record<string, unknown>;
    maxFilesize?: number;
  };
  if (ctx.plays("secrets-masked")) {
    if (fetching.http?.auth?.enabled) fetching.http.auth.password = MASK;
    if (fetching.s3) fetching.s3.secretAccessKey = MASK;
  }
  if (ctx.plays("custom-domain-hidden")) {
    for (const entry of Object.values(view.aliases as Record<string, Record<string, unknown>>))
      delete entry.customDomain;
  }
  if (ctx.plays("sparse-answers")) {
    for (const key of schemas.ACCOUNT_READ_ONLY_FIELDS) delete view[key];
    delete fetching.maxFilesize;
  }
  return view;
}

/** A spin view as `spin-views-alt` reads it: unknown parts "Unknown", no rows or columns counted. */
function otherSpinView(view: Record<string, unknown>): Record<string, unknown> {
  const ua = view.user_agent_parsed as Record<string, string>;
  const parsed = Object.fromEntries(
    Object.entries(ua).map(([k, v]) => [k, v === "Other" ? "Unknown" : v === "" ? "0" : v]),
  );
  const event = view.event as { data?: Record<string, unknown> };
  const data = event.data ? { ...event.data, rows: 0, columns: 0 } : undefined;
  return { ...view, user_agent_parsed: parsed, event: { ...event, ...(data ? { data } : {}) } };
}
