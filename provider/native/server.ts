// The native face: Pulumi's gRPC provider protocol served over the lifecycle, for the package
// `mediahost` (type tokens `mediahost:index:<Kind>`). A thin adapter: each RPC decodes its
// properties (provider/native/wire.ts), calls the configuration module or the lifecycle, and
// encodes the answer. It loads gRPC and the protocol's stubs from @pulumi/pulumi's own
// dependencies, and nothing else of the SDK, so that the plugin starts quickly.
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import type * as Grpc from "@grpc/grpc-js";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import { MediahostError } from "../client";
import { configFailures, readerOf } from "../config";
import { isExpected, ProviderError } from "../errors";
import { Face, ownProperties as own, storedState } from "../face";
import { argumentsOf, dataFunctionByName } from "../functions";
import type { CheckFailure, Lifecycle } from "../lifecycle";
import { setLogSink } from "../log";
import { kindByName } from "../resources";
import { type Kind, ownSecrets } from "../resources/kind";
import { VERSION } from "../version";
import schema from "./schema.json";
import { type Decoded, decode, encode, type Props, parseUrn } from "./wire";

const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = sdk("@grpc/grpc-js") as typeof Grpc;
const providerPb = sdk("@pulumi/pulumi/proto/provider_pb") as typeof ProviderPb;
const providerGrpc = sdk("@pulumi/pulumi/proto/provider_grpc_pb") as typeof ProviderGrpc;
const pluginPb = sdk("@pulumi/pulumi/proto/plugin_pb") as typeof PluginPb;
const enginePb = sdk("@pulumi/pulumi/proto/engine_pb") as typeof EnginePb;
const engineGrpc = sdk("@pulumi/pulumi/proto/engine_grpc_pb");
const { Struct } = sdk("google-protobuf/google/protobuf/struct_pb") as typeof StructPb;
const { Empty } = sdk("google-protobuf/google/protobuf/empty_pb");

const PACKAGE = "mediahost";
const SCHEMA = JSON.stringify(schema);

type Call<Req> = { request: Req };
type Callback<Res> = (error: Grpc.ServiceError | null, response?: Res) => void;

/** The URN of the resource whose RPC is being served: log lines from it are attached to it. */
const current = new AsyncLocalStorage<string>();

/** The resource kind of a type token `mediahost:index:<Kind>`. */
function kindOfType(type: string): Kind {
  const [pkg, mod, name] = type.split(":");
  const kind = pkg === PACKAGE && mod === "index" && name ? kindByName(name) : undefined;
  if (!kind) throw new ProviderError(`unknown resource type ${type} (is the plugin older than the program?)`);
  return kind;
}

/** The error the engine shows: one line for expected failures, the stack for bugs. */
function failure(err: unknown): Grpc.ServiceError {
  const message = isExpected(err) ? (err as Error).message : ((err as Error)?.stack ?? String(err));
  const code =
    err instanceof MediahostError && err.kind === "invalid"
      ? grpc.status.INVALID_ARGUMENT
      : grpc.status.UNKNOWN;
  return Object.assign(new Error(message), { code, details: message, metadata: new grpc.Metadata() });
}

/**
 * A check failure as the engine shows it. The CLI prints a failure's property with the value it
 * finds under that name at the top level (`property title value {…} has a problem: …`): a nested
 * path such as `product.id` finds none and prints `{<nil>}`. Those go without a property, the path
 * leading the reason (`… has a problem: product.id: must be at most 256 characters`).
 */
export function engineFailure(f: CheckFailure, news: Props): { property: string; reason: string } {
  if (Object.hasOwn(news, f.property)) return f;
  return { property: "", reason: f.property === "(inputs)" ? f.reason : `${f.property}: ${f.reason}` };
}

/** A diff answer naming the properties that changed (none: no change). */
function diffOf(changed: string[]): ProviderPb.DiffResponse {
  const res = new providerPb.DiffResponse();
  const { DIFF_SOME, DIFF_NONE } = providerPb.DiffResponse.DiffChanges;
  res.setChanges(changed.length ? DIFF_SOME : DIFF_NONE);
  res.setDiffsList(changed);
  return res;
}

/** Serves one handler: the URN it names is attached to its log lines; its failure is shaped. */
function serve<Req, Res>(handler: (req: Req) => Promise<Res>, urnOf?: (req: Req) => string) {
  return (call: Call<Req>, callback: Callback<Res>) => {
    current.run(urnOf?.(call.request) ?? "", () =>
      handler(call.request).then(
        (res) => callback(null, res),
        (err) => callback(failure(err)),
      ),
    );
  };
}

function unimplemented(name: string) {
  return (_call: unknown, callback: Callback<never>) =>
    callback(
      Object.assign(new Error(`${name} is not implemented`), {
        code: grpc.status.UNIMPLEMENTED,
        details: `${name} is not implemented`,
        metadata: new grpc.Metadata(),
      }),
    );
}

/** The provider: one per plugin process, which the engine starts per provider instance. */
export class NativeProvider {
  private face?: Face;
  private engine?: InstanceType<typeof engineGrpc.EngineClient>;

  constructor(engineAddress?: string) {
    if (engineAddress) this.attachTo(engineAddress);
  }

  /** Log lines go to the engine, attached to the resource being served. */
  private attachTo(address: string): void {
    this.engine = new engineGrpc.EngineClient(address, grpc.credentials.createInsecure());
    const send = (severity: EnginePb.LogSeverity, message: string) => {
      const req = new enginePb.LogRequest();
      req.setSeverity(severity);
      req.setMessage(message);
      req.setUrn(current.getStore() ?? "");
      this.engine?.log(req, () => {});
    };
    setLogSink({
      info: (m) => send(enginePb.LogSeverity.INFO, m),
      warn: (m) => send(enginePb.LogSeverity.WARNING, m),
    });
  }

  /** The face of the Configure call; an engine that sends none (a tool): the environment's credentials. */
  private configured(): Face {
    this.face ??= Face.of(() => undefined);
    return this.face;
  }

  /** The stack a resource belongs to keys the stack journal (the dynamic face's owner, from the URN). */
  private opened(urn: string): { lifecycle: Lifecycle; kind: Kind } {
    const { stack, project, type } = parseUrn(urn);
    const face = this.configured();
    face.setOwner(`${project}/${stack}`);
    return { lifecycle: face.lifecycle, kind: kindOfType(type) };
  }

  /** The keys of `props` that are secrets: those the engine sent as secrets, and the kind's own. */
  private secretKeys(kind: Kind, decoded: Decoded, props: Props): Set<string> {
    return new Set([...decoded.secrets, ...ownSecrets(kind, props)]);
  }

  readonly service = {
    getPluginInfo: serve(async () => new pluginPb.PluginInfo().setVersion(VERSION)),

    getSchema: serve(async (req: ProviderPb.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new ProviderError(`unsupported schema version ${req.getVersion()}`);
      return new providerPb.GetSchemaResponse().setSchema(SCHEMA);
    }),

    checkConfig: serve(async (req: ProviderPb.CheckRequest) => {
      const news = decode(req.getNews()).props;
      const res = new providerPb.CheckResponse().setInputs(req.getNews());
      res.setFailuresList(
        configFailures(news).map((f) =>
          new providerPb.CheckFailure().setProperty(f.property).setReason(f.reason),
        ),
      );
      return res;
    }),

    diffConfig: serve(async (req: ProviderPb.DiffRequest) => {
      // new credentials, a new address: the resources' account check (their recorded alias)
      // refuses credentials that reach another account; the provider itself is never replaced
      const olds = decode(req.getOldInputs() ?? req.getOlds()).props;
      const news = decode(req.getNews()).props;
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
      );
      return diffOf(changed);
    }),

    configure: serve(async (req: ProviderPb.ConfigureRequest) => {
      const args = decode(req.getArgs()).props;
      for (const [key, value] of req.getVariablesMap().entries()) {
        const name = key.replace(/^mediahost:config:/, "");
        if (args[name] === undefined) args[name] = value;
      }
      this.face = Face.of(readerOf(args));
      return new providerPb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(false);
    }),

    check: serve(
      async (req: ProviderPb.CheckRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        const news = decode(req.getNews());
        const olds = own(decode(req.getOlds()).props);
        const { inputs, failures } = lifecycle.check(kind, own(news.props), olds);
        const res = new providerPb.CheckResponse().setInputs(
          encode(Struct, inputs, this.secretKeys(kind, news, inputs)),
        );
        res.setFailuresList(
          failures.map((f) => {
            const { property, reason } = engineFailure(f, news.props);
            return new providerPb.CheckFailure().setProperty(property).setReason(reason);
          }),
        );
        return res;
      },
      (req) => req.getUrn(),
    ),

    diff: serve(
      async (req: ProviderPb.DiffRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        const olds = storedState(decode(req.getOlds()).props);
        const news = own(decode(req.getNews()).props);
        const { changes, replaces, deleteBeforeReplace } = lifecycle.diff(kind, req.getId(), olds, news);
        const res = diffOf(changes);
        res.setReplacesList(replaces);
        res.setDeletebeforereplace(deleteBeforeReplace);
        res.setHasdetaileddiff(true);
        const detailed = res.getDetaileddiffMap();
        const Kind = providerPb.PropertyDiff.Kind;
        for (const key of changes) {
          const replace = replaces.includes(key);
          const kindOfChange =
            olds[key] === undefined
              ? replace
                ? Kind.ADD_REPLACE
                : Kind.ADD
              : news[key] === undefined
                ? replace
                  ? Kind.DELETE_REPLACE
                  : Kind.DELETE
                : replace
                  ? Kind.UPDATE_REPLACE
                  : Kind.UPDATE;
          detailed.set(key, new providerPb.PropertyDiff().setKind(kindOfChange).setInputdiff(true));
        }
        return res;
      },
      (req) => req.getUrn(),
    ),

    create: serve(
      async (req: ProviderPb.CreateRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        const inputs = decode(req.getProperties());
        const { id, outs } = await lifecycle.create(kind, own(inputs.props));
        return new providerPb.CreateResponse()
          .setId(id)
          .setProperties(encode(Struct, outs, this.secretKeys(kind, inputs, outs)));
      },
      (req) => req.getUrn(),
    ),

    read: serve(
      async (req: ProviderPb.ReadRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        const state = decode(req.getProperties());
        const res = new providerPb.ReadResponse();
        // an import: the engine names the object by its id alone
        const found =
          Object.keys(state.props).length === 0
            ? await lifecycle.import(kind, req.getId())
            : await lifecycle.read(kind, req.getId(), storedState(state.props));
        if (!found) return res.setId("");
        const secrets = this.secretKeys(kind, state, found.outs);
        return res
          .setId(req.getId())
          .setProperties(encode(Struct, found.outs, secrets))
          .setInputs(encode(Struct, found.inputs, secrets));
      },
      (req) => req.getUrn(),
    ),

    update: serve(
      async (req: ProviderPb.UpdateRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        const olds = decode(req.getOlds());
        const news = decode(req.getNews());
        const outs = await lifecycle.update(kind, req.getId(), storedState(olds.props), own(news.props));
        const secrets = new Set([...this.secretKeys(kind, news, outs), ...olds.secrets]);
        return new providerPb.UpdateResponse().setProperties(encode(Struct, outs, secrets));
      },
      (req) => req.getUrn(),
    ),

    delete: serve(
      async (req: ProviderPb.DeleteRequest) => {
        const { lifecycle, kind } = this.opened(req.getUrn());
        await lifecycle.delete(kind, req.getId(), storedState(decode(req.getProperties()).props));
        return new Empty();
      },
      (req) => req.getUrn(),
    ),

    invoke: serve(async (req: ProviderPb.InvokeRequest) => {
      const name = req.getTok().replace(`${PACKAGE}:index:`, "");
      const fn = dataFunctionByName(name);
      if (!fn || req.getTok() !== `${PACKAGE}:index:${name}`)
        throw new ProviderError(`unknown function ${req.getTok()}`);
      const args = argumentsOf(name, fn, decode(req.getArgs()).props);
      const account = typeof args.account === "string" ? args.account : undefined;
      const client = this.configured().account(account).client;
      const result = await fn.run(client, args);
      return new providerPb.InvokeResponse().setReturn(encode(Struct, result, fn.secrets ?? []));
    }),

    cancel: serve(async () => new Empty()),
    attach: serve(async (req: PluginPb.PluginAttach) => {
      this.attachTo(req.getAddress());
      return new Empty();
    }),

    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    list: unimplemented("List"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
  };
}

/** Starts the gRPC server on a free loopback port; resolves to the port. */
export async function serveProvider(
  provider: NativeProvider,
): Promise<{ port: number; server: Grpc.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1 << 30 });
  server.addService(providerGrpc.ResourceProviderService, provider.service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { port, server };
}
