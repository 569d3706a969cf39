// The console talks to the control API of the mock that served it, and to nothing else (its
// Content-Security-Policy allows only its own origin). Types come from openapi/mock-control.yaml.
import type { components } from "../../src/generated/mock-control.js";

type Schemas = components["schemas"];
export type MockState = Schemas["MockState"];
export type PartnerSettings = Schemas["PartnerSettings"];
export type PartnerSettingsPatch = Schemas["PartnerSettingsPatch"];
export type Faults = Schemas["Faults"];
export type RebuildRecord = Schemas["RebuildRecord"];
export type DeliveryRecord = Schemas["DeliveryRecord"];
export type SinkEntry = Schemas["SinkEntry"];
export type ChangedPath = Schemas["ChangeEvent"]["changed"][number];

export type Journal = Schemas["RequestJournal"];
export type JournalEntry = Schemas["JournalEntry"];
type PublicOperationId = Schemas["PublicOperationId"];

/**
 * The operations of the service contracts, as openapi/mock-control.yaml lists them: put in when the
 * page is built (scripts/generate/console.mjs), so the journal's filter offers exactly these.
 */
declare const PUBLIC_OPERATIONS: readonly PublicOperationId[];
export const publicOperations = PUBLIC_OPERATIONS;

/** A refusal of the control API, with the message its error envelope carries. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `/__mock`: the control API lives beside the console's own path. */
const base = location.pathname.replace(/\/[^/]*$/, "");

export const eventsUrl = `${base}/events`;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    cache: "no-store",
  });
  const text = await response.text();
  const parsed: unknown = text === "" ? undefined : JSON.parse(text);
  if (!response.ok) throw new ControlError(response.status, messageOf(parsed, response.status));
  return parsed as T;
}

function messageOf(body: unknown, status: number): string {
  if (typeof body !== "object" || body === null) return `The mock answered ${status}`;
  const { message, errors } = body as {
    message?: unknown;
    errors?: Array<{ path?: unknown; message?: unknown }>;
  };
  const details = Array.isArray(errors)
    ? errors.map((e) => `${String(e.path ?? "") || "body"} ${String(e.message ?? "")}`).join("; ")
    : "";
  return `${typeof message === "string" ? message : `The mock answered ${status}`}${details ? `: ${details}` : ""}`;
}

const path = (...segments: Array<string | number>) =>
  segments.map((s) => `/${encodeURIComponent(s)}`).join("");

export const control = {
  state: () => call<MockState>("GET", "/state"),
  journal: (filters: { operation?: string; status?: string; body?: string }) => {
    const query = new URLSearchParams();
    if (filters.operation) query.set("operation", filters.operation);
    if (filters.status) query.set("status", filters.status);
    if (filters.body) query.set("body", filters.body);
    const search = query.toString();
    return call<Journal>("GET", `/requests${search ? `?${search}` : ""}`);
  },
  advance: (seconds: number) => call<Schemas["ClockTime"]>("POST", "/clock/advance", { seconds }),
  reset: () => call<undefined>("POST", "/reset"),
  complete: (requestId: string, status: "success" | "failed") =>
    call<RebuildRecord>("POST", `${path("rebuilds", requestId)}/complete`, { status }),
  upsertPartner: (partnerId: number, settings: PartnerSettingsPatch) =>
    call<PartnerSettings>("PUT", path("partners", partnerId), settings),
  rotateKey: (partnerId: number) =>
    call<Schemas["RotatedKey"]>("POST", `${path("partners", partnerId)}/rotate-key`),
  setFaults: (settings: Schemas["FaultSettingsPatch"]) => call<Faults>("PUT", "/faults", settings),
};
