// Input rules more than one kind shares: managed paths and alias names.

import { SYSTEM_FOLDERS, schemas, systemFolderOf } from "mediahost-contract";
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

/**
 * Why a resource may not write at `path`: it is in a system folder of the account, which the
 * provider never creates, adopts, moves, deletes or writes into — except the files of `/Profiles`
 * (the account's image profiles, manageable as files), whose folder it never deletes or moves.
 */
export function systemRefusal(path: string, what: "folder" | "other"): string | undefined {
  const system = systemFolderOf(path);
  if (!system || (system === "/Profiles" && (path !== system || what !== "folder"))) return undefined;
  const at = path === system ? "is" : `lies in ${system},`;
  return (
    `${path} ${at} the account's system folder (${SYSTEM_FOLDERS[system]}): ` +
    (system === "/Profiles"
      ? "the provider never deletes or moves it (its .profile files can be managed as files)"
      : "the provider never creates, adopts, moves, deletes or writes into it")
  );
}

/** A path a resource writes at: a managed path outside the account's system folders. */
export const WritablePath = ManagedPath.superRefine((p, ctx) => {
  const refusal = systemRefusal(p, "other");
  if (refusal) ctx.addIssue({ code: "custom", message: refusal });
});

/** The folder paths a resource may manage: not the root, which always exists, nor a system folder. */
export const FolderPath = ManagedPath.refine((p) => p !== "/", {
  message: 'must not be the root "/"',
}).superRefine((p, ctx) => {
  const refusal = systemRefusal(p, "folder");
  if (refusal) ctx.addIssue({ code: "custom", message: refusal });
});

/** Alias names: the API gives no rule; the provider keeps them to URL-safe words. */
export const AliasName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, {
  message: "must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit",
});

/** `adopt`, for kinds whose objects can exist before the stack creates them. */
export const Adopt = z.boolean().optional();
