// The dynamic face: what the serialized provider shims call (sdk/provider.ts; a contract with every
// stack ever created: docs/upgrading.md). It reads the configuration from the stack config,
// names the kind (from the shim, or the resource's hidden `__mediahostKind`), takes the hidden keys
// the SDK and the dynamic-provider machinery add off the properties and puts them back on the
// results, and calls the lifecycle (provider/lifecycle.ts) through what every face shares
// (provider/face.ts). Nothing else happens here.
import type { ConfigReader } from "./config";
import { configurationOf, Face, storedState, ownProperties as strip } from "./face";
import { HIDDEN_KEYS, KIND_KEY, OWNER_KEY, PROVIDER_KEY } from "./hidden";
import { resetJournals } from "./journal";
import type { CheckFailure, Lifecycle } from "./lifecycle";
import { kindByName } from "./resources";
import type { Kind } from "./resources/kind";

type Props = Record<string, unknown>;
type CheckResult = { inputs: Props; failures: CheckFailure[] };

/** The hidden keys a resource's outputs carry on (all but `__provider`, which the engine keeps). */
function hidden(props: Props): Props {
  return Object.fromEntries(
    Object.entries(props).filter(([k]) => HIDDEN_KEYS.includes(k) && k !== PROVIDER_KEY),
  );
}

/** The kind a call is for: named by the shim, or, for the shim shared by every kind, by the props. */
function kindOf(name: string | undefined, props: Props): Kind {
  const named = name ?? (props[KIND_KEY] as string | undefined);
  const kind = named === undefined ? undefined : kindByName(named);
  if (!kind) {
    throw new Error(
      `pulumi-mediahost: unknown resource kind "${named}" (is the installed package older than the program?)`,
    );
  }
  return kind;
}

/** One provider process of the dynamic face: its calls, in the dynamic provider's shapes. */
export class DynamicFace {
  constructor(readonly face: Face) {}

  /** The kind and the lifecycle of a call; the SDK tells every resource's stack in a hidden input. */
  private open(kindName: string | undefined, props: Props): { kind: Kind; lifecycle: Lifecycle } {
    const kind = kindOf(kindName, props);
    const owner = props[OWNER_KEY];
    this.face.setOwner(typeof owner === "string" ? owner : undefined);
    return { kind, lifecycle: this.face.lifecycle };
  }

  async check(kindName: string | undefined, olds: Props, news: Props): Promise<CheckResult> {
    const { kind, lifecycle } = this.open(kindName, news);
    const { inputs, failures } = lifecycle.check(kind, strip(news), strip(olds));
    return { inputs: { ...inputs, ...hidden(news), [PROVIDER_KEY]: news[PROVIDER_KEY] }, failures };
  }

  async diff(kindName: string | undefined, id: string, olds: Props, news: Props) {
    const { kind, lifecycle } = this.open(kindName, news);
    const { changes, replaces, deleteBeforeReplace } = lifecycle.diff(
      kind,
      id,
      storedState(olds),
      strip(news),
    );
    return {
      changes: changes.length > 0,
      /** The changed properties, for tests and tools (the engine reads the three other fields). */
      diffs: changes,
      replaces,
      deleteBeforeReplace,
    };
  }

  async create(kindName: string | undefined, inputs: Props) {
    const { kind, lifecycle } = this.open(kindName, inputs);
    const { id, outs } = await lifecycle.create(kind, strip(inputs));
    return { id, outs: { ...outs, ...hidden(inputs) } };
  }

  async read(kindName: string | undefined, id: string, props: Props) {
    const { kind, lifecycle } = this.open(kindName, props);
    const live = await lifecycle.read(kind, id, storedState(props));
    // an empty id tells the engine the object is gone
    if (!live) return { id: "", props: {} };
    return {
      id,
      props: { ...live.outs, ...hidden(props) },
      inputs: { ...live.inputs, ...hidden(props) },
    };
  }

  async update(kindName: string | undefined, id: string, olds: Props, news: Props) {
    const { kind, lifecycle } = this.open(kindName, news);
    const outs = await lifecycle.update(kind, id, storedState(olds), strip(news));
    return { outs: { ...outs, ...hidden(news) } };
  }

  async remove(kindName: string | undefined, id: string, props: Props) {
    const { kind, lifecycle } = this.open(kindName, props);
    await lifecycle.delete(kind, id, storedState(props));
  }
}

/** The face of this provider process, and the digest of the configuration it was made from. */
let current: { face: DynamicFace; digest: string } | undefined;

/**
 * Reads credentials and settings from the stack config (`configure()` of the dynamic provider).
 * The engine calls it once per distinct serialized provider, with the same config: the session
 * (accounts, tokens, the account writer, what the run learned) is kept unless the config changed.
 */
export function configure(req: { config: { get(key: string): string | undefined } }): void {
  const configuration = configurationOf((key) => req.config.get(key));
  if (current?.digest === configuration.digest) return;
  current = { face: new DynamicFace(new Face(configuration)), digest: configuration.digest };
}

/** Forgets the session, as a new provider process starts without one (tests, tools). */
export function resetSession(): void {
  current = undefined;
  resetJournals();
}

/** Before Pulumi 3.139 there is no `configure()`: the same config is in PULUMI_CONFIG. */
function face(): DynamicFace {
  if (!current) {
    const raw = JSON.parse(process.env.PULUMI_CONFIG ?? "{}") as Record<string, string>;
    const config: ConfigReader = (key) => raw[key] ?? raw[key.replace(":", ":config:")];
    configure({ config: { get: config } });
  }
  return current!.face;
}

// What the serialized shims call (sdk/provider.ts; a contract with every stack: docs/upgrading.md).
export const check = (kind: string | undefined, olds: Props, news: Props) => face().check(kind, olds, news);
export const diff = (kind: string | undefined, id: string, olds: Props, news: Props) =>
  face().diff(kind, id, olds, news);
export const create = (kind: string | undefined, inputs: Props) => face().create(kind, inputs);
export const read = (kind: string | undefined, id: string, props: Props) => face().read(kind, id, props);
export const update = (kind: string | undefined, id: string, olds: Props, news: Props) =>
  face().update(kind, id, olds, news);
export const remove = (kind: string | undefined, id: string, props: Props) => face().remove(kind, id, props);
