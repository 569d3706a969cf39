// The request journal (decisions/030): the most recent requests to the public APIs, as the dispatcher
// saw them, for people and tests to look at (`GET /__mock/requests`, `world.listRequests()`). It shows
// nothing secret by construction: headers and the query never reach it, and a body is shown only as
// journal-body.ts redacts and bounds it (decisions/044). Until an entry is first read it holds the
// body's text as received, in memory only, never shown, no longer than the shown form may be
// (decisions/051).
import {
  JOURNAL_BODY_MAX_LENGTH,
  JOURNAL_METHOD_MAX_LENGTH,
  JOURNAL_PATH_MAX_LENGTH,
} from "../../src/generated/limits.js";
import type { components, operations } from "../../src/generated/mock-control.js";
import { createBoundedLog } from "./bounded-log.js";
import { containsJson, type JournalBody, journalBody } from "./journal-body.js";
import { formatInstant } from "./timestamp.js";

type Schemas = components["schemas"];

/** `GET /__mock/requests`: the journal's size and losses, and the entries kept, newest last. */
type RequestJournalView = Schemas["RequestJournal"];
type JournalEntry = Schemas["JournalEntry"];
/** Who made a request, once authenticated: a dashboard token's id or a rebuild partner's id. */
export type JournalCaller = NonNullable<JournalEntry["caller"]>;
/**
 * The journal's filters, `GET /__mock/requests`'s query: an operation of the service contracts, a
 * status, and a JSON value the body must contain (as the query's JSON text, or in-process the value).
 */
type RequestFilter = Omit<NonNullable<operations["listRequests"]["parameters"]["query"]>, "body"> & {
  body?: unknown;
};

/** One answered request, as the dispatcher hands it over (`atMs` on the virtual clock). */
export interface JournalRecord {
  atMs: number;
  api: JournalEntry["api"];
  method: string;
  /** The URL's path only: the query string never reaches the journal. */
  path: string;
  operationId: JournalEntry["operationId"];
  status: number;
  durationMs: number;
  caller: JournalCaller | null;
  /** The body's text as received, `null` when there was none; kept only as `journalBody` makes it. */
  body: string | null;
}

/**
 * An entry as kept: its body as the journal shows it, or until first read, the text as received
 * when that is short enough to hold (the form shown is made from it once, when it is read).
 */
type KeptRecord = Omit<JournalRecord, "body"> & { text: string | null; shown: JournalBody | undefined };

/** The body as the journal shows it, made from the text the first time it is asked for. */
function shownBody(record: KeptRecord): JournalBody {
  if (record.shown === undefined) {
    record.shown = journalBody(record.text);
    record.text = null;
  }
  return record.shown;
}

/** How many requests the journal keeps; past it the oldest is dropped (and counted). */
export const REQUEST_JOURNAL_CAPACITY = 500;

export interface RequestJournal {
  /** The virtual time now (epoch ms): when a request arrived. */
  now(): number;
  /** Records an answered request; the oldest entry goes once the journal is full. */
  record(entry: JournalRecord): void;
  /** The entries that match `filter` (all by default), oldest first, with the journal's capacity and losses. */
  list(filter?: RequestFilter): RequestJournalView;
  /** Forgets every entry and the count of dropped ones (reset, restore). */
  clear(): void;
  /** Calls `listener` after every entry recorded and after the journal is cleared; returns a function that removes it. */
  onChange(listener: () => void): () => void;
}

export function createRequestJournal(
  clock: { now(): number },
  capacity = REQUEST_JOURNAL_CAPACITY,
): RequestJournal {
  const log = createBoundedLog<KeptRecord>(capacity);
  const listeners = new Set<() => void>();
  return {
    now: () => clock.now(),
    record(entry) {
      // The journal stays small whatever clients send: a method or path past the lengths
      // openapi/mock-control.yaml's `JournalEntry` states is cut.
      if (entry.method.length > JOURNAL_METHOD_MAX_LENGTH) {
        entry.method = entry.method.slice(0, JOURNAL_METHOD_MAX_LENGTH);
      }
      if (entry.path.length > JOURNAL_PATH_MAX_LENGTH) {
        entry.path = `${entry.path.slice(0, JOURNAL_PATH_MAX_LENGTH - 1)}…`;
      }
      // The redacted form is made when the entry is first read, not on every request (decisions/051),
      // from a text no longer than the form may be: the bound on what the journal holds stays the
      // one decisions/044 sets. A longer text is read at once and kept only in that form.
      const text = entry.body !== null && entry.body.length <= JOURNAL_BODY_MAX_LENGTH ? entry.body : null;
      // One object literal of one shape (a rest and two spreads cost about 2 µs on every request).
      log.push({
        atMs: entry.atMs,
        api: entry.api,
        method: entry.method,
        path: entry.path,
        operationId: entry.operationId,
        status: entry.status,
        durationMs: entry.durationMs,
        caller: entry.caller,
        text,
        shown: text === null ? journalBody(entry.body) : undefined,
      });
      for (const listener of listeners) listener();
    },
    list(filter = {}) {
      const { operation, status, body } = filter;
      const entries: JournalEntry[] = [];
      for (const record of log.items()) {
        if (operation !== undefined && record.operationId !== operation) continue;
        if (status !== undefined && record.status !== status) continue;
        const shown = shownBody(record);
        if (body !== undefined && (shown.bodyCut || !containsJson(shown.body, body))) continue;
        entries.push({
          at: formatInstant(record.atMs),
          api: record.api,
          method: record.method,
          path: record.path,
          operationId: record.operationId,
          status: record.status,
          durationMs: record.durationMs,
          caller: record.caller === null ? null : { ...record.caller },
          body: structuredClone(shown.body),
          bodyCut: shown.bodyCut,
        });
      }
      return { capacity, dropped: log.dropped, entries };
    },
    clear() {
      log.clear();
      for (const listener of listeners) listener();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
