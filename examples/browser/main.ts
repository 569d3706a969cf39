// A page that uses the SDK against the mock running in its own service worker: no server behind it
// but Vite's static files. `npx tsx examples/browser/serve.ts` serves it.

import { startMockWorker } from "../../mocks/browser.js";
import { DashboardClient, RebuildClient } from "../../src/index.js";

// The worker must control the page before the first API request, or that request would reach the
// network (here: Vite, which knows no API). So nothing is clickable until it has started.
await startMockWorker({ quiet: true });

// The mock serves both APIs and its control API on the page's own origin; the credentials are the
// default seed's (README, "Default seed").
const origin = globalThis.location.origin;
const dashboard = new DashboardClient({ baseUrl: `${origin}/v1`, token: "mock-token-unrestricted" });
const rebuild = new RebuildClient({ baseUrl: origin, partnerId: 1001, apiKey: "mock-rebuild-key-1001" });

function byId<T extends HTMLElement>(id: string, type: abstract new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
}

const errorBox = byId("error", HTMLElement);

function showError(error: unknown): void {
  errorBox.textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Runs a button's action with the button disabled meanwhile, and shows what went wrong. */
function onClick(id: string, action: () => Promise<void>): HTMLButtonElement {
  const button = byId(id, HTMLButtonElement);
  button.addEventListener("click", async () => {
    button.disabled = true;
    errorBox.textContent = "";
    try {
      await action();
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

function fillList(id: string, lines: readonly string[]): void {
  byId(id, HTMLUListElement).replaceChildren(
    ...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })),
  );
}

/** A call to the mock's control API (`/__mock`), which exists only in the mock. */
async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${origin}/__mock${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} /__mock${path} answered ${response.status}`);
  return response.json();
}

const listServers = onClick("list-servers", async () => {
  const { totalCount, data } = await dashboard.servers.list();
  fillList("servers", [
    ...data.map((server) => `${server.address} (${server.product})`),
    `${totalCount} servers in total`,
  ]);
});

async function showTokens(): Promise<void> {
  // The list never carries secrets: only the response to `create` does.
  const { data } = await dashboard.apiTokens.list();
  fillList(
    "tokens",
    data.map((token) => {
      const claims = token.claims.map((claim) => claim.name).join(", ") || "unrestricted";
      return `#${token.id} ${token.name} [${claims}]`;
    }),
  );
}

const secretBox = byId("secret", HTMLElement);
const secretValue = byId("secret-value", HTMLElement);

const createToken = onClick("create-token", async () => {
  const created = await dashboard.apiTokens.create({
    name: "Browser example (read-only MCP)",
    claims: [{ name: "mcp", readonly: true }],
  });
  byId("secret-name", HTMLElement).textContent = created.name;
  secretValue.textContent = created.token;
  secretBox.hidden = false;
  await showTokens();
});

// Once dismissed, the secret is gone from the page for good: the API will not give it again.
onClick("secret-stored", async () => {
  secretValue.textContent = "";
  secretBox.hidden = true;
});

const sourceUrlInput = byId("source-url", HTMLInputElement);
const rebuildStatus = byId("rebuild-status", HTMLElement);
let submitted: { requestId: string; sourceUrl: string } | undefined;

async function showRebuild(sourceUrl: string): Promise<void> {
  // There is no status endpoint: resubmitting the same URL is idempotent and returns the rebuild as
  // it is now. A real partner learns the outcome from the callback instead.
  const current = await rebuild.submit({ sourceUrl });
  rebuildStatus.textContent = `Rebuild ${current.requestId}: ${current.status}`;
  const preview = byId("preview", HTMLElement);
  if (current.status === "success") {
    const link = Object.assign(document.createElement("a"), {
      href: current.previewUrl,
      textContent: current.previewUrl,
    });
    preview.replaceChildren("Preview: ", link);
  } else {
    preview.replaceChildren();
  }
}

const advanceClock = onClick("advance-clock", async () => {
  if (!submitted) return; // enabled only once a rebuild was submitted
  const { requestId, sourceUrl } = submitted;
  // Without this the rebuild still completes, after 5 real seconds; the mock's clock can skip ahead.
  await control("POST", "/clock/advance", { seconds: 5 });
  await showRebuild(sourceUrl);
  // Partner 1001's webhook URL is the mock's built-in sink, which keeps what it receives.
  const { data } = (await control("GET", "/webhook-sink/1001")) as { data: { body: unknown }[] };
  const callback = data
    .map((entry) => entry.body)
    .find((body) => (body as { request_id?: unknown } | null)?.request_id === requestId);
  byId("callback", HTMLElement).textContent =
    callback === undefined ? "none yet" : JSON.stringify(callback, null, 2);
});

const submitRebuild = onClick("submit-rebuild", async () => {
  const sourceUrl = sourceUrlInput.value;
  const result = await rebuild.submit({ sourceUrl });
  submitted = { requestId: result.requestId, sourceUrl };
  rebuildStatus.textContent = `Rebuild ${result.requestId}: ${result.status}${result.created ? "" : " (submitted before)"}`;
  advanceClock.disabled = false;
});

// The app's first request, made only now that the worker is there to answer it.
await showTokens().catch(showError);
for (const button of [listServers, createToken, submitRebuild]) button.disabled = false;
byId("mock-status", HTMLElement).textContent = "Mock service worker running.";
