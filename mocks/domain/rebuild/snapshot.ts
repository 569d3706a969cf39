// The rebuild half of a world snapshot: what `--state-file`, `GET`/`PUT /__mock/snapshot` and
// `world.snapshot()` / `world.restore()` carry. Everything comes back, pending work included: a
// running rebuild's completion and every retry, with their due times. The contract's schema
// (openapi/mock-control.yaml, `RebuildSnapshot`) checks every value; `checkRebuildSnapshot` adds
// what a schema cannot state: references, uniqueness, the public host, nesting and order.
import { parseDateTime } from "../../../src/core/formats.js";
import type { components } from "../../../src/generated/mock-control.js";
import { DomainError, type FieldError, validationFailed } from "../errors.js";
import { formatInstant, formatTimestamp } from "../timestamp.js";
import { jsonDepth, MAX_JSON_DEPTH } from "../validation/json-depth.js";
import { firstGiven, pathOf } from "../validation/schema-errors.js";
import type { PendingAttempt } from "./deliveries.js";
import type { RebuildEntry } from "./ledger.js";
import { ORIGIN_PLACEHOLDER, type PartnerBook } from "./partners.js";
import { acceptSourceUrl } from "./source-url.js";
import type { DeliveryRecord, PartnerSettings, ProjectRecord, RebuildRecord } from "./types.js";
import type { StoredSinkEntry } from "./webhook-sink.js";

/** The rebuild half of a world snapshot, as JSON. Times are RFC 3339 with milliseconds. */
export type RebuildSnapshot = components["schemas"]["RebuildSnapshot"];

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

/**
 * What a snapshot is made of: copies the snapshot may keep (each part's own reader copies it), but
 * `rebuilds`, whose records are the ledger's live ones.
 */
export interface RebuildParts {
  partners: readonly PartnerSettings[];
  rebuilds: Iterable<RebuildEntry>;
  projects: readonly ProjectRecord[];
  deliveries: CheckedRebuildSnapshot["deliveries"];
  sink: CheckedRebuildSnapshot["sink"];
  rateWindows: ReadonlyMap<number, readonly number[]>;
}

/** The snapshot of a rebuild domain's parts. A webhook URL on the mock's own origin is written `{origin}/…`. */
export function rebuildSnapshotOf(origin: string, parts: RebuildParts): RebuildSnapshot {
  const ownOrigin = `${origin}/`;
  return {
    partners: parts.partners.map((partner) =>
      partner.webhookUrl?.startsWith(ownOrigin)
        ? { ...partner, webhookUrl: `${ORIGIN_PLACEHOLDER}/${partner.webhookUrl.slice(ownOrigin.length)}` }
        : partner,
    ),
    rebuilds: Array.from(parts.rebuilds, ({ record, completesAt }) => {
      const { normalizedSourceUrl: _derived, ...rest } = structuredClone(record);
      if (rest.status !== "running") return rest as RebuildSnapshot["rebuilds"][number];
      return {
        ...rest,
        status: "running",
        completesAt: completesAt === undefined ? null : formatInstant(completesAt),
      };
    }),
    projects: [...parts.projects],
    deliveries: {
      log: [...parts.deliveries.log],
      dropped: parts.deliveries.dropped,
      pending: parts.deliveries.pending.map((p) => ({ ...p, dueAt: formatInstant(p.dueAt) })),
    },
    sink: { ...parts.sink },
    rateWindows: Object.fromEntries(
      [...parts.rateWindows].map(([id, times]) => [String(id), times.map(formatInstant)]),
    ),
  };
}

/**
 * The snapshot ready for `restore`, or VALIDATION_FAILED naming, below `path`, every reference to
 * something the snapshot does not hold, every value given twice, every non-public `sourceUrl`, sink
 * text nested too deep and rate windows out of order.
 */
export function checkRebuildSnapshot(
  snapshot: RebuildSnapshot,
  path: string,
  book: PartnerBook,
): CheckedRebuildSnapshot {
  const problems: FieldError[] = [];
  const at = (...keys: Array<string | number>) => pathOf(path, ...keys);
  const problem = (type: FieldError["type"], where: string, message: string) =>
    problems.push({ type, path: where, message });

  let partners = new Map<number, PartnerSettings>();
  try {
    partners = book.read(snapshot.partners, at("partners"));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problems.push(...(error.details.fieldErrors ?? []));
  }
  const knownPartner = (id: number, where: string) => {
    if (!partners.has(id)) problem("invalid_value", where, "must be the id of a partner in the snapshot");
  };

  const rebuilds: RebuildAtRest[] = [];
  // Each key → the path where it was first given.
  const requestIds = new Map<string, string>();
  const projectIds = new Map<string, string>();
  const urls = new Map<string, string>();
  snapshot.rebuilds.forEach((stored, index) => {
    const { completesAt, ...fields } = { completesAt: undefined, ...stored };
    knownPartner(fields.partnerId, at("rebuilds", index, "partnerId"));
    const unique = (seen: Map<string, string>, key: string, field: string, what: string) =>
      firstGiven(seen, key, at("rebuilds", index, field), what, problems);
    unique(requestIds, fields.requestId, "requestId", `request id ${fields.requestId}`);
    unique(projectIds, fields.projectId, "projectId", `project id ${fields.projectId}`);
    const accepted = acceptSourceUrl(fields.sourceUrl, at("rebuilds", index, "sourceUrl"));
    if ("type" in accepted) {
      problems.push(accepted);
      return;
    }
    // Idempotency holds per partner and normalised URL: two rebuilds for one would break it.
    unique(
      urls,
      `${fields.partnerId} ${accepted.normalizedUrl}`,
      "sourceUrl",
      `partner ${fields.partnerId}'s source URL ${accepted.normalizedUrl}`,
    );
    const record: RebuildRecord = {
      ...fields,
      normalizedSourceUrl: accepted.normalizedUrl,
      createdAt: formatTimestamp(parseDateTime(fields.createdAt)),
    };
    if ("completedAt" in fields) record.completedAt = formatTimestamp(parseDateTime(fields.completedAt));
    rebuilds.push({ record, completesAt: completesAt == null ? undefined : parseDateTime(completesAt) });
  });

  const byRequest = new Map(rebuilds.map(({ record }) => [record.requestId, record]));
  const projects: ProjectRecord[] = [];
  const seenProjects = new Map<string, string>();
  snapshot.projects.forEach((project, index) => {
    const rebuild = byRequest.get(project.requestId);
    if (!rebuild) {
      problem(
        "invalid_value",
        at("projects", index, "requestId"),
        "must be the requestId of a rebuild in the snapshot",
      );
      return;
    }
    if (project.partnerId !== rebuild.partnerId) {
      problem("invalid_value", at("projects", index, "partnerId"), "must be the partnerId of its rebuild");
    }
    if (project.copiedFrom !== null && project.copiedFrom !== rebuild.projectId) {
      problem(
        "invalid_value",
        at("projects", index, "copiedFrom"),
        "must be null or the projectId of its rebuild",
      );
    }
    if (project.copiedFrom === null && project.projectId !== rebuild.projectId) {
      problem(
        "invalid_value",
        at("projects", index, "projectId"),
        "must be its rebuild's projectId (its own project)",
      );
    }
    firstGiven(
      seenProjects,
      project.projectId,
      at("projects", index, "projectId"),
      `project id ${project.projectId}`,
      problems,
    );
    projects.push({ ...project, createdAt: formatTimestamp(parseDateTime(project.createdAt)) });
  });

  const { deliveries } = snapshot;
  const log = deliveries.log.map((record) => ({ ...record, at: formatTimestamp(parseDateTime(record.at)) }));
  const pending = deliveries.pending.map((attempt, index) => {
    knownPartner(attempt.partnerId, at("deliveries", "pending", index, "partnerId"));
    return { ...attempt, dueAt: parseDateTime(attempt.dueAt) };
  });

  const entries: Record<string, StoredSinkEntry[]> = {};
  for (const [key, list] of Object.entries(snapshot.sink.entries)) {
    entries[key] = list.map((entry, index) => {
      if (entry.text !== null && jsonDepth(entry.text) > MAX_JSON_DEPTH) {
        problem(
          "too_big",
          at("sink", "entries", key, index, "text"),
          `must not nest deeper than ${MAX_JSON_DEPTH} levels`,
        );
      }
      return { ...entry, at: formatTimestamp(parseDateTime(entry.at)) };
    });
  }

  const rateWindows = new Map<number, number[]>();
  for (const [key, list] of Object.entries(snapshot.rateWindows)) {
    const id = Number(key);
    knownPartner(id, at("rateWindows", key));
    const times = list.map(parseDateTime);
    times.forEach((time, index) => {
      if (index > 0 && time < (times[index - 1] ?? time)) {
        problem(
          "invalid_value",
          at("rateWindows", key, index),
          "must not be earlier than the time before it",
        );
      }
    });
    rateWindows.set(id, times);
  }

  if (problems.length > 0) throw validationFailed(problems);
  return {
    partners,
    rebuilds,
    projects,
    deliveries: { log, dropped: deliveries.dropped, pending },
    sink: { entries, dropped: snapshot.sink.dropped },
    rateWindows,
  };
}
