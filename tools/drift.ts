#!/usr/bin/env node
// mediahost-drift: what changed in the account behind a stack's back, property by property.
//
// Runs a refresh preview (`pulumi refresh --preview-only`, nothing is written) of a stack through
// the Automation API, and compares, for every resource the refresh would change, the state
// before with what the provider read from the account. Prints a table (or --json) on stdout,
// progress on stderr. Exit 0: no drift; 2: drift; 1: error.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type EngineEvent, LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import {
  driftOfStep,
  kindOfUrn,
  nameOfUrn,
  type ResourceDrift,
  renderTable,
  rowsOf,
  type StepMetadata,
} from "./lib/diff";
import { cliError, locatePulumi, pathWith, pulumiRoot } from "./lib/pulumi-cli";

const USAGE = `Usage: mediahost-drift [--stack NAME] [--cwd DIR] [--backend-url URL] [--json] [--pulumi PATH] [--run-program]

Runs a refresh preview of a Pulumi stack (nothing is changed) and reports every property whose
value in the account differs from the stack's state, and every resource gone from the account.

  --stack NAME        the stack (default: the stack selected in DIR, or $PULUMI_STACK)
  --cwd DIR           the program's directory, holding Pulumi.yaml (default: .)
  --backend-url URL   the state backend (default: $PULUMI_BACKEND_URL, else what \`pulumi login\` chose)
  --json              print a machine-readable report instead of the table
  --pulumi PATH       the pulumi CLI (default: pulumi on PATH, then $PULUMI_HOME/bin, then ~/.pulumi/bin)
  --run-program       run the program first, so that the provider uses the stack's current config
                      (e.g. rotated credentials); by default, as \`pulumi refresh\` does, it uses the
                      provider configuration recorded in the state at the last update

The stack's secrets provider needs what it always needs (e.g. PULUMI_CONFIG_PASSPHRASE).
Exit status: 0 no drift, 2 drift found, 1 error.`;

export interface DriftReport {
  stack: string;
  /** Resources the refresh looked at (the stack and provider resources excluded). */
  checked: number;
  drift: boolean;
  resources: ResourceDrift[];
}

/** One line per distinct message, naming the resources it came from. */
function summarizeErrors(errors: { resource?: string; kind?: string; text: string }[]): string {
  const byText = new Map<string, string[]>();
  for (const e of errors) {
    // the provider names the object first ("Folder /a: ..."): the resources are listed after the cause
    const own = e.kind ? new RegExp(`^${e.kind} [^:]*: `) : undefined;
    const text = e.text.replace(/^Preview failed: /, "").replace(own ?? /^$/, "");
    const list = byText.get(text) ?? [];
    if (e.resource) list.push(e.resource);
    byText.set(text, list);
  }
  // the engine's closing "preview failed" adds nothing when resources said why
  if (byText.size > 1) byText.delete("preview failed");
  return [...byText]
    .map(([text, resources]) => {
      const shown =
        resources.slice(0, 5).join(", ") + (resources.length > 5 ? `, and ${resources.length - 5} more` : "");
      return `  ${text}${resources.length ? ` (${shown})` : ""}`;
    })
    .join("\n");
}

const progress = (line: string) => process.stderr.write(`mediahost-drift: ${line}\n`);

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stack: { type: "string" },
      cwd: { type: "string" },
      "backend-url": { type: "string" },
      json: { type: "boolean" },
      pulumi: { type: "string" },
      "run-program": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const workDir = resolve(values.cwd ?? ".");
  const cli = locatePulumi(values.pulumi);
  const envVars: Record<string, string> = {
    PATH: pathWith(cli.binary),
    PULUMI_SKIP_UPDATE_CHECK: process.env.PULUMI_SKIP_UPDATE_CHECK ?? "true",
  };
  const backendUrl = values["backend-url"] ?? process.env.PULUMI_BACKEND_URL;
  if (backendUrl) envVars.PULUMI_BACKEND_URL = backendUrl;
  const pulumiCommand = await PulumiCommand.get({
    root: await pulumiRoot(cli.binary),
    skipVersionCheck: !!process.env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK,
  });
  progress(`pulumi ${pulumiCommand.version?.toString() ?? "?"} at ${cli.binary} (from ${cli.source})`);

  const workspace = await LocalWorkspace.create({ workDir, pulumiCommand, envVars });
  const stackName = values.stack ?? process.env.PULUMI_STACK ?? (await workspace.stack())?.name;
  if (!stackName) throw new Error(`no --stack given and no stack selected in ${workDir}`);
  // Every command of the Automation API names its stack with --stack, so the stack is not
  // selected: `pulumi stack select` would change the user's selected stack as a side effect.
  const known = (await workspace.listStacks()).map((s) => s.name);
  const sameStack = (a: string, b: string) => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
  if (!known.some((name) => sameStack(name, stackName)))
    throw new Error(
      `no stack named '${stackName}' found in project of ${workDir}${known.length ? ` (stacks: ${known.join(", ")})` : ""}`,
    );
  workspace.selectStack = async () => {};
  const stack = await Stack.select(stackName, workspace);
  progress(`refresh preview of stack ${stackName} in ${workDir} (nothing is changed)`);

  const drifts: ResourceDrift[] = [];
  const errors: { resource?: string; kind?: string; text: string }[] = [];
  let checked = 0;
  const onEvent = (event: EngineEvent) => {
    const diag = event.diagnosticEvent;
    if (diag?.severity === "error") {
      errors.push({
        resource: diag.urn ? nameOfUrn(diag.urn) : undefined,
        kind: diag.urn ? kindOfUrn(diag.urn) : undefined,
        text: diag.message.trim(),
      });
    } else if (diag?.severity === "warning") {
      progress(`warning: ${diag.urn ? `${nameOfUrn(diag.urn)}: ` : ""}${diag.message.trim()}`);
    }
    const step = event.resOutputsEvent?.metadata as StepMetadata | undefined;
    if (!step || step.type === "pulumi:pulumi:Stack" || step.type.startsWith("pulumi:providers:")) return;
    checked++;
    const drift = driftOfStep(step);
    if (drift) {
      drifts.push(drift);
      const what =
        drift.kind === "gone" ? "gone from the account" : drift.properties.map((p) => p.property).join(", ");
      progress(`  ~ ${drift.name}: ${what}`);
    }
    if (checked % 100 === 0) progress(`  ${checked} resources checked`);
  };
  try {
    await stack.previewRefresh({ onEvent, runProgram: values["run-program"] ? true : undefined });
  } catch (err) {
    throw new Error(
      `the refresh preview failed:\n${errors.length ? summarizeErrors(errors) : cliError(err)}`,
    );
  }
  progress(`${checked} resources checked, ${drifts.length} drifted`);

  drifts.sort((a, b) => a.urn.localeCompare(b.urn));
  const report: DriftReport = { stack: stackName, checked, drift: drifts.length > 0, resources: drifts };
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (drifts.length === 0) process.stdout.write(`No drift: ${checked} resources match the account.\n`);
  else process.stdout.write(`${renderTable(rowsOf(drifts))}\n`);
  return report.drift ? 2 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    progress(`error: ${cliError(err)}`);
    process.exitCode = 1;
  },
);
