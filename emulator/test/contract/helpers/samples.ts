// One well-formed request per operation of the table, keyed by the operation names of
// contract/operations.ts. Bodies whose fields the specification leaves "not shown" follow
// docs/api.md. Used where a test must reach every route with input the validation accepts
// (authentication loop, request log), so that the only thing under test is the route itself.
import { operations } from "mediahost-contract";

export interface Sample {
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

const f = { filename: "/sample/file.jpg" };
const job = { id: "job-1" };

/** Operations the service's own documentation shows beyond the specification's 57 (docs/api.md). */
export const documentedAdditions: readonly string[] = ["upload", "markEventsSeen", "searchScroll"];
/** The specification's operations and the documented additions: what the table must hold. */
export const OPERATION_COUNT = 57 + documentedAdditions.length;

export const samples: Record<keyof typeof operations, Sample> = {
  token: { body: { clientId: "demo-client", clientSecret: "demo-secret" } },
  getAccount: {},
  updateAccount: { body: { minify: { enabled: false } } },
  getUser: { query: { userId: "user-1" } },
  getLimits: {},
  getStorage: {},
  listUsers: {},
  getBillingPlan: {},
  addCustomDomain: { body: { alias: "sample", domain: "img.example.com" } },
  removeCustomDomain: { query: { alias: "sample", domain: "img.example.com" } },
  createSubAccount: { body: { alias: "sample-sub" } },
  deleteSubAccount: { query: { alias: "sample-sub" } },
  searchEvents: { body: { module: "files" } },
  download: { query: f },
  getMeta: { query: f },
  setMeta: { query: f, body: { title: "t" } },
  getFolderOptions: { query: { filename: "/sample" } },
  setFolderOptions: { query: { filename: "/sample" }, body: { scanSpins: true } },
  getPoi: { query: f },
  setPoi: { query: f, body: { name: "face", x: 0.25, y: 0.1, width: 0.5, height: 0.4 } },
  deletePoi: { query: f, body: { name: "face" } },
  readdir: { query: { dirname: "/" } },
  startRemoveBackground: { body: { filename: "/sample/file.jpg" } },
  getRemoveBackgroundJob: { query: job },
  stat: { query: f },
  startZip: { body: { filenames: ["/sample/file.jpg"] } },
  getZipJob: { query: job },
  startModel2Glb: { body: { filename: "/sample/model.obj" } },
  getModel2GlbJob: { query: job },
  startBatchDelete: { body: { filenames: ["/sample/file.jpg"] } },
  getBatchDeleteJob: { query: job },
  getApproval: { query: f },
  setApproval: { query: f, body: { approved: true } },
  getDescription: { query: f },
  setDescription: { query: f, body: { description: "d" } },
  getProduct: { query: f },
  setProduct: { query: f, body: { id: "p-1", name: "n" } },
  getTags: { query: f },
  addTags: { query: f, body: { tags: ["a"] } },
  removeTags: { query: f, body: { tags: ["a"] } },
  getTitle: { query: f },
  setTitle: { query: f, body: { title: "t" } },
  upload: {
    query: { filename: "/sample/uploaded.txt" },
    body: { bytes: new TextEncoder().encode("hello"), contentType: "text/plain" },
  },
  getTusLocations: {},
  markEventsSeen: { body: ["0123456789abcdef01234567"] },
  getTusUrl: { query: { location: "/sample/upload.bin", expiresIn: 3600 } },
  getHttpStats: {},
  getStorageStats: {},
  getTrafficStats: {},
  getSpinViews: {},
  copy: { query: { from: "/sample/file.jpg", to: "/sample/copy.jpg" } },
  deleteFile: { query: f },
  fetch: { body: [{ url: "http://127.0.0.1:9/nothing.jpg", filename: "/sample/fetched.jpg" }] },
  createJwt: { body: { filename: "/sample/file.jpg", key: "k", expiresIn: 3600 } },
  mkdir: { query: { dirname: "/sample" } },
  rename: { query: { from: "/sample/file.jpg", to: "/sample/renamed.jpg" } },
  search: { body: { query: "file" } },
  searchScroll: {
    body: { scrollId: Buffer.from('{"query":"*","sort":{},"offset":1,"size":1}').toString("base64url") },
  },
  spin2marketplaceA360: { body: { filename: "/sample/spin.spin", productId: "B000000000" } },
  spin2marketplaceB360: { body: { filename: "/sample/spin.spin" } },
};

export type OperationName = keyof typeof operations;

export const operationNames = Object.keys(operations) as OperationName[];

export function route(name: OperationName): { method: string; path: string } {
  const o = operations[name];
  return { method: o.method, path: o.path };
}

/** Every counter with its hourly limit, copied from docs/api.md#rate-limits (not from the code). */
export const SPEC_COUNTERS: Record<string, number> = {
  "s3:global": 7000,
  "s3:PUT": 2000,
  "s3:GET": 3000,
  "s3:DELETE": 3000,
  "rest:global": 7000,
  "rest:post:files:search": 1000,
  "rest:post:files:search:scroll": 2000,
  "rest:post:files:video2spin": 200,
  "rest:post:files:spin2video": 200,
  "rest:post:files:upload": 2000,
  "rest:post:files:delete": 3000,
  "rest:post:files:batch:delete": 25,
  "rest:post:account": 50,
  "rest:post:account:fetching": 50,
  "rest:get:stats:http": 100,
  "rest:get:stats:storage": 100,
  "rest:post:account:new": 5,
  "rest:post:user:accounts": 20,
  "rest:get:rest:credentials": 50,
  "rest:post:video:toSpin": 400,
  "rest:post:upload:toService": 2000,
  "ftp:global": 10000,
  "ftp:STOR": 2000,
  "ftp:RETR": 3000,
  "ftp:DELE": 3000,
  "rest:post:files:fetch": 2000,
  "fetch:file": 1000,
  "fetch:largefile": 10,
  "fetch:largetimeout": 10,
  "zips2:create": 536870912000,
};

/** Asserts a file-system error body of docs/api.md: `{name, message: "<text>: <path>"}`. */
export function fsErrorMessage(body: unknown): { name: string; message: string } {
  const b = body as { name?: unknown; message?: unknown } | undefined;
  if (typeof b?.name !== "string" || b.name.length === 0 || typeof b.message !== "string") {
    throw new Error(`not a file-system error body: ${JSON.stringify(body)}`);
  }
  return { name: b.name, message: b.message };
}
