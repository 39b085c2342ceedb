// The Faults panel: what the emulator does to /v2 requests (latency, faults, drops) and how it
// answers where the service's behaviour is unknown, shown and changed.

import { control, fail, say, ui } from "./api.js";
import { $, facts, h } from "./dom.js";
import { field, form } from "./forms.js";

const NUMBERS = [
  ["latencyMs", "Latency (ms)", { step: 1 }],
  ["latencyJitterMs", "Latency jitter (ms)", { step: 1 }],
  ["faultRate", "Fault rate (0–1: 500, 503 or a dropped connection)", { max: 1, step: 0.01 }],
  ["dropRate", "Drop rate (0–1)", { max: 1, step: 0.01 }],
];

const choice = (id, options) =>
  h(
    "select",
    { id },
    options.map(([value, text]) => h("option", { value }, text)),
  );

/** Builds the panel's form into its place in the page. */
export function setUpFaults() {
  $("faults-form").replaceWith(
    form({
      id: "faults-form",
      sets: [
        {
          legend: "Faults",
          fields: NUMBERS.map(([id, label, range]) =>
            field(label, h("input", { type: "number", id, min: 0, ...range })),
          ),
        },
        {
          legend: "Behaviour",
          fields: [
            field(
              "Alias map on account update",
              choice("aliasesUpdate", [
                ["merge", "merge"],
                ["replace", "replace"],
              ]),
            ),
            field(
              "Creating a folder that exists",
              choice("mkdirExists", [
                ["200", "200 with an error body (as documented)"],
                ["409", "409 Conflict"],
              ]),
            ),
          ],
        },
      ],
      submit: "Apply",
      keep: true,
      onsubmit: applyFaults,
    }),
  );
}

export async function loadFaults() {
  const [faults, behaviour] = await Promise.all([
    control("GET", "/_emulator/faults"),
    control("GET", "/_emulator/behaviour"),
  ]);
  if (!ui.dirty.has("faults-form")) {
    for (const [k] of NUMBERS) $(k).value = faults[k];
    $("aliasesUpdate").value = behaviour.aliasesUpdate;
    $("mkdirExists").value = behaviour.mkdirExists;
  }
  const pending = Object.entries(faults.dropAfterApply ?? {});
  facts($("faults-now"), [
    ["Latency", `${faults.latencyMs} ms + up to ${faults.latencyJitterMs} ms`],
    ["Fault rate", faults.faultRate],
    ["Drop rate", faults.dropRate],
    ["Token lifetime override", faults.tokenTtlSeconds ? `${faults.tokenTtlSeconds} s` : ""],
    ["Seed", faults.seed],
    ["Lost answers pending", pending.map(([o, n]) => `${o} × ${n}`).join(", ")],
    ["Alias map on update", behaviour.aliasesUpdate],
    ["Existing folder on mkdir", behaviour.mkdirExists],
  ]);
}

async function applyFaults() {
  try {
    await control(
      "POST",
      "/_emulator/faults",
      Object.fromEntries(NUMBERS.map(([k]) => [k, Number($(k).value || 0)])),
    );
    await control("POST", "/_emulator/behaviour", {
      aliasesUpdate: $("aliasesUpdate").value,
      mkdirExists: $("mkdirExists").value,
    });
    say("faults and behaviour applied", "good");
  } catch (err) {
    ui.dirty.add("faults-form"); // what was typed stays, to be applied again
    fail(err);
  }
  await loadFaults().catch(fail);
}
