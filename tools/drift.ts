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
import { driftOfStep, type ResourceDrift, renderTable, rowsOf, type StepMetadata } from "./lib/diff";
import { cliError, locatePulumi, pathWith, pulumiRoot } from "./lib/pulumi-cli";

const USAGE = `Usage: mediahost-drift [--stack NAME] [--cwd DIR] [--backend-url URL] [--json] [--pulumi PATH]

Runs a refresh preview of a Pulumi stack (nothing is changed) and reports every property whose
value in the account differs from the stack's state, and every resource gone from the account.

  --stack NAME        the stack (default: the stack selected in DIR, or $PULUMI_STACK)
  --cwd DIR           the program's directory, holding Pulumi.yaml (default: .)
  --backend-url URL   the state backend (default: $PULUMI_BACKEND_URL, else what \`pulumi login\` chose)
  --json              print a machine-readable report instead of the table
  --pulumi PATH       the pulumi CLI (default: pulumi on PATH, then $PULUMI_HOME/bin, then ~/.pulumi/bin)

The stack's secrets provider needs what it always needs (e.g. PULUMI_CONFIG_PASSPHRASE).
Exit status: 0 no drift, 2 drift found, 1 error.`;

export interface DriftReport {
  stack: string;
  /** Resources the refresh looked at (the stack and provider resources excluded). */
  checked: number;
  drift: boolean;
  resources: ResourceDrift[];
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
  const stack = await Stack.select(stackName, workspace);
  progress(`refresh preview of stack ${stackName} in ${workDir} (nothing is changed)`);

  const drifts: ResourceDrift[] = [];
  const errors: string[] = [];
  let checked = 0;
  const onEvent = (event: EngineEvent) => {
    const diag = event.diagnosticEvent;
    if (diag && (diag.severity === "error" || diag.severity === "warning")) {
      const text = diag.message.trim();
      if (diag.severity === "error") errors.push(text);
      progress(
        `${diag.severity}: ${diag.urn ? `${diag.urn.slice(diag.urn.lastIndexOf("::") + 2)}: ` : ""}${text}`,
      );
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
    await stack.previewRefresh({ onEvent });
  } catch (err) {
    throw new Error(`the refresh preview failed:\n${errors.length ? errors.join("\n") : cliError(err)}`);
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
