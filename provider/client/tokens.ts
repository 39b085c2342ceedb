// Bearer tokens, one per (baseUrl, clientId, secret), shared by every client object in the
// process. Concurrent callers share one in-flight token request (single flight), and a token
// is renewed a little before it expires so that calls do not race its expiry.
import { createHash } from "node:crypto";

export interface IssuedToken {
  token: string;
  /** ms since epoch after which the token is not used any more. */
  renewAt: number;
}

/** Renew when this share of the lifetime is left, but never earlier than 30 s before expiry. */
const RENEW_SHARE = 0.2;
const RENEW_MARGIN_MS = 30_000;

export function renewTime(issuedAt: number, expiresInSeconds: number): number {
  const lifetime = expiresInSeconds * 1000;
  const margin = Math.min(RENEW_MARGIN_MS, lifetime * RENEW_SHARE);
  return issuedAt + lifetime - margin;
}

interface Slot {
  current?: IssuedToken;
  inFlight?: Promise<IssuedToken>;
}

export class TokenCache {
  private readonly slots = new Map<string, Slot>();

  static key(baseUrl: string, clientId: string, clientSecret: string): string {
    // the secret is part of the key (a new secret must not reuse an old token) but only as a hash
    const secretHash = createHash("sha256").update(clientSecret).digest("hex").slice(0, 16);
    return `${baseUrl}\n${clientId}\n${secretHash}`;
  }

  /** A valid token: the cached one, the one being fetched, or a newly fetched one. */
  async get(key: string, mint: () => Promise<IssuedToken>, now = Date.now()): Promise<string> {
    const slot = this.slot(key);
    if (slot.current && slot.current.renewAt > now) return slot.current.token;
    return (await this.fetch(slot, mint)).token;
  }

  /** Drops `rejected` (a 401 answered it) and fetches a new token unless another caller did already. */
  async renew(key: string, rejected: string, mint: () => Promise<IssuedToken>): Promise<string> {
    const slot = this.slot(key);
    if (slot.current && slot.current.token !== rejected) return slot.current.token;
    slot.current = undefined;
    return (await this.fetch(slot, mint)).token;
  }

  clear(): void {
    this.slots.clear();
  }

  private slot(key: string): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {};
      this.slots.set(key, slot);
    }
    return slot;
  }

  private fetch(slot: Slot, mint: () => Promise<IssuedToken>): Promise<IssuedToken> {
    if (!slot.inFlight) {
      slot.inFlight = mint()
        .then((issued) => {
          slot.current = issued;
          return issued;
        })
        .finally(() => {
          slot.inFlight = undefined;
        });
    }
    return slot.inFlight;
  }
}

/** The process-wide cache every client uses unless given its own. */
export const sharedTokenCache = new TokenCache();
