// tus resumable uploads, served by the tus reference server under /tus. An upload is created
// with the link of GET /v2/files/tus/url (its `token` names the account) and the destination
// path in the upload metadata `filename`; a finished upload lands in the account's tree.
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { FileStore } from "@tus/file-store";
import { Server } from "@tus/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FILE_SIZE_LIMIT } from "./accounts";
import type { Context } from "./context";
import { ApiError, httpError } from "./errors";
import { cleanPath, seconds } from "./handlers/types";
import { fileContent, HEAD_BYTES } from "./media";

const UPLOAD_COUNTER = "rest:post:files:upload";

/** What a tus hook throws to answer with a status and a JSON body. */
function refuse(e: ApiError): { status_code: number; body: string } {
  return { status_code: e.statusCode, body: JSON.stringify(e.body) };
}

export function createTusServer(ctx: Context, directory: string): Server {
  return new Server({
    path: "/tus",
    datastore: new FileStore({ directory }),
    maxSize: FILE_SIZE_LIMIT,
    async onUploadCreate(req, upload) {
      const now = Date.now();
      const token = new URL(req.url).searchParams.get("token");
      const account = token ? ctx.accountOf(token, "tus", now) : undefined;
      if (!account) throw refuse(httpError(401, "Missing or expired upload link"));
      let filename: string;
      try {
        const given = upload.metadata?.filename;
        if (!given?.startsWith("/") || given.length > 1024) {
          throw httpError(400, 'metadata.filename: must be a path that begins with "/"');
        }
        filename = cleanPath(given, "metadata.filename");
      } catch (e) {
        throw refuse(e as ApiError);
      }
      const limiter = account.limiter;
      if (limiter.exceeded([UPLOAD_COUNTER], seconds(now))) {
        const reset = new Date(limiter.state(UPLOAD_COUNTER, seconds(now)).reset * 1000).toISOString();
        throw refuse(
          httpError(429, `rate limit exceeded for ${UPLOAD_COUNTER}; requests may resume at ${reset}`),
        );
      }
      limiter.consume([UPLOAD_COUNTER], seconds(now));
      return { metadata: { ...upload.metadata, filename, account: account.alias } };
    },
    async onUploadFinish(_req, upload) {
      const { filename, account } = upload.metadata as { filename: string; account: string };
      const blobs = ctx.world.blobs;
      const { hash, size } = await blobs.putFile(join(directory, upload.id));
      try {
        const head = await blobs.head(hash, HEAD_BYTES);
        // typed by the name's extension, as the live service types an upload; the `filetype` sent
        // is kept only under `content-type-declared` (docs/api.md#uploads-and-fetches)
        const kept = ctx.plays("content-type-declared");
        const declared = kept ? upload.metadata?.filetype : null;
        const content = fileContent(hash, size, head, filename, declared, kept ? "declared" : "extension");
        await ctx.store.commit({ type: "writeFile", account, path: filename, content, time: Date.now() });
        return {};
      } catch (e) {
        if (e instanceof ApiError) return refuse(e);
        throw e;
      } finally {
        blobs.release(hash);
        await fsp.rm(join(directory, `${upload.id}.json`), { force: true });
      }
    },
  });
}

/** Mounts the tus server; its requests bypass fastify's body parsing and reply. */
export function registerTus(app: FastifyInstance, tus: Server): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    };
    scope.all("/tus", handle);
    scope.all("/tus/*", handle);
  });
}
