// The request journal (`GET /__mock/requests`): the most recent requests to both APIs, newest first
// here, each with its body folded, filtered by operation, status and body on the server.
import type { Journal, JournalEntry } from "./control.js";
import { byId, h, reconcile, requestBody } from "./dom.js";
import { count, instant, timeOfDay } from "./format.js";

interface EntryView {
  entry: JournalEntry;
  /** Its place counted from the oldest entry ever kept, so a key survives older entries leaving. */
  serial: number;
}

export function renderJournal(journal: Journal, filtered: boolean): void {
  const { entries, capacity, dropped } = journal;
  const views: EntryView[] = entries.map((entry, index) => ({ entry, serial: dropped + index })).reverse();
  byId("journal-note").textContent = [
    `${count(entries.length)} ${filtered ? "matching " : ""}request${entries.length === 1 ? "" : "s"}`,
    `the ${count(capacity)} most recent are kept`,
    dropped > 0 ? `${count(dropped)} older let go` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  reconcile(
    byId("journal-rows"),
    views,
    (view) => `${view.serial}-${view.entry.at}-${view.entry.method}-${view.entry.path}`,
    (view) => JSON.stringify(view.entry),
    (view) => row(view),
  );
}

/** The filter offers every operation of the service contracts. */
export function fillOperationFilter(operations: readonly string[]): void {
  byId("journal-operation").append(...operations.map((id) => h("option", { value: id }, id)));
}

function row({ entry, serial }: EntryView): HTMLTableRowElement {
  const at = Date.parse(entry.at);
  const kind = entry.status < 300 ? "ok" : entry.status < 500 ? "warn" : "bad";
  return h(
    "tr",
    null,
    h("td", null, h("time", { datetime: entry.at, title: instant(at) }, timeOfDay(at))),
    h("td", null, entry.api),
    h("th", { scope: "row" }, h("code", { class: "url" }, `${entry.method} ${entry.path}`)),
    h(
      "td",
      null,
      entry.operationId === null ? h("span", { class: "muted" }, "none") : h("code", null, entry.operationId),
    ),
    h("td", null, h("span", { class: `badge http-${kind}` }, String(entry.status))),
    h("td", { class: "number" }, `${count(Math.round(entry.durationMs * 10) / 10)} ms`),
    h("td", null, caller(entry.caller)),
    h("td", null, body(entry, serial)),
  );
}

/** The body as the journal kept it: JSON, or the cut text of a longer one. */
function body(entry: JournalEntry, serial: number): HTMLElement {
  if (entry.body === null) return h("span", { class: "muted" }, "none");
  const text = entry.bodyCut
    ? `${String(entry.body)}\n(cut: the body was longer)`
    : JSON.stringify(entry.body, null, 2);
  // Keyed by the request, not only its place: a filtered list numbers its entries differently.
  return requestBody(`journal-body-${serial}-${entry.at}-${entry.method}-${entry.path}`, text);
}

function caller(who: JournalEntry["caller"]): string {
  if (who === null) return "anonymous";
  return "tokenId" in who ? `token ${who.tokenId}` : `partner ${who.partnerId}`;
}
