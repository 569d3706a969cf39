// `npm run docs -- --report r.json`: the assumption report of a `verify` or `proxy` run, read for the
// "Confirmed vs assumed" page, which then shows each assumed element's status and evidence. The
// report must list exactly the contract's assumed elements: one made from another version of the
// contract is refused (run verify again), never shown half-matched.
import { readFileSync } from "node:fs";
import type { AssumptionStatus } from "../mocks/assumptions/report.js";

export interface CheckedElement {
  status: AssumptionStatus;
  evidence: string;
}

/** Each element's status by `<document> <pointer>`, as the report gives it. */
export type CheckedElements = ReadonlyMap<string, CheckedElement>;

const STATUSES: readonly string[] = ["confirmed", "contradicted", "unexercised"];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The report in `file`; an Error naming the file and what is wrong with it otherwise. */
export function readAssumptionReport(file: string): CheckedElements {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`docs: --report ${file} is not a readable JSON file (${(error as Error).message})`);
  }
  const assumptions = isRecord(parsed) ? parsed.assumptions : undefined;
  if (!Array.isArray(assumptions)) {
    throw new Error(`docs: --report ${file} is not an assumption report (no "assumptions" list)`);
  }
  const checked = new Map<string, CheckedElement>();
  for (const [index, entry] of assumptions.entries()) {
    const valid =
      isRecord(entry) &&
      typeof entry.document === "string" &&
      typeof entry.pointer === "string" &&
      typeof entry.status === "string" &&
      STATUSES.includes(entry.status) &&
      typeof entry.evidence === "string";
    if (!valid) {
      throw new Error(
        `docs: --report ${file}: assumptions[${index}] needs document, pointer, status (${STATUSES.join(", ")}) and evidence`,
      );
    }
    const key = `${entry.document} ${entry.pointer}`;
    if (checked.has(key)) throw new Error(`docs: --report ${file} lists ${key} twice`);
    checked.set(key, { status: entry.status as AssumptionStatus, evidence: entry.evidence as string });
  }
  return checked;
}

/**
 * Throws unless `checked` lists exactly the assumed elements of the documents (`<document> <pointer>`
 * keys): a report of another contract version would show the wrong status beside an element.
 */
export function matchReport(checked: CheckedElements, assumed: readonly string[]): void {
  const missing = assumed.filter((key) => !checked.has(key));
  const extra = [...checked.keys()].filter((key) => !assumed.includes(key));
  if (missing.length === 0 && extra.length === 0) return;
  const say = (what: string, keys: string[]) =>
    keys.length === 0
      ? []
      : [`${what} ${keys.slice(0, 3).join(", ")}${keys.length > 3 ? ` and ${keys.length - 3} more` : ""}`];
  throw new Error(
    `docs: the report does not match the contract (${[...say("it lacks", missing), ...say("it has", extra)].join("; ")}): ` +
      "it was made against another version of openapi/; run verify again",
  );
}
