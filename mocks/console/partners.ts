// Partners: the feature flag, the webhook, the keys (with rotation), the region and the rate limit
// as the next request would meet it ("3 of 30 used, next slot now"), all from the state.
import type { MockState, PartnerSettings } from "./control.js";
import { byId, h, reconcile } from "./dom.js";
import { relative } from "./times.js";

type RateLimitUsage = MockState["rebuild"]["rateLimits"][number];

interface PartnerView {
  partner: PartnerSettings;
  usage: RateLimitUsage | undefined;
}

export function renderPartners(state: MockState): void {
  const usage = new Map(state.rebuild.rateLimits.map((entry) => [entry.partnerId, entry]));
  const views = state.rebuild.partners.map((partner) => ({ partner, usage: usage.get(partner.id) }));
  reconcile(
    byId("partner-rows"),
    views,
    (view) => String(view.partner.id),
    (view) => JSON.stringify(view),
    row,
  );
  const ids = byId("partner-ids");
  ids.replaceChildren(...views.map(({ partner }) => h("option", { value: partner.id })));
}

function row({ partner, usage }: PartnerView): HTMLTableRowElement {
  const id = partner.id;
  return h(
    "tr",
    null,
    h(
      "th",
      { scope: "row" },
      h("span", { class: "partner-id" }, String(id)),
      h(
        "button",
        {
          type: "button",
          class: "small",
          "data-action": "edit-partner",
          "data-partner-id": id,
          "data-focus": `edit-${id}`,
          "aria-label": `Edit partner ${id}`,
        },
        "Edit",
      ),
    ),
    h(
      "td",
      null,
      h(
        "span",
        { class: `badge ${partner.featureEnabled ? "status-success" : "status-off"}` },
        partner.featureEnabled ? "enabled" : "disabled",
      ),
      h(
        "button",
        {
          type: "button",
          class: "small",
          "data-action": "feature",
          "data-partner-id": id,
          "data-enable": partner.featureEnabled ? "false" : "true",
          "data-focus": `feature-${id}`,
          "aria-label": `${partner.featureEnabled ? "Disable" : "Enable"} the rebuild feature of partner ${id}`,
        },
        partner.featureEnabled ? "Disable" : "Enable",
      ),
    ),
    h(
      "td",
      null,
      partner.webhookUrl === null
        ? h("span", { class: "muted" }, "none: submissions get 422")
        : h("span", { class: "url" }, partner.webhookUrl),
      h("div", { class: "muted small-text" }, "key ", h("code", null, partner.webhookApiKey ?? "none")),
    ),
    h(
      "td",
      null,
      h("code", { class: "key" }, partner.apiKey),
      h(
        "button",
        {
          type: "button",
          class: "small",
          "data-action": "rotate",
          "data-partner-id": id,
          "data-focus": `rotate-${id}`,
          "aria-label": `Rotate the rebuild API key of partner ${id}`,
        },
        "Rotate key",
      ),
    ),
    h("td", null, partner.region),
    h("td", { class: "rate" }, usage ? rate(usage) : `${partner.rateLimitPerHour} per hour`),
  );
}

function rate(usage: RateLimitUsage): HTMLElement {
  const full = usage.nextSlotAt !== null;
  return h(
    "div",
    { class: full ? "rate-full" : undefined },
    h("meter", { min: 0, max: usage.limit, value: usage.used, "aria-hidden": "true" }),
    h(
      "span",
      null,
      `${usage.used} of ${usage.limit} used, next slot `,
      usage.nextSlotAt === null ? "now" : relative(usage.nextSlotAt, "until"),
    ),
  );
}

/** Fills the partner form with a partner's settings (the form is the page's, not redrawn). */
export function fillPartnerForm(partner: PartnerSettings | undefined): void {
  if (!partner) return;
  byId<HTMLInputElement>("partner-id").value = String(partner.id);
  byId<HTMLInputElement>("partner-webhook").value = partner.webhookUrl ?? "";
  byId<HTMLInputElement>("partner-region").value = partner.region;
  byId<HTMLInputElement>("partner-limit").value = String(partner.rateLimitPerHour);
  byId<HTMLInputElement>("partner-feature").checked = partner.featureEnabled;
}
