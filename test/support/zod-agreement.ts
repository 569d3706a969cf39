// rebuild-dashboard-kit/zod must agree with the contract on everything the suite sends and sees
// (decisions/041): wherever a body is checked against a component schema of the dashboard or rebuild
// document (every request body, answer and callback the conformance observer checks, and what the
// edge answers), the zod schema of that component (`z` + its name) is run on the same value, and a
// verdict other than Ajv's is a disagreement the observer reports like any other violation.
import type { ZodType } from "zod";
import { dashboard, rebuild } from "../../src/zod/index.js";
import { onFileEnd } from "./conformance-registry.js";

const SCHEMAS: Readonly<Record<"dashboard" | "rebuild", Readonly<Record<string, unknown>>>> = {
  dashboard,
  rebuild,
};

let pending: string[] = [];
let compared = 0;
// A file that checks bodies itself (contract-validator.ts) without a mock leaves disagreements no
// observation takes; they are that file's, not the next one's.
onFileEnd(() => {
  pending = [];
});

/** The zod schema of a component schema of a service contract, or undefined when it has none. */
function zodSchemaOf(api: "dashboard" | "rebuild", component: string): ZodType | undefined {
  const schema = SCHEMAS[api][`z${component}`];
  return isZodType(schema) ? schema : undefined;
}

/** Runs the component's zod schema on `value` and keeps a disagreement with Ajv's verdict. */
export function compareWithZod(
  api: "dashboard" | "rebuild",
  component: string,
  value: unknown,
  ajvErrors: readonly string[],
): void {
  compared++;
  const schema = zodSchemaOf(api, component);
  if (!schema) {
    pending.push(`rebuild-dashboard-kit/zod has no ${api}.z${component}`);
    return;
  }
  const result = schema.safeParse(value);
  if (result.success === (ajvErrors.length === 0)) return;
  pending.push(
    result.success
      ? `${api}.z${component} accepts what the contract refuses (${ajvErrors.join("; ")})`
      : `${api}.z${component} refuses what the contract accepts: ${result.error.issues
          .map((issue) => `${issue.path.join(".") || "(root)"} ${issue.message}`)
          .join("; ")}`,
  );
}

/** Disagreements since the last call, each handed out once. */
export function takeZodDisagreements(): string[] {
  const taken = pending;
  pending = [];
  return taken;
}

/** How many values were run through both so far (by this module instance: a file, or a worker of the quick suite). */
export function zodComparisons(): number {
  return compared;
}

function isZodType(value: unknown): value is ZodType {
  return typeof value === "object" && value !== null && "safeParse" in value;
}
