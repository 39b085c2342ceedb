// The native face's wire values (provider/native/wire.ts): secrets unwrapped with their top-level
// keys remembered, unknowns left as the sentinel the lifecycle reads, secrets wrapped again on
// the way out, and URNs taken apart.
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/diff";
import { decode, encode, parseUrn } from "../../provider/native/wire";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

describe("wire values", () => {
  it("unwraps secrets at any depth and remembers which top-level properties held one", () => {
    const struct = Struct.fromJavaScript({
      path: "/a",
      fetching: { http: { auth: { password: { [SIG]: SECRET, value: "pw" } } } },
      content: { [SIG]: SECRET, value: "text" },
      tags: UNKNOWN,
    });
    const { props, secrets } = decode(struct);
    expect(props).toEqual({
      path: "/a",
      fetching: { http: { auth: { password: "pw" } } },
      content: "text",
      tags: UNKNOWN,
    });
    expect([...secrets].sort()).toEqual(["content", "fetching"]);
  });

  it("wraps the named properties as secrets, leaves the others, and drops undefined", () => {
    const out = encode(Struct, { path: "/a", content: "text", gone: undefined }, ["content"]).toJavaScript();
    expect(out).toEqual({ path: "/a", content: { [SIG]: SECRET, value: "text" } });
    expect(decode(encode(Struct, { a: { b: 1 } }, ["a"]))).toEqual({
      props: { a: { b: 1 } },
      secrets: new Set(["a"]),
    });
  });

  it("reads the stack, project, type and name of a URN, a parent's type left out", () => {
    expect(
      parseUrn("urn:pulumi:dev::proj::examples:mediahost:CatalogLayout$mediahost:index:Folder::eu-shoes"),
    ).toEqual({
      stack: "dev",
      project: "proj",
      type: "mediahost:index:Folder",
      name: "eu-shoes",
    });
  });
});
