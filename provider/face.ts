// What every face does, in one place: the dynamic face (provider/dynamic.ts), the native face
// (provider/native/server.ts), the data functions of a program's process (sdk/functions-impl.ts)
// and mediahost-recover (tools/recover.ts). Each turns its protocol's configuration into a
// `ConfigReader`; from it comes one Face: a checked Configuration, the process's Session and its
// Lifecycle. It also separates a face's own keys from a resource's properties and sets whose
// stack a call serves. Nothing else constructs a Session (test/unit/floors.test.ts).
import type { AccountContext } from "./account/context";
import { type ConfigReader, type Configuration, readConfiguration } from "./config";
import { HIDDEN_KEYS } from "./hidden";
import { Lifecycle } from "./lifecycle";
import type { Stored } from "./resources/kind";
import { Session } from "./session";

type Props = Record<string, unknown>;

/** The configuration a face's reader and the process's environment give, checked. */
export function configurationOf(config: ConfigReader): Configuration {
  return readConfiguration({ config, env: process.env });
}

/** One provider process (or tool run) of a face: its configuration, session and lifecycle. */
export class Face {
  readonly session: Session;
  readonly lifecycle: Lifecycle;

  constructor(readonly configuration: Configuration) {
    this.session = new Session(configuration);
    this.lifecycle = new Lifecycle(this.session);
  }

  /** The face made from a configuration reader (and the environment). */
  static of(config: ConfigReader): Face {
    return new Face(configurationOf(config));
  }

  /**
   * Sets the stack the process serves (`<project>/<stack>`, or the owner the dynamic SDK records),
   * which keys the stack journal. A call that names no stack serves the one named last: one
   * provider process works for one stack.
   */
  setOwner(stack: string | undefined): void {
    this.session.setOwner(stack);
  }

  /** The context of an account name, for work outside the lifecycle (data functions, tools). */
  account(name: string | undefined): AccountContext {
    return this.session.context(name);
  }
}

/** A resource's own properties: without the keys a face keeps beside them (provider/hidden.ts). */
export function ownProperties(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !HIDDEN_KEYS.includes(k)));
}

/**
 * A resource's state as the engine hands it back, its own properties with what the lifecycle
 * recorded beside them, where these have the types the lifecycle wrote (provider/resources/kind.ts,
 * `Recorded`).
 */
export function storedState(props: Props): Stored {
  const { account, accountAlias, __adopted, __claim, ...rest } = ownProperties(props);
  return {
    ...rest,
    ...(typeof account === "string" ? { account } : {}),
    ...(typeof accountAlias === "string" ? { accountAlias } : {}),
    ...(__adopted && typeof __adopted === "object" ? { __adopted: { ...__adopted } } : {}),
    ...(typeof __claim === "string" ? { __claim } : {}),
  };
}
