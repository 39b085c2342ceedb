// The operation table's rules about repeats and secrets, walked operation by operation against a
// loopback server: an attempt whose answer is lost is repeated only where the table says a repeat
// is harmless (or first checked, or recognised as done), and fails saying what to check where it
// is not; every credential the table marks never reaches an error message.

import { type OperationName, type OperationSpec, operations, schemas } from "mediahost-contract";
import { describe, expect, it } from "vitest";
import { samples } from "../../emulator/test/contract/helpers/samples";
import { MediahostClient, MediahostError, TokenCache } from "../../provider/client";
import { policies } from "../../provider/client/policy";
import { json, startServer } from "./helpers/http-server";

const names = Object.keys(operations) as OperationName[];
/** A stat answer for a file. */
const aFile = {
  mtime: "2026-11-01T00:00:00.000Z",
  ctime: "2026-11-01T00:00:00.000Z",
  size: 1,
  isDirectory: false,
};

function clientFor(url: string) {
  return new MediahostClient({
    baseUrl: url,
    clientId: "demo-client",
    clientSecret: "client-secret-0001",
    tokenCache: new TokenCache(),
    sleep: async () => {},
    maxAttempts: 3,
  });
}

describe("the operation table", () => {
  it("gives every operation a rule for repeats, and every operation that may not repeat says what to check", () => {
    for (const name of names) {
      const spec: OperationSpec = operations[name];
      const { retry } = policies[name];
      expect(["idempotent", "conflictMeansDone", "checkFirst", "repeatable", "never"], name).toContain(
        retry.kind,
      );
      if (spec.method === "GET") expect(retry.kind, `${name} reads`).toBe("idempotent");
      if (retry.kind === "never") expect(retry.check(samples[name] as never), name).toMatch(/\w/);
      if (retry.kind === "repeatable") expect(retry.effect, name).toMatch(/\w/);
    }
  });

  it("classes every call that starts a job or fetches: repeatable (the same done twice) or not (it adds)", () => {
    const starts = names.filter(
      (n) =>
        (operations[n] as OperationSpec).response === schemas.JobCreated || /fetch|^spin2|scroll/i.test(n),
    );
    const classes = Object.fromEntries(starts.map((n) => [n, policies[n].retry.kind]));
    expect(classes).toEqual({
      startRemoveBackground: "never", // a new image
      startZip: "never", // a second archive
      startModel2Glb: "never", // a second model
      startBatchDelete: "repeatable", // a second job finds less, or nothing
      fetch: "never", // fetched again, against the fetch counters
      searchScroll: "never", // the cursor moves: a page skipped
      spin2marketplaceA360: "never", // a second export
      spin2marketplaceB360: "never",
    });
  });

  it.each(names)("%s: an attempt whose answer is lost is repeated only as its rule says", async (name) => {
    const { retry } = policies[name];
    let attempts = 0;
    let checks = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token" && name !== "token") {
        return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      }
      // what a checkFirst rule asks finds nothing: the lost attempt did not take
      if (req.path === "/v2/files/stat" && name !== "stat") {
        checks++;
        return json(res, 404, { message: "No such file or directory" });
      }
      if (req.path === "/v2/files/poi" && req.method === "GET" && name !== "getPoi") {
        checks++;
        return json(res, 200, {});
      }
      attempts++;
      // the first attempt reaches the service and its answer is lost; the second is refused
      if (attempts === 1) return void res.socket?.destroy();
      json(res, 400, { message: "stop here" });
    });
    try {
      const err = (await clientFor(server.url)
        .call(name, samples[name] as never)
        .catch((e) => e)) as MediahostError;
      expect(err).toBeInstanceOf(MediahostError);
      if (retry.kind === "never") {
        expect(attempts, name).toBe(1);
        expect(err.kind).toBe("unsure");
        expect(err.message).toMatch(/may have been applied .*: check /);
      } else {
        expect(attempts, name).toBe(2);
        expect(err.message).toContain("stop here");
      }
      if (retry.kind === "checkFirst") expect(checks, name).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("setPoi: a lost answer whose point is there with these values is done, without a second POST", async () => {
    const points: Record<string, unknown> = {};
    let posts = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      if (req.method === "GET") return json(res, 200, points);
      posts++;
      const { name, ...rectangle } = JSON.parse(req.body);
      points[name] = rectangle;
      res.socket?.destroy(); // applied, answer lost
    });
    try {
      await clientFor(server.url).call("setPoi", samples.setPoi as never);
      expect(posts).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("setPoi: a point of that name with other values is not the lost attempt: the POST is repeated", async () => {
    let posts = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      if (req.method === "GET") return json(res, 200, { face: { x: 0, y: 0, width: 1, height: 1 } });
      posts++;
      if (posts === 1) return void res.socket?.destroy(); // not applied, answer lost
      res.writeHead(200).end();
    });
    try {
      await clientFor(server.url).call("setPoi", samples.setPoi as never);
      expect(posts).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("rename: a repeat answered 404 (the target's parent is missing) is a failure, not a success", async () => {
    let renames = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      // the source is still there: the lost attempt did not move it
      if (req.path === "/v2/files/stat") {
        return req.query.get("filename") === "/sample/file.jpg"
          ? json(res, 200, aFile)
          : json(res, 404, { message: "No such file or directory" });
      }
      renames++;
      if (renames === 1) return void res.socket?.destroy();
      json(res, 404, { message: "No such file or directory: /sample" });
    });
    try {
      const err = (await clientFor(server.url)
        .call("rename", samples.rename as never)
        .catch((e) => e)) as MediahostError;
      expect(err).toBeInstanceOf(MediahostError);
      expect(err.status).toBe(404);
      expect(renames).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("rename: a lost answer whose move took (source gone, target there) is done", async () => {
    let renames = 0;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      if (req.path === "/v2/files/stat") {
        return req.query.get("filename") === "/sample/renamed.jpg"
          ? json(res, 200, aFile)
          : json(res, 404, { message: "No such file or directory" });
      }
      renames++;
      res.socket?.destroy();
    });
    try {
      await clientFor(server.url).call("rename", samples.rename as never);
      expect(renames).toBe(1);
    } finally {
      await server.close();
    }
  });

  const marked = names.filter((n) => (operations[n] as OperationSpec).secrets?.length);
  it("marks the credentials of the token request, the account's read and update, fetch, JWT and user reads", () => {
    expect(marked.sort()).toEqual(["createJwt", "fetch", "getAccount", "getUser", "token", "updateAccount"]);
  });

  /** Inputs with a distinct sentinel at every credential the operation's table entry marks. */
  const withSecrets: Record<string, { input: Record<string, unknown>; sentinels: string[] }> = {
    token: { input: { body: { clientId: "c", clientSecret: "S-client" } }, sentinels: ["S-client"] },
    updateAccount: {
      input: {
        body: {
          fetching: {
            enabled: true,
            type: "http",
            http: {
              url: "https://u:S-urlpw@o.example/x",
              auth: { enabled: true, username: "u", password: "S-pw" },
            },
            s3: { accessKeyId: "S-akid", secretAccessKey: "S-s3", bucket: "b" },
          },
        },
      },
      sentinels: ["S-urlpw", "S-pw", "S-akid", "S-s3"],
    },
    fetch: {
      input: {
        body: [
          {
            url: "https://u:S-furl@o.example/a.jpg",
            filename: "/a.jpg",
            auth: { username: "u", password: "S-fpw" },
          },
        ],
      },
      sentinels: ["S-furl", "S-fpw"],
    },
    createJwt: {
      input: { body: { filename: "/a.jpg", key: "S-jwtkey", expiresIn: 60 } },
      sentinels: ["S-jwtkey"],
    },
  };

  it.each(Object.keys(withSecrets))(
    "%s: a credential it is sent never reaches an error message",
    async (name) => {
      const { input, sentinels } = withSecrets[name]!;
      // a service that echoes what it was sent in its error
      const server = await startServer((req, res) => {
        if (req.path === "/v2/token" && name !== "token")
          return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
        json(res, 400, { message: `bad request: ${decodeURIComponent(`${req.query}`)} ${req.body}` });
      });
      try {
        const err = (await clientFor(server.url)
          .call(name as OperationName, input as never)
          .catch((e) => e)) as Error;
        expect(err).toBeInstanceOf(MediahostError);
        expect(err.message).toMatch(/HTTP 400: bad request/);
        for (const sentinel of sentinels) expect(err.message, sentinel).not.toContain(sentinel);
        expect(err.message).toContain("[redacted]");
      } finally {
        await server.close();
      }
    },
  );

  it("getAccount and createJwt: the credentials they answer never reach a later error message", async () => {
    const signed = "https://cdn.example/a.jpg?jwt=S-signed";
    const secrets = ["S-url-pw", "S-akid", signed, "S-token-only"];
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token") return json(res, 200, { token: "tok", expiresIn: 1200, scope: [] });
      if (req.path === "/v2/account")
        return json(res, 200, {
          alias: "demo",
          fetching: {
            enabled: true,
            type: "http",
            http: { url: "https://u:S-url-pw@origin.example/m" },
            s3: { accessKeyId: "S-akid", bucket: "b" },
          },
          minify: { enabled: false },
          aliases: {},
        });
      if (req.path === "/v2/files/jwt")
        return json(res, 200, { url: "https://cdn.example/a.jpg?jwt=S-signed" });
      json(res, 400, { message: `you sent ${secrets.join(" ")}` });
    });
    try {
      const client = clientFor(server.url);
      await client.ops.getAccount();
      await client.ops.createJwt({ body: { filename: "/a.jpg", key: "k-0001", expiresIn: 60 } });
      // a token-only URL given to fetch is hidden too
      await client.ops
        .fetch({ body: [{ url: "https://S-token-only@origin.example/a.jpg", filename: "/a.jpg" }] })
        .catch(() => {});
      const err = (await client.ops.stat({ query: { filename: "/a" } }).catch((e) => e)) as Error;
      expect(err.message).toMatch(/HTTP 400: you sent/);
      for (const secret of secrets) expect(err.message, secret).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it.each([
    ["token", "token"],
    ["getUser", "s3Secret"],
  ] as const)("%s: a credential it answers never reaches a later error message", async (name, field) => {
    const secret = `S-answer-${field}`;
    const server = await startServer((req, res) => {
      if (req.path === "/v2/token")
        return json(res, 200, { token: name === "token" ? secret : "tok", expiresIn: 1200, scope: [] });
      if (req.path === "/v2/user") return json(res, 200, { [field]: secret });
      json(res, 400, { message: `you sent ${req.headers.authorization}, and ${secret}` });
    });
    try {
      const client = clientFor(server.url);
      if (name === "getUser") await client.ops.getUser({ query: { userId: "u" } });
      const err = (await client.ops.stat({ query: { filename: "/a" } }).catch((e) => e)) as Error;
      expect(err.message).toMatch(/HTTP 400: you sent/);
      expect(err.message).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});
