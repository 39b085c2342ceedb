// mediahost-recover's reading of a stack export: the pending creates of this package's resources
// (either face's type token), the other pending operations, and the deployment without them.
import { describe, expect, it } from "vitest";
import { kindByName } from "../../provider/resources";
import { importOf } from "../../provider/resources/kind";
import { type Deployment, importFoundNothing, pendingCreates } from "../../tools/lib/pending";

const exported: Deployment = {
  version: 3,
  deployment: {
    manifest: { time: "2026-11-25T00:00:00Z" },
    resources: [{ urn: "urn:pulumi:ci::p::pulumi:pulumi:Stack::p-ci", type: "pulumi:pulumi:Stack" }],
    pending_operations: [
      {
        type: "creating",
        resource: {
          urn: "urn:pulumi:ci::p::pulumi-nodejs:dynamic/mediahost:Alias::ci3",
          type: "pulumi-nodejs:dynamic/mediahost:Alias",
          inputs: { __mediahostKind: "Alias", __mediahostOwner: "org/p/ci", name: "ci3", __provider: "…" },
        },
      },
      {
        type: "creating",
        resource: {
          urn: "urn:pulumi:ci::p::mediahost:index:Folder::media",
          type: "mediahost:index:Folder",
          inputs: { path: "/media" },
        },
      },
      {
        type: "updating",
        resource: { urn: "urn:pulumi:ci::p::mediahost:index:Folder::other", type: "mediahost:index:Folder" },
      },
      {
        type: "creating",
        resource: { urn: "urn:pulumi:ci::p::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket" },
      },
    ],
  },
};

describe("pendingCreates", () => {
  it("picks this package's pending creates of either face, with kind and owner", () => {
    const { ours, others, all } = pendingCreates(exported);
    expect(all).toHaveLength(4);
    expect(ours).toEqual([
      {
        urn: "urn:pulumi:ci::p::pulumi-nodejs:dynamic/mediahost:Alias::ci3",
        type: "pulumi-nodejs:dynamic/mediahost:Alias",
        kind: "Alias",
        inputs: expect.objectContaining({ name: "ci3" }),
        owner: "org/p/ci",
      },
      {
        urn: "urn:pulumi:ci::p::mediahost:index:Folder::media",
        type: "mediahost:index:Folder",
        kind: "Folder",
        inputs: { path: "/media" },
        // the native provider keys the journal by the URN's project and stack
        owner: "p/ci",
      },
    ]);
    expect(others).toEqual([
      "updating urn:pulumi:ci::p::mediahost:index:Folder::other",
      "creating urn:pulumi:ci::p::aws:s3/bucket:Bucket::b",
    ]);
  });

  it("says which native pending creates an import gives back as declared: a File from source is not", () => {
    const file = kindByName("File");
    const importing = file && importOf(file);
    if (!importing || "refused" in importing) throw new Error("File is importable");
    expect(importing.reimports?.({ path: "/a.txt", content: "text" })).toBe(true);
    expect(importing.reimports?.({ path: "/a.png", source: { hash: "…" } })).toBe(false);
    expect(importing.reimports?.({ path: "/a.png", fetchUrl: "https://origin/a.png" })).toBe(false);
  });

  it("gives the deployment back without its pending operations, and nothing else changed", () => {
    const { without } = pendingCreates(exported);
    expect(without.deployment.pending_operations).toBeUndefined();
    expect(without.deployment.resources).toEqual(exported.deployment.resources);
    expect(without.deployment.manifest).toEqual(exported.deployment.manifest);
    expect(without.version).toBe(3);
  });
});

describe("importFoundNothing", () => {
  it("takes the engine's missing object and an options or meta object never written as not made", () => {
    expect(importFoundNothing("error: Preview failed: resource '/shoes' does not exist")).toBe(true);
    expect(
      importFoundNothing(
        "error: FolderOptions /products/shoes: /products/shoes has no options set: there is nothing to import",
      ),
    ).toBe(true);
    expect(importFoundNothing("error: FolderMeta /a: /a has no meta set: there is nothing to import")).toBe(
      true,
    );
    // anything else stops the recovery
    expect(importFoundNothing("error: File /a.png: /a.png is not UTF-8 text, so it cannot be imported")).toBe(
      false,
    );
    expect(importFoundNothing('error: the provider\'s credentials reach account "eu"')).toBe(false);
  });
});
