// The delivery side, so that URLs the API hands out actually work:
//   GET /cdn/<alias>/<path>        a stored file, by account alias or alias entry (its prefix
//                                  applied); JWT-protected folders need a valid ?jwt=
//   GET /downloads/<job>/<name>    a finished ZIP job's archive
import type { FastifyInstance, FastifyReply } from "fastify";
import { isAtOrUnder, parentOf } from "mediahost-contract";
import type { Account } from "./accounts";
import { verifyJwt } from "./auth";
import type { Context } from "./context";
import { httpError, notFound } from "./errors";
import { seconds } from "./handlers/types";
import type { SpinData } from "./stats";
import { type DirNode, splitPath, type Tree, type TreeNode } from "./tree";

/** The account and path prefix an alias name serves. */
function resolveAlias(ctx: Context, name: string): { account: Account; prefix: string } | undefined {
  for (const account of ctx.world.accounts.values()) {
    const entry = account.aliases.get(name);
    if (entry) return { account, prefix: (entry.prefix ?? "/").replace(/\/+$/, "") };
  }
  const account = ctx.world.account(name);
  return account ? { account, prefix: "" } : undefined;
}

/** The key of the nearest JWT-protected folder above `path`, if any. */
function protectionKey(root: DirNode, path: string): string | undefined {
  let key = root.jwtKey;
  let node: TreeNode | undefined = root;
  for (const name of splitPath(path)) {
    node = node.kind === "dir" ? node.children.get(name) : undefined;
    if (!node) break;
    if (node.kind === "dir" && node.jwtKey !== undefined) key = node.jwtKey;
  }
  return key;
}

/**
 * What a viewer of the spin at `path` reports (docs/api.md#statistics; the emulator's reading): the
 * images of the spin's folder are its frames, in one row; the viewer is as large as the first.
 */
function spinData(tree: Tree, path: string): SpinData {
  const dir = tree.get(parentOf(path));
  const frames =
    dir?.kind === "dir"
      ? [...dir.children.entries()]
          .filter(([, n]) => n.kind === "file" && n.contentType.startsWith("image/"))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([, n]) => n)
      : [];
  const first = frames[0];
  const media = first?.kind === "file" ? first.media : {};
  return {
    rows: 1,
    columns: frames.length,
    viewerSize: { width: media.width ?? 0, height: media.height ?? 0 },
  };
}

function allowed(jwt: string | undefined, key: string, path: string): boolean {
  const claims = jwt ? verifyJwt(jwt, key, seconds(Date.now())) : undefined;
  return typeof claims?.aud === "string" && isAtOrUnder(path, claims.aud);
}

export function registerCdn(app: FastifyInstance, ctx: Context): void {
  app.get<{ Params: { alias: string; "*": string }; Querystring: { jwt?: string } }>(
    "/cdn/:alias/*",
    async (request, reply: FastifyReply) => {
      const target = resolveAlias(ctx, request.params.alias);
      if (!target) throw notFound(`Unknown alias: ${request.params.alias}`);
      const path = `${target.prefix}/${request.params["*"]}`.replace(/\/+$/, "") || "/";
      const tree = target.account.tree;
      const node = tree.get(path);
      if (node?.kind !== "file") throw notFound(`Not found: ${path}`);
      const key = protectionKey(tree.root, path);
      if (key !== undefined && !allowed(request.query.jwt, key, path)) {
        throw httpError(403, "A valid jwt is required for this protected folder");
      }
      const query = request.url.includes("?") ? `?${request.url.split("?")[1]}` : "";
      target.account.stats.delivered(Date.now(), path, node.size, node.contentType, {
        referer: request.headers.referer,
        userAgent: request.headers["user-agent"],
        // the token is a credential: never part of the view's origin
        query: query.replace(/([?&])jwt=[^&]*&?/, "$1").replace(/[?&]$/, ""),
        ...(path.endsWith(".spin") ? { spin: spinData(tree, path) } : {}),
      });
      reply.header("content-type", node.contentType).header("content-length", node.size);
      return reply.send(ctx.world.blobs.open(node.blob));
    },
  );

  app.get<{ Params: { id: string; name: string } }>("/downloads/:id/:name", async (request, reply) => {
    const archive = ctx.jobs.archives.get(request.params.id);
    if (!archive || archive.filename !== request.params.name) throw notFound("Archive not found or expired");
    reply.header("content-type", "application/zip").header("content-length", archive.data.length);
    return reply.send(archive.data);
  });
}
