// The rebuild half of a world snapshot: what `--state-file`, `GET`/`PUT /__mock/snapshot` and
// `world.snapshot()` / `world.restore()` carry. Everything comes back, pending work included: a
// running rebuild's completion and every retry, with their due times.
import { DomainError } from "../errors.js";
import type { Random } from "../random.js";
import {
  readCount,
  readInstant,
  readInteger,
  readList,
  readRecord,
  readStringMap,
  readText,
} from "../snapshot/snapshot-input.js";
import { formatInstant, formatTimestamp } from "../timestamp.js";
import { type FieldErrorList, joinPath } from "../validation/field-errors.js";
import { jsonDepth, MAX_JSON_DEPTH } from "../validation/json-depth.js";
import { isJsonObject, jsonType } from "../validation/json-input.js";
import type { PendingAttempt } from "./deliveries.js";
import { applyPartnerPatch, defaultPartner, parsePartnerId } from "./partner-settings.js";
import { validateSubmission } from "./submission.js";
import type {
  DeliveryRecord,
  PartnerSettings,
  ProjectOwner,
  ProjectRecord,
  RebuildCallbackPayload,
  RebuildRecord,
} from "./types.js";
import type { StoredSinkEntry } from "./webhook-sink.js";

/** The rebuild half of a world snapshot, as JSON. Times are RFC 3339 with milliseconds. */
export interface RebuildSnapshot {
  /** Keys included; a webhook URL on the mock's own origin is written with `{origin}`. */
  partners: PartnerSettings[];
  rebuilds: RebuildSnapshotEntry[];
  projects: ProjectRecord[];
  deliveries: {
    /** The delivery log, oldest first, and how many older records it dropped. */
    log: DeliveryRecord[];
    dropped: number;
    /** Attempts not made yet (retries, and attempts that were running: they are made again). */
    pending: Array<{ partnerId: number; payload: RebuildCallbackPayload; attempt: number; dueAt: string }>;
  };
  sink: { entries: Record<string, StoredSinkEntry[]>; dropped: number };
  /** Per partner id, the admission times still in the rate window, oldest first. */
  rateWindows: Record<string, string[]>;
}

/** A rebuild as a snapshot holds it: the state view's record without the derived normalised URL. */
type RebuildSnapshotEntry = Omit<RebuildRecord, "normalizedSourceUrl"> & {
  /** Running only: when it completes on its own, or null when only the control API completes it. */
  completesAt?: string | null;
};

/** A running rebuild's scheduled completion, epoch ms; undefined when none is scheduled. */
interface RebuildAtRest {
  record: RebuildRecord;
  completesAt: number | undefined;
}

/** What `restore` takes: a snapshot whose every value was checked, times in epoch ms. */
export interface CheckedRebuildSnapshot {
  partners: Map<number, PartnerSettings>;
  rebuilds: RebuildAtRest[];
  projects: ProjectRecord[];
  deliveries: { log: DeliveryRecord[]; dropped: number; pending: PendingAttempt[] };
  sink: { entries: Record<string, StoredSinkEntry[]>; dropped: number };
  rateWindows: Map<number, number[]>;
}

const ORIGIN_PLACEHOLDER = "{origin}";

/** The snapshot of a rebuild domain's parts. */
export function rebuildSnapshotOf(
  origin: string,
  parts: Omit<CheckedRebuildSnapshot, "partners"> & { partners: Iterable<PartnerSettings> },
): RebuildSnapshot {
  const ownOrigin = `${origin}/`;
  return {
    partners: [...parts.partners]
      .map((partner) => {
        const copy = structuredClone(partner);
        if (copy.webhookUrl?.startsWith(ownOrigin)) {
          copy.webhookUrl = `${ORIGIN_PLACEHOLDER}/${copy.webhookUrl.slice(ownOrigin.length)}`;
        }
        return copy;
      })
      .sort((a, b) => a.id - b.id),
    rebuilds: parts.rebuilds.map(({ record, completesAt }) => {
      const { normalizedSourceUrl: _derived, ...rest } = structuredClone(record);
      if (record.status !== "running") return rest;
      return { ...rest, completesAt: completesAt === undefined ? null : formatInstant(completesAt) };
    }),
    projects: structuredClone(parts.projects),
    deliveries: {
      log: structuredClone(parts.deliveries.log),
      dropped: parts.deliveries.dropped,
      pending: parts.deliveries.pending.map((p) => ({
        ...structuredClone(p),
        dueAt: formatInstant(p.dueAt),
      })),
    },
    sink: structuredClone(parts.sink),
    rateWindows: Object.fromEntries(
      [...parts.rateWindows].map(([id, times]) => [String(id), times.map(formatInstant)]),
    ),
  };
}

const MAX_RATE_WINDOW = 1_000_000;
const STATUSES = ["running", "success", "failed"] as const;

/**
 * Checks the rebuild half of a snapshot, recording every problem at its path below `path`, and
 * returns it ready for `restore` (undefined when anything is wrong). Partners are read as the seed
 * reads them; each rebuild's URL and prompt as a submission would be.
 */
export function readRebuildSnapshot(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  context: { origin: string; random: Random },
): CheckedRebuildSnapshot | undefined {
  const before = errors.items.length;
  const root = readRecord(
    value,
    path,
    { required: ["partners", "rebuilds", "projects", "deliveries", "sink", "rateWindows"] },
    errors,
  );
  if (!root) return undefined;
  const partners = readPartners(root.partners, joinPath(path, "partners"), errors, context);
  const rebuilds = readRebuilds(root.rebuilds, joinPath(path, "rebuilds"), errors, partners);
  const projects = readProjects(root.projects, joinPath(path, "projects"), errors, rebuilds);
  const deliveries = readDeliveries(root.deliveries, joinPath(path, "deliveries"), errors, partners);
  const sink = readSink(root.sink, joinPath(path, "sink"), errors);
  const rateWindows = readRateWindows(root.rateWindows, joinPath(path, "rateWindows"), errors, partners);
  if (errors.items.length > before || !deliveries || !sink) return undefined;
  return { partners, rebuilds, projects, deliveries, sink, rateWindows };
}

function readPartners(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  { origin, random }: { origin: string; random: Random },
): Map<number, PartnerSettings> {
  const partners = new Map<number, PartnerSettings>();
  readList(value, path, errors)?.forEach((item, index) => {
    const at = joinPath(path, index);
    if (!isJsonObject(item)) {
      errors.add("invalid_type", at, `Must be an object, got ${jsonType(item)}`);
      return;
    }
    const { id: rawId, ...settings } = item;
    const id = parsePartnerId(rawId);
    if (id === undefined || partners.has(id)) {
      errors.add(
        id === undefined ? "invalid_value" : "duplicate",
        joinPath(at, "id"),
        "Must be a unique positive integer",
      );
      return;
    }
    try {
      partners.set(id, applyPartnerPatch(defaultPartner(id, random, origin), settings, origin));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const e of error.details.fieldErrors ?? []) errors.add(e.type, joinPath(at, e.path), e.message);
    }
  });
  return partners;
}

function readRebuilds(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  partners: ReadonlyMap<number, PartnerSettings>,
): RebuildAtRest[] {
  const out: RebuildAtRest[] = [];
  const requestIds = new Set<string>();
  const projectIds = new Set<string>();
  const urls = new Set<string>();
  readList(value, path, errors)?.forEach((item, index) => {
    const at = joinPath(path, index);
    const before = errors.items.length;
    const fields = readRecord(
      item,
      at,
      {
        required: ["requestId", "projectId", "partnerId", "sourceUrl", "prompt", "status", "createdAt"],
        optional: ["previewUrl", "errorCode", "errorMessage", "completedAt", "completesAt"],
      },
      errors,
    );
    if (!fields) return;
    const requestId = readText(fields.requestId, joinPath(at, "requestId"), errors);
    const projectId = readText(fields.projectId, joinPath(at, "projectId"), errors);
    const partnerId = knownPartner(fields.partnerId, joinPath(at, "partnerId"), errors, partners);
    const status = STATUSES.find((s) => s === fields.status);
    if (fields.status !== undefined && status === undefined) {
      errors.add("invalid_value", joinPath(at, "status"), "Must be one of: running, success, failed");
    }
    let submission: ReturnType<typeof validateSubmission> | undefined;
    try {
      const prompt = fields.prompt === null ? {} : { prompt: fields.prompt };
      submission = validateSubmission({ sourceUrl: fields.sourceUrl, ...prompt });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const e of error.details.fieldErrors ?? []) errors.add(e.type, joinPath(at, e.path), e.message);
    }
    const createdAt = readInstant(fields.createdAt, joinPath(at, "createdAt"), errors);
    const final = status === "success" || status === "failed";
    const allowed = (field: string, when: boolean, why: string) => {
      if (!when && fields[field] !== undefined) errors.add("invalid_value", joinPath(at, field), why);
    };
    allowed("previewUrl", status === "success", 'Only a rebuild with status "success" has one');
    allowed("errorCode", status === "failed", 'Only a rebuild with status "failed" has one');
    allowed("errorMessage", status === "failed", 'Only a rebuild with status "failed" has one');
    allowed("completedAt", final, "Only a finished rebuild has one");
    allowed("completesAt", status === "running", "Only a running rebuild has one");
    if (status === "success") requiredIn(fields, "previewUrl", at, errors);
    if (final) requiredIn(fields, "completedAt", at, errors);
    const previewUrl = readText(fields.previewUrl, joinPath(at, "previewUrl"), errors, { min: 1, max: 2048 });
    const errorCode = readText(fields.errorCode, joinPath(at, "errorCode"), errors, { min: 1, max: 1000 });
    const errorMessage = readText(fields.errorMessage, joinPath(at, "errorMessage"), errors, {
      min: 1,
      max: 1000,
    });
    const completedAt = readInstant(fields.completedAt, joinPath(at, "completedAt"), errors);
    const completesAt =
      fields.completesAt === null
        ? undefined
        : readInstant(fields.completesAt, joinPath(at, "completesAt"), errors);
    const duplicate = (set: Set<string>, key: string | undefined, field: string) => {
      if (key === undefined) return;
      if (set.has(key)) errors.add("duplicate", joinPath(at, field), "Is given twice");
      set.add(key);
    };
    duplicate(requestIds, requestId, "requestId");
    duplicate(projectIds, projectId, "projectId");
    if (submission && partnerId !== undefined) {
      // Idempotency holds per partner and normalised URL: two rebuilds for one would break it.
      duplicate(urls, `${partnerId} ${submission.normalizedUrl}`, "sourceUrl");
    }
    if (
      errors.items.length > before ||
      requestId === undefined ||
      projectId === undefined ||
      partnerId === undefined ||
      status === undefined ||
      submission === undefined ||
      createdAt === undefined
    ) {
      return;
    }
    const record: RebuildRecord = {
      requestId,
      projectId,
      partnerId,
      sourceUrl: submission.sourceUrl,
      normalizedSourceUrl: submission.normalizedUrl,
      prompt: submission.prompt,
      status,
      createdAt: formatTimestamp(createdAt),
    };
    if (previewUrl !== undefined) record.previewUrl = previewUrl;
    if (errorCode !== undefined) record.errorCode = errorCode;
    if (errorMessage !== undefined) record.errorMessage = errorMessage;
    if (completedAt !== undefined) record.completedAt = formatTimestamp(completedAt);
    out.push({ record, completesAt });
  });
  return out;
}

function readProjects(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  rebuilds: readonly RebuildAtRest[],
): ProjectRecord[] {
  const byRequest = new Map(rebuilds.map(({ record }) => [record.requestId, record]));
  const seen = new Set<string>();
  const out: ProjectRecord[] = [];
  readList(value, path, errors)?.forEach((item, index) => {
    const at = joinPath(path, index);
    const before = errors.items.length;
    const fields = readRecord(
      item,
      at,
      { required: ["projectId", "partnerId", "requestId", "owner", "copiedFrom", "createdAt"] },
      errors,
    );
    if (!fields) return;
    const projectId = readText(fields.projectId, joinPath(at, "projectId"), errors);
    const requestId = readText(fields.requestId, joinPath(at, "requestId"), errors);
    const rebuild = requestId === undefined ? undefined : byRequest.get(requestId);
    if (requestId !== undefined && !rebuild) {
      errors.add(
        "invalid_value",
        joinPath(at, "requestId"),
        "Must be the requestId of a rebuild in the snapshot",
      );
    }
    if (rebuild && fields.partnerId !== rebuild.partnerId) {
      errors.add("invalid_value", joinPath(at, "partnerId"), "Must be the partnerId of its rebuild");
    }
    const owner = readOwner(fields.owner, joinPath(at, "owner"), errors);
    const copiedFrom = fields.copiedFrom;
    if (copiedFrom !== null && copiedFrom !== rebuild?.projectId) {
      errors.add("invalid_value", joinPath(at, "copiedFrom"), "Must be null or the projectId of its rebuild");
    }
    if (rebuild && copiedFrom === null && projectId !== rebuild.projectId) {
      errors.add(
        "invalid_value",
        joinPath(at, "projectId"),
        "A rebuild's own project has the rebuild's projectId",
      );
    }
    const createdAt = readInstant(fields.createdAt, joinPath(at, "createdAt"), errors);
    if (projectId !== undefined) {
      if (seen.has(projectId)) errors.add("duplicate", joinPath(at, "projectId"), "Is given twice");
      seen.add(projectId);
    }
    if (
      errors.items.length > before ||
      projectId === undefined ||
      !rebuild ||
      !owner ||
      createdAt === undefined
    ) {
      return;
    }
    out.push({
      projectId,
      partnerId: rebuild.partnerId,
      requestId: rebuild.requestId,
      owner,
      copiedFrom: copiedFrom === null ? null : rebuild.projectId,
      createdAt: formatTimestamp(createdAt),
    });
  });
  return out;
}

function readOwner(value: unknown, path: string, errors: FieldErrorList): ProjectOwner | undefined {
  if (!isJsonObject(value)) {
    errors.add("invalid_type", path, `Must be an object, got ${jsonType(value)}`);
    return undefined;
  }
  if (value.kind === "system") {
    return readRecord(value, path, { required: ["kind"] }, errors) ? { kind: "system" } : undefined;
  }
  if (value.kind === "customer" || value.kind === "user") {
    const idField = value.kind === "customer" ? "customerId" : "userId";
    if (!readRecord(value, path, { required: ["kind", idField] }, errors)) return undefined;
    const id = readText(value[idField], joinPath(path, idField), errors);
    if (id === undefined) return undefined;
    return value.kind === "customer" ? { kind: "customer", customerId: id } : { kind: "user", userId: id };
  }
  errors.add("invalid_value", joinPath(path, "kind"), "Must be one of: system, customer, user");
  return undefined;
}

function readDeliveries(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  partners: ReadonlyMap<number, PartnerSettings>,
): CheckedRebuildSnapshot["deliveries"] | undefined {
  const fields = readRecord(value, path, { required: ["log", "dropped", "pending"] }, errors);
  if (!fields) return undefined;
  const log: DeliveryRecord[] = [];
  readList(fields.log, joinPath(path, "log"), errors)?.forEach((item, index) => {
    const at = joinPath(joinPath(path, "log"), index);
    const record = readRecord(
      item,
      at,
      { required: ["requestId", "url", "attempt", "headers", "body", "responseStatus", "at"] },
      errors,
    );
    if (!record) return;
    const before = errors.items.length;
    const requestId = readText(record.requestId, joinPath(at, "requestId"), errors);
    const url =
      record.url === null ? null : readText(record.url, joinPath(at, "url"), errors, { min: 1, max: 2048 });
    const attempt = readInteger(record.attempt, joinPath(at, "attempt"), errors, { min: 1, max: 5 });
    const headers = readStringMap(record.headers, joinPath(at, "headers"), errors);
    const body = readPayload(record.body, joinPath(at, "body"), errors);
    const responseStatus =
      record.responseStatus === null
        ? null
        : readInteger(record.responseStatus, joinPath(at, "responseStatus"), errors, { min: 100, max: 599 });
    const time = readInstant(record.at, joinPath(at, "at"), errors);
    if (
      errors.items.length > before ||
      requestId === undefined ||
      url === undefined ||
      attempt === undefined ||
      !headers ||
      !body ||
      responseStatus === undefined ||
      time === undefined
    ) {
      return;
    }
    log.push({ requestId, url, attempt, headers, body, responseStatus, at: formatTimestamp(time) });
  });
  const dropped = readCount(fields.dropped, joinPath(path, "dropped"), errors);
  const pending: PendingAttempt[] = [];
  readList(fields.pending, joinPath(path, "pending"), errors)?.forEach((item, index) => {
    const at = joinPath(joinPath(path, "pending"), index);
    const attempt = readRecord(item, at, { required: ["partnerId", "payload", "attempt", "dueAt"] }, errors);
    if (!attempt) return;
    const partnerId = knownPartner(attempt.partnerId, joinPath(at, "partnerId"), errors, partners);
    const payload = readPayload(attempt.payload, joinPath(at, "payload"), errors);
    const number = readInteger(attempt.attempt, joinPath(at, "attempt"), errors, { min: 1, max: 5 });
    const dueAt = readInstant(attempt.dueAt, joinPath(at, "dueAt"), errors);
    if (partnerId !== undefined && payload && number !== undefined && dueAt !== undefined) {
      pending.push({ partnerId, payload, attempt: number, dueAt });
    }
  });
  return dropped === undefined ? undefined : { log, dropped, pending };
}

const PAYLOAD_FIELDS = {
  required: ["event_type", "request_id", "partner_id", "project_id", "source_url", "status"],
  optional: ["preview_url", "error_code", "error_message"],
};

/** A callback body, field by field as the contract's webhook schema has it. */
function readPayload(
  value: unknown,
  path: string,
  errors: FieldErrorList,
): RebuildCallbackPayload | undefined {
  const fields = readRecord(value, path, PAYLOAD_FIELDS, errors);
  if (!fields) return undefined;
  const before = errors.items.length;
  if (fields.event_type !== undefined && fields.event_type !== "partner_project_rebuild_completed") {
    errors.add("invalid_value", joinPath(path, "event_type"), "Must be partner_project_rebuild_completed");
  }
  const status = fields.status === "success" || fields.status === "failed" ? fields.status : undefined;
  if (fields.status !== undefined && status === undefined) {
    errors.add("invalid_value", joinPath(path, "status"), "Must be one of: success, failed");
  }
  const text = (field: string, max = 2048) =>
    readText(fields[field], joinPath(path, field), errors, { min: 1, max });
  const payload = {
    event_type: "partner_project_rebuild_completed" as const,
    request_id: text("request_id"),
    partner_id: readInteger(fields.partner_id, joinPath(path, "partner_id"), errors, {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    }),
    project_id: text("project_id"),
    source_url: text("source_url"),
    preview_url: text("preview_url"),
    error_code: text("error_code", 1000),
    error_message: text("error_message", 1000),
  };
  if (status !== "success" && fields.preview_url !== undefined) {
    errors.add(
      "invalid_value",
      joinPath(path, "preview_url"),
      'Only a callback with status "success" has one',
    );
  }
  for (const field of ["error_code", "error_message"]) {
    if (status !== "failed" && fields[field] !== undefined) {
      errors.add("invalid_value", joinPath(path, field), 'Only a callback with status "failed" has one');
    }
  }
  const { request_id, partner_id, project_id, source_url } = payload;
  if (
    errors.items.length > before ||
    status === undefined ||
    request_id === undefined ||
    partner_id === undefined ||
    project_id === undefined ||
    source_url === undefined
  ) {
    return undefined;
  }
  const out: RebuildCallbackPayload = {
    event_type: payload.event_type,
    request_id,
    partner_id,
    project_id,
    source_url,
    status,
  };
  if (payload.preview_url !== undefined) out.preview_url = payload.preview_url;
  if (payload.error_code !== undefined) out.error_code = payload.error_code;
  if (payload.error_message !== undefined) out.error_message = payload.error_message;
  return out;
}

function readSink(
  value: unknown,
  path: string,
  errors: FieldErrorList,
): CheckedRebuildSnapshot["sink"] | undefined {
  const fields = readRecord(value, path, { required: ["entries", "dropped"] }, errors);
  if (!fields) return undefined;
  const entries: Array<[string, StoredSinkEntry[]]> = [];
  const byPartner = fields.entries;
  if (!isJsonObject(byPartner)) {
    if (byPartner !== undefined) errors.add("invalid_type", joinPath(path, "entries"), "Must be an object");
  } else {
    for (const [key, list] of Object.entries(byPartner)) {
      const at = joinPath(joinPath(path, "entries"), key);
      if (parsePartnerId(key) === undefined) {
        errors.add("invalid_value", at, "Must be keyed by partner id (a positive integer)");
        continue;
      }
      const kept: StoredSinkEntry[] = [];
      readList(list, at, errors)?.forEach((item, index) => {
        const entryAt = joinPath(at, index);
        const entry = readRecord(item, entryAt, { required: ["headers", "text", "at"] }, errors);
        if (!entry) return;
        const headers = readStringMap(entry.headers, joinPath(entryAt, "headers"), errors);
        const text =
          entry.text === null
            ? null
            : readText(entry.text, joinPath(entryAt, "text"), errors, { min: 0, max: 1024 * 1024 });
        if (text && jsonDepth(text) > MAX_JSON_DEPTH) {
          errors.add(
            "too_big",
            joinPath(entryAt, "text"),
            `Must not nest deeper than ${MAX_JSON_DEPTH} levels`,
          );
        }
        const time = readInstant(entry.at, joinPath(entryAt, "at"), errors);
        if (headers && text !== undefined && time !== undefined) {
          kept.push({ headers, text, at: formatTimestamp(time) });
        }
      });
      entries.push([String(parsePartnerId(key)), kept]);
    }
  }
  const dropped = readCount(fields.dropped, joinPath(path, "dropped"), errors);
  return dropped === undefined ? undefined : { entries: Object.fromEntries(entries), dropped };
}

function readRateWindows(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  partners: ReadonlyMap<number, PartnerSettings>,
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!isJsonObject(value)) {
    if (value !== undefined) errors.add("invalid_type", path, "Must be an object");
    return out;
  }
  for (const [key, list] of Object.entries(value)) {
    const at = joinPath(path, key);
    const id = knownPartner(key, at, errors, partners);
    const items = readList(list, at, errors);
    if (id === undefined || !items) continue;
    if (items.length > MAX_RATE_WINDOW) {
      errors.add("too_big", at, `Must hold at most ${MAX_RATE_WINDOW} times`);
      continue;
    }
    const times: number[] = [];
    items.forEach((item, index) => {
      const time = readInstant(item, joinPath(at, index), errors);
      if (time === undefined) return;
      if (times.length > 0 && time < (times[times.length - 1] ?? time)) {
        errors.add("invalid_value", joinPath(at, index), "Times must be in ascending order");
      }
      times.push(time);
    });
    out.set(id, times);
  }
  return out;
}

function knownPartner(
  value: unknown,
  path: string,
  errors: FieldErrorList,
  partners: ReadonlyMap<number, PartnerSettings>,
): number | undefined {
  const id = parsePartnerId(value);
  if (id !== undefined && partners.has(id)) return id;
  errors.add("invalid_value", path, "Must be the id of a partner in the snapshot");
  return undefined;
}

function requiredIn(
  fields: Readonly<Record<string, unknown>>,
  field: string,
  path: string,
  errors: FieldErrorList,
) {
  if (fields[field] === undefined) errors.add("required", joinPath(path, field), `"${field}" is required`);
}
