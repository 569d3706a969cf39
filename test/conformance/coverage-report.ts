// `npx tsx test/conformance/coverage-report.ts [run directory]`, run after `npm test` (a CI gate):
// which documented responses of which operations, and which callback shapes, the latest test run (or
// the given one) exercised with bodies that conformed. Every test file counts: coverage comes from
// what the suite does to test behaviour, not from a file that exists to hit each response (there is
// none). Exits 1 below 100%, or when there are no records; test/conformance/coverage-report.test.ts
// shows both.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceRecord } from "../support/conformance-observer.js";
import { RECORDS_ROOT } from "../support/conformance-registry.js";
import {
  documentedCallbackShapes,
  documentedResponses,
  EDGE_RESPONSES,
} from "../support/contract-inventory.js";

function runRecords(given: string | undefined): ConformanceRecord[] {
  const pointer = join(RECORDS_ROOT, "latest");
  if (given === undefined && !existsSync(pointer)) return [];
  const dir = given ?? join(RECORDS_ROOT, readFileSync(pointer, "utf8").trim());
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as ConformanceRecord);
}

const records = runRecords(process.argv[2]);
const expected = [...documentedResponses(), ...documentedCallbackShapes(), ...Object.values(EDGE_RESPONSES)];
const seen = new Set(records.flatMap((record) => record.covered));
const missing = expected.filter((key) => !seen.has(key));
const total = (field: "requests" | "invalidRequests" | "callbacks" | "edgeAnswers") =>
  records.reduce((sum, record) => sum + (record[field] ?? 0), 0);

console.log(
  `contract conformance: ${total("requests")} requests checked in both directions ` +
    `(${total("invalidRequests")} of them deliberately outside the contract, each answered with a ` +
    `documented 4xx), ${total("callbacks")} callbacks and ${total("edgeAnswers")} answers of the ` +
    `standalone server's edge (preflights, refusals), in ${records.length} test files`,
);
console.log(
  `contract coverage: ${expected.length - missing.length} of ${expected.length} documented responses, ` +
    `callback shapes and edge answers exercised with conforming bodies (${Math.floor(
      (100 * (expected.length - missing.length)) / expected.length,
    )}%)`,
);
for (const key of missing) console.log(`  not exercised: ${key}`);
if (records.length === 0) console.log("no conformance records: run `npm test` first");
process.exitCode = records.length > 0 && missing.length === 0 ? 0 : 1;
