// The rules of contract-decisions.md that a JSON Schema cannot state, in one place (decisions/021):
// only whether a host is public is left (a claim name given twice is stated with `contains` and
// `maxContains`, decisions/041).
// A request the contract's schemas accept may still get `400` from the mock, but only for one of
// these; the conformance observer flags any other `400` to a contract-valid request as drift between
// the mock and the contract. Each rule has a stable id, the text of contract-decisions.md that states
// it (checked verbatim by documented-rules.test.ts), and how the mock's field error for it reads.
import type { ContractApi } from "./contract-validator.js";

export interface DocumentedRule {
  /** Stable identifier, `<api>.<field>.<rule>`. */
  id: string;
  api: ContractApi;
  /** The sentence of contract-decisions.md that states the rule, verbatim. */
  decision: string;
  /** Why no schema keyword can state it. */
  whyNotInSchema: string;
  /** The mock's field error for this rule: its type, its path, and how its message starts. */
  fieldError: { type: string; path: RegExp; message: RegExp };
}

export const DOCUMENTED_RULES: readonly DocumentedRule[] = [
  {
    id: "rebuild.sourceUrl.public-host",
    api: "rebuild",
    decision:
      "Body: `sourceUrl` required, an absolute `http` or `https` URL without user info, of a public host.",
    whyNotInSchema:
      "whether a host is public depends on IP ranges in every IPv4 notation and IPv6 form and on " +
      "reserved names; the scheme and the absence of user info are stated by the schema's pattern",
    fieldError: { type: "invalid_value", path: /^sourceUrl$/, message: /^must be of a public host: / },
  },
];

interface FieldErrorLike {
  type?: unknown;
  path?: unknown;
  message?: unknown;
}

/** The documented rule a field error of a `400` names, or undefined when it names none. */
export function documentedRuleOf(api: ContractApi, error: FieldErrorLike): DocumentedRule | undefined {
  return DOCUMENTED_RULES.find(
    (rule) =>
      rule.api === api &&
      rule.fieldError.type === error.type &&
      typeof error.path === "string" &&
      rule.fieldError.path.test(error.path) &&
      typeof error.message === "string" &&
      rule.fieldError.message.test(error.message),
  );
}
