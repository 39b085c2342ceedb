// The kinds' capabilities (provider/resources/kind.ts `Capabilities`) are stated in the registry
// and checked by the compiler: this file type-checks only while a wrong statement fails to compile
// (tsconfig.test.json runs over it in `npm test`), and its runtime checks say what each kind has.
import { describe, expect, it } from "vitest";
import { kinds, type Stated } from "../../provider/resources";
import type { file } from "../../provider/resources/file";
import type { folder } from "../../provider/resources/folder";
import type { subAccount } from "../../provider/resources/sub-account";

// @ts-expect-error a Folder sits in the tree: a statement that leaves it out does not compile
const folderWithoutTree: Stated<typeof folder> = { importing: true };
// @ts-expect-error a SubAccount cannot be imported: a statement that claims it does not compile
const importableSubAccount: Stated<typeof subAccount> = { importing: true };
// @ts-expect-error a File has secrets: a statement that leaves them out does not compile
const fileWithoutSecrets: Stated<typeof file> = { tree: true, importing: true };
const rightFile: Stated<typeof file> = { tree: true, secrets: true, importing: true };

describe("the kinds' capabilities", () => {
  it("are what the registry states, at run time too", () => {
    expect([folderWithoutTree, importableSubAccount, fileWithoutSecrets, rightFile]).toHaveLength(4);
    expect(kinds.Folder.tree.moves).toBeDefined();
    expect(kinds.File.tree.moves).toBeUndefined();
    expect(kinds.File.secrets.inputs).toEqual(["fetchAuth"]);
    expect("refused" in kinds.SubAccount.importing).toBe(true);
    expect(
      Object.values(kinds)
        .filter((k) => k.tree?.contains)
        .map((k) => k.name),
    ).toEqual(["Folder"]);
  });
});
