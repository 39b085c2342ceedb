// The pending creates of a stack, as `pulumi stack export` shows them: the creates an interrupted
// update had started and never heard back about. Pure: no I/O, unit-tested.
import { KIND_KEY, OWNER_KEY } from "../../provider/hidden";

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
  /** The kind's name (`Folder`, `Alias`, ...). */
  kind: string;
  /** The resource's inputs, the face's hidden keys included. */
  inputs: Record<string, unknown>;
  /** The stack the SDK said declares it (dynamic resources). */
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
    const owner = inputs[OWNER_KEY];
    ours.push({
      urn: op.resource.urn,
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
