// Rebuilds, newest first, each with its callback attempts (headers and body on demand) and, while
// it runs, the buttons that end it.
import type { DeliveryRecord, MockState, RebuildRecord } from "./control.js";
import { byId, type Child, h, headersAndBody, reconcile } from "./dom.js";
import { count, instant, linkable, pretty, SHOWN, timeOfDay } from "./format.js";
import { relative } from "./times.js";

/** More than this many are counted, not drawn. */

interface RebuildView {
  rebuild: RebuildRecord;
  attempts: DeliveryRecord[];
}

export function renderRebuilds(state: MockState): void {
  const { rebuilds, deliveries } = state.rebuild;
  const attempts = new Map<string, DeliveryRecord[]>();
  for (const delivery of deliveries) {
    const list = attempts.get(delivery.requestId) ?? [];
    list.push(delivery);
    attempts.set(delivery.requestId, list);
  }
  const views: RebuildView[] = rebuilds
    .slice(-SHOWN)
    .reverse()
    .map((rebuild) => ({ rebuild, attempts: attempts.get(rebuild.requestId) ?? [] }));
  byId("rebuilds-count").textContent =
    rebuilds.length > SHOWN
      ? `(the ${SHOWN} most recent of ${count(rebuilds.length)})`
      : `(${rebuilds.length})`;
  byId("rebuilds-empty").hidden = rebuilds.length > 0;
  reconcile(
    byId("rebuild-list"),
    views,
    (view) => view.rebuild.requestId,
    (view) => JSON.stringify(view),
    card,
    (view) => `rebuild-${view.rebuild.requestId}`,
  );
}

function card({ rebuild, attempts }: RebuildView): HTMLElement {
  const id = rebuild.requestId;
  const titleId = `rebuild-title-${id}`;
  const preview = rebuild.status === "success" ? linkable(rebuild.previewUrl) : undefined;
  return h(
    "article",
    {
      class: `card rebuild is-${rebuild.status}`,
      "aria-labelledby": titleId,
      tabindex: -1,
      "data-focus": `rebuild-${id}`,
    },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: `badge status-${rebuild.status}` }, rebuild.status),
      h("h3", { id: titleId, class: "url" }, rebuild.sourceUrl),
    ),
    h(
      "dl",
      { class: "facts" },
      fact("Partner", String(rebuild.partnerId)),
      fact(
        "Submitted",
        relative(rebuild.createdAt, "ago"),
        " (",
        timeOfDay(Date.parse(rebuild.createdAt)),
        ")",
      ),
      rebuild.completedAt && fact("Ended", relative(rebuild.completedAt, "ago")),
      fact("Request id", h("code", null, id)),
      fact("Project id", h("code", null, rebuild.projectId)),
      rebuild.prompt !== null && fact("Prompt", rebuild.prompt),
      rebuild.status === "success" &&
        fact(
          "Preview",
          preview
            ? h(
                "a",
                { href: preview, rel: "noreferrer noopener", target: "_blank" },
                rebuild.previewUrl ?? "",
              )
            : (rebuild.previewUrl ?? "none"),
        ),
      rebuild.status === "failed" &&
        fact("Error", [
          rebuild.errorCode ?? "no code",
          rebuild.errorMessage ? `: ${rebuild.errorMessage}` : "",
        ]),
    ),
    rebuild.status === "running" &&
      h(
        "div",
        { class: "row", role: "group", "aria-label": `End the rebuild of ${rebuild.sourceUrl}` },
        h(
          "button",
          {
            type: "button",
            "data-action": "complete",
            "data-outcome": "success",
            "data-request-id": id,
            "data-focus": `complete-${id}`,
            "aria-label": `Complete the rebuild of ${rebuild.sourceUrl}`,
          },
          "Complete",
        ),
        h(
          "button",
          {
            type: "button",
            class: "danger",
            "data-action": "complete",
            "data-outcome": "failed",
            "data-request-id": id,
            "data-focus": `fail-${id}`,
            "aria-label": `Fail the rebuild of ${rebuild.sourceUrl}`,
          },
          "Fail",
        ),
      ),
    h("h4", null, `Callback attempts (${attempts.length})`),
    attempts.length === 0
      ? h(
          "p",
          { class: "muted" },
          rebuild.status === "running" ? "Sent when the rebuild ends." : "None recorded.",
        )
      : h(
          "ol",
          { class: "attempts" },
          attempts.map((attempt) => attemptItem(attempt)),
        ),
  );
}

function attemptItem(attempt: DeliveryRecord): HTMLElement {
  const key = `attempt-${attempt.requestId}-${attempt.attempt}-${attempt.at}`;
  return h(
    "li",
    { class: "attempt" },
    h(
      "div",
      { class: "attempt-line" },
      receiverBadge(attempt.responseStatus, attempt.url),
      h("span", null, `Attempt ${attempt.attempt}`),
      h(
        "time",
        { datetime: attempt.at, title: instant(Date.parse(attempt.at)) },
        timeOfDay(Date.parse(attempt.at)),
      ),
      h("span", { class: "url" }, attempt.url ?? "no webhook URL configured"),
    ),
    headersAndBody(key, attempt.headers, pretty(attempt.body)),
  );
}

/** What the receiver answered: its status, or why there was none. */
function receiverBadge(status: number | null, url: string | null): HTMLElement {
  if (status === null) {
    return h("span", { class: "badge http-none" }, url === null ? "not sent" : "no answer");
  }
  const kind = status >= 200 && status < 300 ? "ok" : "bad";
  return h(
    "span",
    { class: `badge http-${kind}`, title: `The receiver answered ${status}` },
    `receiver ${status}`,
  );
}

function fact(term: string, ...value: Child[]): HTMLElement[] {
  return [h("dt", null, term), h("dd", null, ...value)];
}
