// The mock console (decisions/032): reads the state when the event stream says it changed, draws
// it, and steers the mock through its control API. No framework, nothing from the network; every
// action is a button or a form, announced in the status line when it is done.
import { changesBetween, featureIs, newRebuildKey, rebuildIsNow } from "./announce.js";
import {
  type ChangedPath,
  ControlError,
  control,
  eventsUrl,
  type MockState,
  publicOperations,
} from "./control.js";
import { byId, trackDisclosures } from "./dom.js";
import { count, instant, offset, timeOfDay } from "./format.js";
import { fillOperationFilter, renderJournal } from "./journal.js";
import { describeFaults, renderInvitations, renderServers, renderSink, renderTokens } from "./lists.js";
import { fillPartnerForm, renderPartners } from "./partners.js";
import { renderRebuilds } from "./rebuilds.js";
import { followClock, mockNow, realDelayUntil, refreshTimes } from "./times.js";

let state: MockState | undefined;
let source: EventSource | undefined;
let live = false;
let slotTimer: ReturnType<typeof setTimeout> | undefined;

// ---- reading -------------------------------------------------------------------------------------

/**
 * A read that never runs twice at once: asked again while in flight, it runs once more afterwards,
 * so a burst of events costs at most two reads.
 */
function serial(read: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    do {
      again = false;
      try {
        await read();
      } catch (error) {
        problem(error);
      }
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

const readState = serial(async () => {
  const next = await control.state();
  followClock(next, performance.now());
  const said = changesBetween(state, next);
  state = next;
  draw(next);
  tell(said);
});

const readJournal = serial(async () => {
  const form = byId<HTMLFormElement>("journal-form");
  const filters = {
    operation: field(form, "operation"),
    status: field(form, "status"),
    body: field(form, "body"),
  };
  renderJournal(await control.journal(filters), Boolean(filters.operation || filters.status || filters.body));
});

const reads: Record<ChangedPath, () => void> = { "/state": readState, "/requests": readJournal };

function draw(next: MockState): void {
  byId("clock-offset").textContent = `${offset(next.clock.offsetMs)} · ${
    next.clock.frozen ? "frozen: moves only when advanced" : "follows real time"
  }`;
  renderRebuilds(next);
  renderPartners(next);
  renderSink(next);
  renderTokens(next);
  renderServers(next);
  renderInvitations(next);
  byId("faults-now").textContent = describeFaults(next.faults);
  if (!editing(byId("faults-form"))) {
    byId<HTMLInputElement>("faults-latency").value = String(next.faults.latencyMs);
    byId<HTMLInputElement>("faults-error").value = String(next.faults.errorRate);
    byId<HTMLInputElement>("faults-reset").value = String(next.faults.resetRate);
  }
  tick();
  wakeForNextSlot(next);
}

/**
 * A full rate window frees a slot at a known time without anything else changing: read the state
 * again then (once, not in a loop), so "30 of 30 used" does not stay on the page after it is over.
 */
function wakeForNextSlot(next: MockState): void {
  if (slotTimer !== undefined) clearTimeout(slotTimer);
  slotTimer = undefined;
  const slots = next.rebuild.rateLimits.flatMap((usage) =>
    usage.nextSlotAt === null ? [] : [Date.parse(usage.nextSlotAt)],
  );
  if (slots.length === 0) return;
  const delay = realDelayUntil(Math.min(...slots));
  if (delay !== undefined) slotTimer = setTimeout(readState, delay + 500);
}

/** The clock and every relative time follow the mock's clock between reads. */
function tick(): void {
  if (!state) return;
  const now = mockNow();
  const clock = byId<HTMLTimeElement>("clock-now");
  clock.dateTime = new Date(now).toISOString();
  clock.textContent = instant(now);
  refreshTimes(document);
}

// ---- the event stream ------------------------------------------------------------------------------

function connect(): void {
  source?.close();
  connection("connecting");
  const events = new EventSource(eventsUrl);
  source = events;
  events.addEventListener("open", () => connection("live"));
  events.addEventListener("change", (event) => {
    const { changed } = JSON.parse((event as MessageEvent<string>).data) as { changed: ChangedPath[] };
    for (const path of changed) reads[path]?.();
  });
  events.addEventListener("error", () => {
    // CLOSED: refused (too many streams, an origin not allowed) or not a stream; the browser gives up.
    connection(events.readyState === EventSource.CLOSED ? "stopped" : "reconnecting");
  });
}

function connection(now: "connecting" | "live" | "reconnecting" | "stopped"): void {
  live = now === "live";
  const pill = byId("connection");
  pill.dataset.state = now;
  pill.textContent = {
    connecting: "Connecting…",
    live: "Live",
    reconnecting: "Reconnecting…",
    stopped: "Live updates stopped",
  }[now];
  byId("reconnect").hidden = now !== "stopped";
}

// ---- actions ---------------------------------------------------------------------------------------

/** Runs an action with its button busy, says how it went, and reads again if no stream will tell. */
async function act(button: HTMLButtonElement | null, work: () => Promise<string>): Promise<void> {
  if (button?.getAttribute("aria-disabled") === "true") return;
  button?.setAttribute("aria-disabled", "true");
  try {
    said = { text: await work(), at: performance.now() };
    say(said.text);
    clearProblem();
  } catch (error) {
    problem(error);
  } finally {
    button?.removeAttribute("aria-disabled");
  }
  if (!live) {
    readState();
    readJournal();
  }
}

const actions: Record<string, (button: HTMLButtonElement) => Promise<string>> = {
  advance: async (button) => advance(Number(button.dataset.seconds)),
  complete: async (button) => {
    const outcome = button.dataset.outcome === "failed" ? "failed" : "success";
    const rebuild = await control.complete(button.dataset.requestId ?? "", outcome);
    return `${rebuildIsNow(rebuild.sourceUrl, rebuild.status)}.`;
  },
  rotate: async (button) => {
    const id = Number(button.dataset.partnerId);
    const { apiKey } = await control.rotateKey(id);
    return `${newRebuildKey(id)}: ${apiKey}. The old one is refused from now on.`;
  },
  feature: async (button) => {
    const id = Number(button.dataset.partnerId);
    const enable = button.dataset.enable === "true";
    await control.upsertPartner(id, { featureEnabled: enable });
    return `${featureIs(id, enable)}.`;
  },
  "edit-partner": async (button) => {
    const id = Number(button.dataset.partnerId);
    fillPartnerForm(state?.rebuild.partners.find((p) => p.id === id));
    byId("partner-webhook").focus();
    return `Editing partner ${id}.`;
  },
};

async function advance(seconds: number): Promise<string> {
  const { now } = await control.advance(seconds);
  return `The clock moved on ${count(seconds)} s: it is now ${instant(Date.parse(now))}.`;
}

function wire(): void {
  document.addEventListener("click", (event) => {
    const button =
      event.target instanceof Element ? event.target.closest<HTMLButtonElement>("button[data-action]") : null;
    const action = button ? actions[button.dataset.action ?? ""] : undefined;
    if (button && action) void act(button, () => action(button));
  });
  onSubmit("advance-form", (form) => advance(Number(field(form, "seconds"))));
  onSubmit("partner-form", async (form) => {
    const id = Number(field(form, "partnerId"));
    const webhookUrl = field(form, "webhookUrl");
    const region = field(form, "region");
    const limit = field(form, "rateLimitPerHour");
    await control.upsertPartner(id, {
      webhookUrl: webhookUrl === "" ? null : webhookUrl,
      featureEnabled: byId<HTMLInputElement>("partner-feature").checked,
      ...(region === "" ? {} : { region }),
      ...(limit === "" ? {} : { rateLimitPerHour: Number(limit) }),
    });
    return `Partner ${id} saved.`;
  });
  byId("partner-id").addEventListener("change", () => {
    const id = Number(byId<HTMLInputElement>("partner-id").value);
    fillPartnerForm(state?.rebuild.partners.find((p) => p.id === id));
  });
  onSubmit("faults-form", async (form) => {
    const faults = await control.setFaults({
      latencyMs: Number(field(form, "latencyMs") || 0),
      errorRate: Number(field(form, "errorRate") || 0),
      resetRate: Number(field(form, "resetRate") || 0),
    });
    delete form.dataset.dirty;
    return `Faults applied. ${describeFaults(faults)}`;
  });
  byId("faults-form").addEventListener("input", (event) => {
    (event.currentTarget as HTMLElement).dataset.dirty = "true";
  });
  byId("faults-clear").addEventListener("click", (event) => {
    const form = byId<HTMLFormElement>("faults-form");
    void act(event.currentTarget as HTMLButtonElement, async () => {
      await control.setFaults({ latencyMs: 0, errorRate: 0, resetRate: 0, rules: [] });
      delete form.dataset.dirty;
      return "No faults injected any more.";
    });
  });
  onSubmit("journal-form", async (form) => {
    readJournal();
    const operation = field(form, "operation");
    const status = field(form, "status");
    const body = field(form, "body");
    return operation || status || body
      ? `Showing requests${operation ? ` to ${operation}` : ""}${status ? ` answered ${status}` : ""}${body ? ` whose body contains ${body}` : ""}.`
      : "Showing every request.";
  });
  const confirm = byId("reset-confirm");
  byId("reset").addEventListener("click", () => {
    confirm.hidden = false;
    byId("reset-no").focus();
  });
  byId("reset-no").addEventListener("click", () => {
    confirm.hidden = true;
    byId("reset").focus();
  });
  byId("reset-yes").addEventListener("click", (event) => {
    void act(event.currentTarget as HTMLButtonElement, async () => {
      await control.reset();
      confirm.hidden = true;
      byId("reset").focus();
      return "The mock is back at its seed: rebuilds, deliveries, the sink and faults cleared, the clock at real time.";
    });
  });
  byId("reconnect").addEventListener("click", () => connect());
  byId("problem-dismiss").addEventListener("click", clearProblem);
}

function onSubmit(id: string, work: (form: HTMLFormElement) => Promise<string>): void {
  const form = byId<HTMLFormElement>(id);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void act(form.querySelector<HTMLButtonElement>("button[type=submit]"), () => work(form));
  });
}

function field(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** Someone is typing in the form: a redraw must not overwrite what they typed. */
function editing(form: HTMLElement): boolean {
  return form.dataset.dirty === "true" || form.contains(document.activeElement);
}

// ---- what the page says ----------------------------------------------------------------------------

/** What the last action said, and when: the change it made is not said a second time. */
let said: { text: string; at: number } | undefined;
const ECHO_MS = 3_000;

/** Says what changed; what the last action already said is left out, and the rest added to it. */
function tell(changes: readonly string[]): void {
  const recent = said && performance.now() - said.at < ECHO_MS ? said.text : undefined;
  const fresh = changes.filter((change) => !recent?.includes(change.replace(/\.$/, "")));
  if (fresh.length === 0) return;
  say(recent ? `${recent} ${fresh.join(" ")}` : fresh.join(" "));
}

function say(message: string): void {
  const time = state ? `${timeOfDay(mockNow())} ` : "";
  byId("status").textContent = `${time}${message}`;
}

function problem(error: unknown): void {
  byId("problem-text").textContent =
    error instanceof ControlError
      ? `The mock refused (${error.status}): ${error.message}`
      : `Could not reach the mock: ${error instanceof Error ? error.message : String(error)}`;
  byId("problem").hidden = false;
}

function clearProblem(): void {
  byId("problem").hidden = true;
}

// ---- start -----------------------------------------------------------------------------------------

byId("origin").textContent = location.origin;
fillOperationFilter(publicOperations);
trackDisclosures(document);
wire();
// Relative times ("12 s ago") follow the clock between reads; nothing is requested.
setInterval(tick, 1000);
// The stream's first event asks for everything, so nothing is read before it is open.
connect();
