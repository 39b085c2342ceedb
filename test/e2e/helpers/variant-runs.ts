// The runs of test/e2e/variants.test.ts: every variant of the emulator (emulator/variants.ts) in
// one of a few groups, each group's variants free of each other's way (two answers of one fact
// never share a run). test/unit/api-variants.test.ts checks that every variant is in a run.
import type { VariantName } from "../../../emulator/variants";

export interface VariantRun {
  name: string;
  variants: VariantName[];
}

export const VARIANT_RUNS: VariantRun[] = [
  {
    name: "answers shaped otherwise",
    variants: [
      "token-scope-string",
      "errors-plain",
      "fs-errors-400",
      "rate-headers-absent",
      "secrets-masked",
      "custom-domain-hidden",
      "sparse-answers",
      "writes-204",
      "subaccount-empty",
      "no-date-header",
      "tus-bare",
      "jobs-progress-only",
      "spin-views-alt",
      "events-alt",
      "fetch-attempt-alt",
      "poi-set-conflict",
    ],
  },
  {
    name: "a file system and an account that behave otherwise",
    variants: [
      "fs-errors-200",
      "secrets-clear",
      "aliases-replace",
      "mkdir-parents",
      "delete-missing-ok",
      "delete-final",
      "documented-shapes",
      "content-type-declared",
      "upload-no-mkdir",
      "options-merge",
      "poi-delete-missing-ok",
      "extra-fields",
    ],
  },
  { name: "a gateway in front", variants: ["gateway-502", "mkdir-exists-409"] },
];
