// Declares the invalid input named by MEDIAHOST_BAD_CASE (one of ./cases; the engine stops a
// preview at the first failed check, so the test runs one preview per case), or, with
// MEDIAHOST_BAD_CASE=functions, calls every invalid data function here in the program and fails
// with all their messages, each prefixed with its case's name.
import * as pulumi from "@pulumi/pulumi";
import * as mediahost from "pulumi-mediahost";
import { functionCases, resourceCases } from "./cases";

const chosen = process.env.MEDIAHOST_BAD_CASE ?? "";

if (chosen === "functions") {
  const failures = functionCases.map(async (c) => {
    try {
      // biome-ignore lint/suspicious/noExplicitAny: wrong types and unknown properties on purpose
      await (mediahost as any)[c.fn](c.args);
      return `${c.name}: no error`;
    } catch (err) {
      return `${c.name}: ${(err as Error).message}`;
    }
  });
  // a stack output the engine waits for; it fails with every message
  module.exports.failures = pulumi.output(
    Promise.all(failures).then((messages) => {
      throw new Error(`invalid data-function calls:\n${messages.join("\n")}`);
    }),
  );
} else {
  const c = resourceCases.find((x) => x.name === chosen);
  if (!c) throw new Error(`no such case: ${chosen}`);
  // biome-ignore lint/suspicious/noExplicitAny: wrong types and unknown properties on purpose
  const Kind = (mediahost as any)[c.kind];
  new Kind(c.name, c.args);
}
