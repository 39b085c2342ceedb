// The pending creates of a stack, as `pulumi stack export` shows them: the creates an interrupted
// update had started and never heard back about. Pure: no I/O, unit-tested.
import { KIND_KEY, OWNER_KEY, parseUrn } from "../../provider/for-tools";

export interface ExportedResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Deployment {
  version: number;
  deployment: {
    resources?: ExportedResource[];
    pending_operations?: { resource: ExportedResource; type: string }[];
    [key: string]: unknown;
  };
}

export interface PendingCreate {
  urn: string;
  /** The resource's type token: the native face's (`mediahost:index:<Kind>`) or the dynamic one's. */
  type: string;
  /** Its parent's URN and its provider reference (`<urn>::<id>`), as the engine recorded them. */
  parent?: string;
  provider?: string;
  /** The kind's name (`Folder`, `Alias`, ...). */
  kind: string;
  /** The resource's inputs, the face's hidden keys included. */
  inputs: Record<string, unknown>;
  /**
   * The stack that declares it, as the provider keys the stack journal: the one the dynamic SDK
   * recorded, or the native face's `<project>/<stack>` of the URN (provider/native/server.ts).
   */
  owner?: string;
}

/** The type tokens of this package's resources: the dynamic face's and the native one's. */
const OURS = /^(?:pulumi-nodejs:dynamic\/mediahost|mediahost:index):([A-Za-z]+)$/;

/**
 * The pending creates of this package's resources (`ours`), the URNs of any other pending
 * operation (`others`), and the deployment without its pending operations (what
 * `pulumi stack import` takes to drop them).
 */
export function pendingCreates(exported: Deployment): {
  all: string[];
  ours: PendingCreate[];
  others: string[];
  without: Deployment;
} {
  const operations = exported.deployment.pending_operations ?? [];
  const ours: PendingCreate[] = [];
  const others: string[] = [];
  for (const op of operations) {
    const match = OURS.exec(op.resource.type);
    if (op.type !== "creating" || !match) {
      others.push(`${op.type} ${op.resource.urn}`);
      continue;
    }
    const inputs = op.resource.inputs ?? {};
    const native = match[0].startsWith("mediahost:index:");
    const { project, stack } = parseUrn(op.resource.urn);
    const owner = native ? `${project}/${stack}` : inputs[OWNER_KEY];
    ours.push({
      urn: op.resource.urn,
      type: op.resource.type,
      ...(typeof op.resource.parent === "string" ? { parent: op.resource.parent } : {}),
      ...(typeof op.resource.provider === "string" ? { provider: op.resource.provider } : {}),
      kind: typeof inputs[KIND_KEY] === "string" ? (inputs[KIND_KEY] as string) : (match[1] as string),
      inputs,
      owner: typeof owner === "string" ? owner : undefined,
    });
  }
  const { pending_operations: _, ...rest } = exported.deployment;
  return {
    all: operations.map((op) => op.resource.urn),
    ours,
    others,
    without: { ...exported, deployment: rest },
  };
}

/** Whether a pending create is of the native face (which `pulumi import` can take in). */
export const isNative = (create: PendingCreate) => create.type.startsWith("mediahost:index:");

/**
 * The `pulumi import --file` document that takes one native resource in, under the same URN: its
 * type, name and id, and its parent and explicit provider by name (`nameTable`).
 */
export function importDocument(create: PendingCreate, id: string): Record<string, unknown> {
  const name = create.urn.slice(create.urn.lastIndexOf("::") + 2);
  const nameTable: Record<string, string> = {};
  const resource: Record<string, unknown> = { type: create.type, name, id };
  if (create.parent && !create.parent.includes("::pulumi:pulumi:Stack::")) {
    nameTable.parent = create.parent;
    resource.parent = "parent";
  }
  const provider = create.provider?.slice(0, create.provider.lastIndexOf("::"));
  // a default provider's name carries the version and download URL the SDK asked for
  if (provider && !/::pulumi:providers:mediahost::default(_[^:]+)?$/.test(provider)) {
    nameTable.provider = provider;
    resource.provider = "provider";
  }
  return { nameTable, resources: [resource] };
}

/**
 * Whether a failed `pulumi import` of a pending create found nothing the interrupted run made: the
 * engine's "does not exist", or a kind that exists only through what it sets refusing an empty one
 * (FolderOptions, FolderMeta: "there is nothing to import") because the run died before writing it.
 * Either way the next `up` creates it.
 */
export const importFoundNothing = (message: string): boolean =>
  /does not exist|there is nothing to import/.test(message);
