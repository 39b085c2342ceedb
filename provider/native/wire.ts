// Property values as the engine sends them over gRPC (google.protobuf.Struct), and back.
// Special values are objects with a signature key (pkg/resource/plugin/rpc.go): a secret wraps
// its value; an unknown is a sentinel string, which the lifecycle understands as it is. Secrecy
// is tracked per top-level property, as the engine itself does for providers that do not accept
// secrets: a property that held a secret anywhere is a secret whole.
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

/** Properties without their secret wrappers, and the top-level keys that held a secret. */
export interface Decoded {
  props: Props;
  secrets: Set<string>;
}

function isSecret(value: unknown): value is { value: unknown } {
  return !!value && typeof value === "object" && (value as Props)[SIG] === SECRET_SIG;
}

/** `value` without secret wrappers at any depth; `found` is called when one is met. */
function unwrap(value: unknown, found: () => void): unknown {
  if (isSecret(value)) {
    found();
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((v) => unwrap(v, found));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(v, found)]));
  }
  return value;
}

/** A Struct's properties, unwrapped, with the keys that were secret. */
export function decode(struct: Struct | undefined): Decoded {
  const secrets = new Set<string>();
  const props: Props = {};
  for (const [key, value] of Object.entries(struct?.toJavaScript() ?? {})) {
    props[key] = unwrap(value, () => secrets.add(key));
  }
  return { props, secrets };
}

/** A Struct of `props`, each key of `secrets` wrapped as a secret. */
export function encode(StructClass: typeof Struct, props: Props, secrets: Iterable<string> = []): Struct {
  const secret = new Set(secrets);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    out[key] = secret.has(key) ? { [SIG]: SECRET_SIG, value } : value;
  }
  return StructClass.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The parts of a resource's URN: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function parseUrn(urn: string): { stack: string; project: string; type: string; name: string } {
  const [head = "", project = "", qualifiedType = "", ...name] = urn.split("::");
  const type = qualifiedType.split("$").pop() ?? "";
  return { stack: head.replace(/^urn:pulumi:/, ""), project, type, name: name.join("::") };
}
