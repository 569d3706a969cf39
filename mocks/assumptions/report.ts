// The assumption report (issue 19, decisions/038): one JSON format for `verify` and `proxy`.
import type { ContractDocument } from "../../src/generated/assumptions.js";

export type { ContractDocument };

/** One HTTP exchange with a service, as the recorder judges it. */
export interface Exchange {
  document: ContractDocument;
  method: string;
  /**
   * The path as the document defines it, without query: `/si/servers/abc` for the dashboard (no
   * `/v1`), `/api/integration/partners/hostpanel/rebuilds` for the rebuild API.
   */
  path: string;
  /** The query string without `?`, `""` for none. */
  query: string;
  requestHeaders: Record<string, string>;
  /** Parsed JSON; `undefined` for no body or one that is not JSON. */
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  /** Parsed JSON; `undefined` for no body or one that is not JSON. */
  responseBody: unknown;
  /**
   * The status the sender meant to provoke (a `verify` probe knows it; a proxy does not): another
   * answer contradicts the response the contract documents for it. A request sent with an
   * expectation is deliberate, so it is never reported as a request that breaks the contract.
   */
  expected?: number;
}

export type AssumptionStatus = "confirmed" | "contradicted" | "unexercised";

export interface AssumptionEntry {
  document: ContractDocument;
  /** RFC 6901 pointer into openapi/<document>.yaml, as in the provenance lists of test/contract/. */
  pointer: string;
  /** A few words naming the element: `POST /si/servers → 201`. */
  label: string;
  status: AssumptionStatus;
  /** What was seen, in a few words: statuses, field names and types, never a value. */
  evidence: string;
}

/** An exchange that broke an element the contract does not mark assumed, or a request that breaks the contract. */
export interface Violation {
  document: ContractDocument;
  pointer: string;
  /** The exchange: `GET /si/servers → 200`. */
  exchange: string;
  evidence: string;
}

export interface AssumptionReport {
  /** Every `x-assumed` element of both documents, once each, in document order. */
  assumptions: AssumptionEntry[];
  violations: Violation[];
}
