// Every operation of the table has exactly one handler: the type below fails to compile when
// an operation is added to contract/operations.ts without one.
import { accountHandlers } from "./account";
import { fileHandlers, notImplemented } from "./files";
import { metaHandlers } from "./meta";
import type { Handlers } from "./types";

export const handlers: Handlers = {
  ...accountHandlers,
  ...fileHandlers,
  ...metaHandlers,
  startRemoveBackground: notImplemented("Background removal"),
  getRemoveBackgroundJob: notImplemented("Background removal"),
  startModel2Glb: notImplemented("3D model conversion to GLB"),
  getModel2GlbJob: notImplemented("3D model conversion to GLB"),
  spin2marketplaceA360: notImplemented("Spin export for marketplace A"),
  spin2marketplaceB360: notImplemented("Spin export for marketplace B"),
};
