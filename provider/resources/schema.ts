// Input rules more than one kind shares: managed paths and alias names.

import { schemas } from "mediahost-contract";
import { z } from "zod";

/** A folder or file path the provider manages: the API's path rule, plus rules that keep diffs exact. */
export const ManagedPath = schemas.FilePath.refine(
  (p) => !p.split("/").some((seg) => seg === "." || seg === ".."),
  {
    message: 'must not contain "." or ".." segments',
  },
)
  .refine((p) => !p.includes("//"), { message: 'must not contain empty segments ("//")' })
  .refine((p) => ![...p].some((c) => c.charCodeAt(0) < 0x20), {
    message: "must not contain control characters",
  })
  .transform((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p));

/** The folder paths a resource may manage: not the root, which always exists. */
export const FolderPath = ManagedPath.refine((p) => p !== "/", { message: 'must not be the root "/"' });

/** Alias names: the API gives no rule; the provider keeps them to URL-safe words. */
export const AliasName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, {
  message: "must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit",
});

/** `adopt`, for kinds whose objects can exist before the stack creates them. */
export const Adopt = z.boolean().optional();
