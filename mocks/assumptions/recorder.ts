// The assumption recorder (issue 19, decisions/038): fed the exchanges of a `verify` run or of a
// proxy's traffic, it reports every `x-assumed` element of the contract as confirmed, contradicted
// or unexercised, and every exchange that broke an unmarked element. Pure and bounded: it keeps one
// piece of evidence per element and at most MAX_VIOLATIONS violations, whatever the traffic.
import { assumedElements } from "../../src/generated/assumptions.js";
import { judge } from "./judge.js";
import type { AssumptionEntry, AssumptionReport, Exchange, Violation } from "./report.js";

export type { AssumptionReport, Exchange } from "./report.js";

const MAX_VIOLATIONS = 200;

export interface AssumptionRecorder {
  record(exchange: Exchange): void;
  report(): AssumptionReport;
}

export function createAssumptionRecorder(): AssumptionRecorder {
  const assumed = new Set(assumedElements.map(({ document, pointer }) => `${document} ${pointer}`));
  const confirmed = new Map<string, string>();
  const contradicted = new Map<string, string>();
  const violations = new Map<string, Violation>();
  return {
    record(exchange) {
      const label = `${exchange.method.toUpperCase()} ${exchange.path} → ${exchange.status}`;
      for (const finding of judge(exchange)) {
        const key = `${exchange.document} ${finding.pointer}`;
        if (assumed.has(key) && finding.outcome !== "request") {
          const seen = finding.outcome === "confirmed" ? confirmed : contradicted;
          if (!seen.has(key)) seen.set(key, finding.evidence);
        } else if (finding.outcome !== "confirmed" && violations.size < MAX_VIOLATIONS) {
          const violation = {
            document: exchange.document,
            pointer: finding.pointer,
            exchange: label,
            evidence: finding.evidence,
          };
          const id = `${key} ${finding.evidence}`;
          if (!violations.has(id)) violations.set(id, violation);
        }
      }
    },
    report() {
      const assumptions = assumedElements.map(({ document, pointer, label }): AssumptionEntry => {
        const key = `${document} ${pointer}`;
        const against = contradicted.get(key);
        if (against !== undefined)
          return { document, pointer, label, status: "contradicted", evidence: against };
        const support = confirmed.get(key);
        if (support !== undefined)
          return { document, pointer, label, status: "confirmed", evidence: support };
        return { document, pointer, label, status: "unexercised", evidence: "no exchange reached it" };
      });
      return { assumptions, violations: [...violations.values()] };
    },
  };
}
