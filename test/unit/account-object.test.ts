// Reading back an account write when the service's answers leave fields out (docs/api.md, [live]):
// an alias entry without `cdn` reads as `cdn: false`, so a write of `cdn: false` is seen to have
// taken; a field the answers never show is said to be unshown, not blamed on another writer.
import { describe, expect, it } from "vitest";
import { type Account, notShown, readBack, unshown } from "../../provider/account/account-object";
import { readAnswer } from "../../provider/client";

const answer = (aliases: Record<string, unknown>) => {
  const read = readAnswer("getAccount", {
    alias: "demo",
    fetching: { enabled: false },
    minify: { enabled: false },
    aliases,
  });
  if (!read.ok) throw new Error(read.issues);
  return read.value as Account;
};

describe("reading back an alias write", () => {
  it("an entry that leaves out cdn reads as cdn: false, so writing false is seen to take", () => {
    const change = { resource: "Alias web", alias: { name: "web", fields: { prefix: "/", cdn: false } } };
    const account = answer({ web: { prefix: "/" } });
    expect(readBack(account, change, "unknown").done).toBe(true);
    expect(unshown(account, change)).toEqual([]);
  });

  it("a field the answers never show is named as unshown, not as another writer's doing", () => {
    const change = {
      resource: "Alias web",
      alias: { name: "web", fields: { prefix: "/", defaultProfile: "shop" } },
    };
    const account = answer({ web: { prefix: "/", cdn: true } });
    expect(readBack(account, change, "unknown").done).toBe(false);
    expect(unshown(account, change)).toEqual(["aliases.web.defaultProfile"]);
    expect(notShown("Alias web", "demo", 5, unshown(account, change)).message).toBe(
      'Alias web: account "demo" does not show `aliases.web.defaultProfile` in its answers (written 5 times, ' +
        "each read back without it), so the provider cannot confirm the change took; check it in the service's console",
    );
  });

  it("another value is another writer's: nothing is unshown", () => {
    const change = { resource: "Alias web", alias: { name: "web", fields: { prefix: "/shop" } } };
    expect(unshown(answer({ web: { prefix: "/other" } }), change)).toEqual([]);
  });
});
