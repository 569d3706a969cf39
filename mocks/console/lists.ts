// The rest of the state: what the webhook sink received, tokens (never a secret: the state has
// none), servers, invitations, and the faults injected now.
import type { Faults, MockState, SinkEntry } from "./control.js";
import { byId, h, headersAndBody, reconcile } from "./dom.js";
import { count, instant, percent, pretty, SHOWN, timeOfDay } from "./format.js";
import { mockNow, relative } from "./times.js";

type Schemas = MockState["dashboard"];
type Token = Schemas["tokens"][number];
type Server = Schemas["servers"][number];
type Invitation = Schemas["invitations"][number];

interface SinkView {
  partnerId: string;
  index: number;
  entry: SinkEntry;
}

export function renderSink(state: MockState): void {
  const views: SinkView[] = [];
  for (const [partnerId, entries] of Object.entries(state.rebuild.sink)) {
    for (const [index, entry] of entries.entries()) views.push({ partnerId, index, entry });
  }
  views.sort((a, b) => Date.parse(b.entry.at) - Date.parse(a.entry.at) || b.index - a.index);
  byId("sink-empty").hidden = views.length > 0;
  reconcile(
    byId("sink-list"),
    views.slice(0, SHOWN),
    (view) => `${view.partnerId}-${view.index}`,
    (view) => JSON.stringify(view),
    sinkCard,
  );
}

function sinkCard({ partnerId, index, entry }: SinkView): HTMLElement {
  const at = Date.parse(entry.at);
  return h(
    "article",
    { class: "card sink-entry", "aria-label": `Received for partner ${partnerId} at ${instant(at)}` },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "badge" }, `partner ${partnerId}`),
      h("time", { datetime: entry.at, title: instant(at) }, timeOfDay(at)),
      h("span", { class: "summary" }, summary(entry.body)),
    ),
    headersAndBody(
      `sink-${partnerId}-${index}-${entry.at}`,
      entry.headers,
      entry.body === null ? "(empty)" : pretty(entry.body),
    ),
  );
}

/** One line about a body: a callback's status and rebuild, or the start of anything else. */
function summary(body: unknown): string {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const { event_type: type, status, request_id: requestId } = body as Record<string, unknown>;
    if (typeof type === "string" && typeof status === "string") {
      return `${type}: ${status}${typeof requestId === "string" ? `, request ${requestId}` : ""}`;
    }
  }
  const text = body === null ? "(empty body)" : pretty(body).replace(/\s+/g, " ");
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

export function renderTokens(state: MockState): void {
  const { tokens } = state.dashboard;
  byId("tokens-count").textContent = `(${count(tokens.length)})`;
  reconcile(
    byId("token-rows"),
    tokens,
    (t) => String(t.id),
    (t) => JSON.stringify(t),
    tokenRow,
  );
}

function tokenRow(token: Token): HTMLTableRowElement {
  const expired = token.expireAt !== null && Date.parse(token.expireAt) <= mockNow();
  return h(
    "tr",
    null,
    h("td", null, String(token.id)),
    h("th", { scope: "row" }, token.name),
    h("td", { class: "nowrap" }, `user ${token.userId}`),
    h(
      "td",
      null,
      token.claims.length === 0 ? h("span", { class: "muted" }, "none: may call everything") : claims(token),
    ),
    h("td", null, h("time", { datetime: token.createdAt }, instant(Date.parse(token.createdAt)))),
    h(
      "td",
      null,
      token.lastUsedAt === null ? h("span", { class: "muted" }, "never") : relative(token.lastUsedAt, "ago"),
    ),
    h(
      "td",
      null,
      token.expireAt === null
        ? h("span", { class: "muted" }, "never")
        : [
            h("time", { datetime: token.expireAt }, instant(Date.parse(token.expireAt))),
            expired && h("span", { class: "badge status-failed" }, "expired"),
          ],
    ),
  );
}

function claims(token: Token): HTMLElement {
  return h(
    "ul",
    { class: "plain" },
    token.claims.map((claim) => {
      const scope =
        claim.name === "mcp"
          ? [
              claim.attributes.serverGuid ? ` on server ${claim.attributes.serverGuid}` : " on every server",
              claim.attributes.panelUser ? ` as ${claim.attributes.panelUser}` : "",
            ].join("")
          : "";
      return h("li", null, h("code", null, claim.name), claim.readonly ? " (read-only)" : "", scope);
    }),
  );
}

export function renderServers(state: MockState): void {
  const { servers } = state.dashboard;
  byId("servers-count").textContent = `(${count(servers.length)})`;
  reconcile(
    byId("server-rows"),
    servers,
    (s) => s.guid,
    (s) => JSON.stringify(s),
    serverRow,
  );
}

function serverRow(server: Server): HTMLTableRowElement {
  return h(
    "tr",
    null,
    h("td", { class: "nowrap" }, server.team),
    h("td", null, h("code", null, server.guid)),
    h("td", null, server.product),
    h("th", { scope: "row", class: "url" }, server.address),
    h("td", null, server.active ? "yes" : "no"),
  );
}

export function renderInvitations(state: MockState): void {
  const { invitations, dropped } = state.dashboard;
  const views = invitations.map((invitation, index) => ({ invitation, index })).reverse();
  byId("invitations-count").textContent =
    dropped.invitations > 0
      ? `(${count(invitations.length)}, ${count(dropped.invitations)} older let go)`
      : `(${count(invitations.length)})`;
  byId("invitations-empty").hidden = invitations.length > 0;
  reconcile(
    byId("invitation-rows"),
    views.slice(0, SHOWN),
    (view) => `${view.index}-${view.invitation.sentAt}-${view.invitation.email}`,
    (view) => JSON.stringify(view),
    ({ invitation }: { invitation: Invitation }) =>
      h(
        "tr",
        null,
        h("th", { scope: "row" }, invitation.email),
        h("td", null, invitation.team),
        h("td", { class: "nowrap" }, `user ${invitation.invitedByUserId}`),
        h("td", null, relative(invitation.sentAt, "ago")),
      ),
  );
}

/** The faults in words: what a request to either API may meet now, and the scripted rules pending. */
export function describeFaults(faults: Faults): string {
  const parts = [
    faults.latencyMs > 0 && `${count(faults.latencyMs)} ms of latency`,
    faults.errorRate > 0 && `${percent(faults.errorRate)} answered 503`,
    faults.resetRate > 0 && `${percent(faults.resetRate)} of connections dropped`,
  ].filter((part): part is string => typeof part === "string");
  const rules = faults.rules.map((rule) => {
    const times = rule.times ?? 1;
    const what = [
      rule.status !== undefined && `answered ${rule.status}`,
      rule.reset === true && "connection dropped",
      rule.latencyMs !== undefined && `${count(rule.latencyMs)} ms of latency`,
    ].filter((part): part is string => typeof part === "string");
    return `the next ${times === 1 ? "call" : `${count(times)} calls`} of ${rule.operationId}: ${what.join(", ")}`;
  });
  const now = parts.length === 0 ? "" : `Now: ${parts.join(", ")}.`;
  const scripted = rules.length === 0 ? "" : `Scripted: ${rules.join("; ")}.`;
  return [now, scripted].filter(Boolean).join(" ") || "No faults injected: both APIs answer normally.";
}
