// The schema reads as the Pulumi registry reads it (scripts/registry-docs.ts): a description on
// every resource, function, type and property; each resource's examples in TypeScript, YAML and
// Go inside the blocks the registry's generator takes them from, with arguments the kind accepts;
// and an `## Import` section, where the generator cuts the description.
import { describe, expect, it } from "vitest";
import { kinds } from "../../provider/resources";
import type { Kind } from "../../provider/resources/kind";
import { type KindName, literalArgs } from "../../scripts/registry-docs";
import { packageSchema } from "../../scripts/schema";

type Described = { description?: string; properties?: Record<string, Described> };
const schema = packageSchema() as {
  resources: Record<string, Described & { description: string; inputProperties: Record<string, Described> }>;
  functions: Record<string, { description?: string; inputs?: Described; outputs?: Described }>;
  types: Record<string, Described>;
  config: { variables: Record<string, Described> };
  provider: { inputProperties: Record<string, Described> };
};

/** Every place of the schema that has no description, or an empty one. */
function undescribed(): string[] {
  const missing: string[] = [];
  const need = (where: string, d: Described | undefined) => {
    if (!d?.description?.trim()) missing.push(where);
  };
  const props = (where: string, p: Record<string, Described> | undefined) => {
    for (const [k, v] of Object.entries(p ?? {})) need(`${where}.${k}`, v);
  };
  for (const [t, r] of Object.entries(schema.resources)) {
    need(t, r);
    props(`${t} output`, r.properties);
    props(`${t} input`, r.inputProperties);
  }
  for (const [t, f] of Object.entries(schema.functions)) {
    need(t, f);
    props(`${t} argument`, f.inputs?.properties);
    props(`${t} result`, f.outputs?.properties);
  }
  for (const [t, type] of Object.entries(schema.types)) {
    need(t, type);
    props(t, type.properties);
  }
  props("config", schema.config.variables);
  props("provider", schema.provider.inputProperties);
  return missing;
}

describe("the package schema as the registry reads it", () => {
  it("describes every resource, function, type and property", () => {
    expect(undescribed()).toEqual([]);
  });

  it("finds a description that is missing", () => {
    const type = schema.types["mediahost:index:AccountSettingsMinify"] as Described;
    const saved = type.description;
    type.description = "";
    try {
      expect(undescribed()).toEqual(["mediahost:index:AccountSettingsMinify"]);
    } finally {
      type.description = saved;
    }
  });

  it("gives every resource an example in TypeScript, YAML and Go, in the code chooser, inside the examples shortcode", () => {
    for (const [token, r] of Object.entries(schema.resources)) {
      const chooser =
        /\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n### .+\n\n<!--Start PulumiCodeChooser -->\n([\s\S]*?)<!--End PulumiCodeChooser -->\n\{\{% \/example %\}\}\n\{\{% \/examples %\}\}/.exec(
          r.description,
        );
      expect(chooser, token).not.toBeNull();
      const languages = [...(chooser?.[1] ?? "").matchAll(/^```(\w+)\n[\s\S]*?^```$/gm)].map((m) => m[1]);
      expect(languages, token).toEqual(["typescript", "yaml", "go"]);
      const kind = token.replace("mediahost:index:", "");
      expect(r.description, token).toContain(`new mediahost.${kind}(`);
      expect(r.description, token).toContain(`    type: mediahost:${kind}\n`);
      expect(r.description, token).toContain(`mediahost.New${kind}(ctx, `);
    }
  });

  it("gives every example arguments its kind accepts, named as the schema's inputs", () => {
    for (const [name, k] of Object.entries(kinds)) {
      const kind = k as unknown as Kind;
      const example = kind.docs.example;
      expect(kind.inputs.safeParse(literalArgs(example)).error, name).toBeUndefined();
      for (const d of example.before ?? []) {
        expect(Object.keys(kinds), `${name}: ${d.name}`).toContain(d.kind);
        const needed = kinds[d.kind as KindName] as unknown as Kind;
        expect(needed.inputs.safeParse(d.args).error, `${name}: ${d.name}`).toBeUndefined();
      }
      const inputs = schema.resources[`mediahost:index:${name}`]?.inputProperties ?? {};
      for (const key of Object.keys(example.args)) expect(inputs, `${name}.${key}`).toHaveProperty(key);
    }
  });

  it("ends every resource's description with an `## Import` section: the id's form and a command, or why there is none", () => {
    for (const [token, r] of Object.entries(schema.resources)) {
      const [, imports] = r.description.split("\n\n## Import\n\n");
      expect(imports, token).toBeDefined();
      if (token.endsWith(":SubAccount")) expect(imports).toMatch(/cannot be imported/);
      else expect(imports).toMatch(new RegExp(`^\\$ pulumi import ${token} \\S+ \\S+$`, "m"));
    }
  });
});
