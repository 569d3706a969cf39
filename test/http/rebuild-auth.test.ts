// contract-decisions, Partner site rebuild API, checks 1, 2 and 5: credentials (401), the feature
// flag (403 FEATURE_NOT_ENABLED) and webhooks configured (422 WEBHOOKS_NOT_CONFIGURED).
import { describe, expect, it } from "vitest";
import { PARTNER } from "../support/default-seed.js";
import { REBUILDS_PATH, type RebuildAuth, rebuildHeaders, submitRebuild } from "./support/client.js";
import { expectError, NO_RATE_LIMIT_HEADERS, rateLimitOf } from "./support/expectations.js";
import { useMswMock } from "./support/harness.js";

const { call, control } = useMswMock();
const VALID = { sourceUrl: "https://www.example.com/" };

describe("authentication: missing or malformed X-Partner-Id, unknown partner, missing or wrong X-API-Key → 401", () => {
  it.each<[string, RebuildAuth]>([
    ["no X-Partner-Id", { partnerId: null }],
    ["an empty X-Partner-Id", { partnerId: "" }],
    ["a leading zero", { partnerId: "01001" }],
    ["a sign", { partnerId: "+1001" }],
    ["a decimal point", { partnerId: "1001.0" }],
    ["an exponent", { partnerId: "1.001e3" }],
    ["hex", { partnerId: "0x3e9" }],
    ["zero", { partnerId: "0" }],
    ["a negative id", { partnerId: "-1001" }],
    ["letters", { partnerId: "partner-1001" }],
    ["two values", { partnerId: "1001, 1001" }],
    ["beyond safe integers", { partnerId: "9007199254740993" }],
    ["an unknown partner", { partnerId: "4242" }],
    ["no X-API-Key", { apiKey: null }],
    ["an empty X-API-Key", { apiKey: "" }],
    ["a wrong key", { apiKey: "mock-rebuild-key-1000" }],
    ["the key in another case", { apiKey: PARTNER.ok.apiKey.toUpperCase() }],
    ["the key with a suffix", { apiKey: `${PARTNER.ok.apiKey}x` }],
    ["a prefix of the key", { apiKey: PARTNER.ok.apiKey.slice(0, -1) }],
    ["another partner's key", { apiKey: PARTNER.disabled.apiKey }],
    ["the partner's webhook API key", { apiKey: PARTNER.ok.webhookApiKey }],
    ["no headers at all", { partnerId: null, apiKey: null }],
  ])("%s", async (_, auth) => {
    const answer = await submitRebuild(call, VALID, auth);
    expectError(answer, 401, "UNAUTHORIZED");
    expect(rateLimitOf(answer)).toEqual(NO_RATE_LIMIT_HEADERS);
  });

  it("the key is read only from the header, never from the query string", async () => {
    const answer = await call({
      method: "POST",
      path: `${REBUILDS_PATH}?apiKey=${PARTNER.ok.apiKey}&x-api-key=${PARTNER.ok.apiKey}`,
      headers: rebuildHeaders({ apiKey: null }),
      json: VALID,
    });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("header names are case-insensitive; valid credentials pass", async () => {
    const answer = await call({
      method: "POST",
      path: REBUILDS_PATH,
      headers: { "X-PARTNER-ID": PARTNER.ok.id, "x-Api-Key": PARTNER.ok.apiKey },
      json: VALID,
    });
    expect(answer.status).toBe(202);
  });

  it("401 answers count nothing toward the rate limit", async () => {
    for (let i = 0; i < 5; i++) await submitRebuild(call, VALID, { apiKey: "wrong" });
    expect(rateLimitOf(await submitRebuild(call, VALID)).remaining).toBe(29);
  });
});

describe("feature flag: a partner without the feature gets 403 FEATURE_NOT_ENABLED", () => {
  const disabled = { partnerId: PARTNER.disabled.id, apiKey: PARTNER.disabled.apiKey };

  it("with valid credentials, whatever the body, and without RateLimit headers", async () => {
    for (const body of [VALID, {}, []]) {
      const answer = await submitRebuild(call, body, disabled);
      expectError(answer, 403, "FEATURE_NOT_ENABLED");
      expect(rateLimitOf(answer)).toEqual(NO_RATE_LIMIT_HEADERS);
    }
  });

  it("turning the feature on or off takes effect on the next request", async () => {
    await control.putPartner(PARTNER.disabled.id, { featureEnabled: true });
    expect((await submitRebuild(call, VALID, disabled)).status).toBe(202);
    await control.putPartner(PARTNER.ok.id, { featureEnabled: false });
    expectError(await submitRebuild(call, VALID), 403, "FEATURE_NOT_ENABLED");
  });

  it("403 answers count nothing toward the rate limit", async () => {
    for (let i = 0; i < 3; i++) await submitRebuild(call, VALID, disabled);
    await control.putPartner(PARTNER.disabled.id, { featureEnabled: true });
    expect(rateLimitOf(await submitRebuild(call, VALID, disabled)).remaining).toBe(29);
  });
});

describe("webhooks not configured (URL or webhook key missing): 422 WEBHOOKS_NOT_CONFIGURED", () => {
  it("partner 1003 has neither; its valid submissions get 422 with RateLimit headers and start nothing", async () => {
    const answer = await submitRebuild(call, VALID, {
      partnerId: PARTNER.noWebhooks.id,
      apiKey: PARTNER.noWebhooks.apiKey,
    });
    expectError(answer, 422, "WEBHOOKS_NOT_CONFIGURED");
    expect(rateLimitOf(answer)).toEqual({ limit: 30, remaining: 29, reset: 3600 });
    expect((await control.state()).rebuild.rebuilds).toEqual([]);
  });

  it.each([
    ["the webhook URL", { webhookUrl: null }],
    ["the webhook API key", { webhookApiKey: null }],
  ])("removing %s is enough for 422", async (_, patch) => {
    await control.putPartner(PARTNER.ok.id, patch);
    expectError(await submitRebuild(call, VALID), 422, "WEBHOOKS_NOT_CONFIGURED");
  });

  it("configuring both makes submissions work", async () => {
    await control.putPartner(PARTNER.noWebhooks.id, {
      webhookUrl: "{origin}/__mock/webhook-sink/1003",
      webhookApiKey: "webhook-key-1003",
    });
    const answer = await submitRebuild(call, VALID, {
      partnerId: PARTNER.noWebhooks.id,
      apiKey: PARTNER.noWebhooks.apiKey,
    });
    expect(answer.status).toBe(202);
  });
});
