// The session tells the account writer whether the run is a destroy: a run that has started no
// create or update (provider/account/writer.ts writes a settings reset at its own pace then).
import { describe, expect, it } from "vitest";
import { readConfiguration } from "../../provider/config";
import { Session } from "../../provider/session";

describe("Session", () => {
  it("tells the account writer the run makes only deletes until a create or an update starts", async () => {
    const config: Record<string, string> = {
      "mediahost:baseUrl": "http://127.0.0.1:9",
      "mediahost:clientId": "id",
      "mediahost:clientSecret": "secret",
    };
    const session = new Session(readConfiguration({ config: (k) => config[k], env: {} }));
    const writer = (session.context(undefined).writer as unknown as { options: { onlyDeletes(): boolean } })
      .options;
    expect(writer.onlyDeletes()).toBe(true);
    await session.operation(async () => {});
    expect(writer.onlyDeletes()).toBe(true);
    let during: boolean | undefined;
    await session.operation(async () => {
      during = writer.onlyDeletes();
    }, true);
    expect(during).toBe(false);
    expect(writer.onlyDeletes()).toBe(false);
  });
});
