import { describe, expect, it } from "vitest";
import { SdkError } from "../../../src/core/errors.js";
import {
  parseRebuildCallback,
  type RawWebhookBody,
  type RebuildCompletedCallback,
  type WebhookHeaders,
  WebhookPayloadError,
  WebhookVerificationError,
} from "../../../src/webhooks/index.js";
import { failed, succeeded, WEBHOOK_KEY } from "./fixtures.js";

const headers = { "x-api-key": WEBHOOK_KEY };

function parse(body: unknown, extra: Partial<{ headers: WebhookHeaders; webhookApiKey: string }> = {}) {
  return parseRebuildCallback({
    body: (typeof body === "string" ? body : JSON.stringify(body)) as RawWebhookBody,
    headers,
    webhookApiKey: WEBHOOK_KEY,
    ...extra,
  });
}

function caught(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

function payloadMessage(body: unknown): string {
  const error = caught(() => parse(body));
  expect(error).toBeInstanceOf(WebhookPayloadError);
  return error.message;
}

describe("parseRebuildCallback: accepted callbacks", () => {
  it("returns a success callback with wire field names", () => {
    const event: RebuildCompletedCallback = parse(succeeded);
    expect(event).toEqual(succeeded);
    if (event.status === "success") expect(event.preview_url).toBe(succeeded.preview_url);
  });

  it("returns a failed callback with and without error_code / error_message", () => {
    expect(parse(failed)).toEqual(failed);
    const { error_code: _code, error_message: _message, ...bare } = failed;
    const event = parse(bare);
    expect(event).toEqual(bare);
    expect("error_code" in event).toBe(false);
    expect(parse({ ...bare, error_code: "quota_exceeded" })).toEqual({
      ...bare,
      error_code: "quota_exceeded",
    });
  });

  it("tolerates unknown extra fields and leaves them out of the event", () => {
    const event = parse({ ...succeeded, attempt: 3, meta: { region: "eu" } });
    expect(event).toEqual(succeeded);
    expect(Object.keys(event)).not.toContain("attempt");
  });

  it.each<[string, RawWebhookBody]>([
    ["string", JSON.stringify(succeeded)],
    ["Uint8Array", new TextEncoder().encode(JSON.stringify(succeeded))],
    ["Buffer", Buffer.from(JSON.stringify(succeeded))],
    ["ArrayBuffer", new TextEncoder().encode(JSON.stringify(succeeded)).buffer],
    ["DataView", new DataView(new TextEncoder().encode(JSON.stringify(succeeded)).buffer)],
    [
      "UTF-8 with BOM",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(succeeded))]),
    ],
  ])("reads a %s body", (_kind, body) => {
    expect(parseRebuildCallback({ body, headers, webhookApiKey: WEBHOOK_KEY })).toEqual(succeeded);
  });

  it("keeps non-ASCII text intact", () => {
    const body = Buffer.from(JSON.stringify({ ...failed, error_message: "Échec: サイト 😀" }));
    const event = parseRebuildCallback({ body, headers, webhookApiKey: WEBHOOK_KEY });
    expect(event.status === "failed" && event.error_message).toBe("Échec: サイト 😀");
  });

  it.each<[string, WebhookHeaders]>([
    ["Headers", new Headers({ "X-API-Key": WEBHOOK_KEY })],
    ["plain object, lower case (node req.headers)", { "x-api-key": WEBHOOK_KEY, host: "a" }],
    ["plain object, mixed case", { "X-Api-KEY": WEBHOOK_KEY }],
    ["array with one value", { "x-api-key": [WEBHOOK_KEY] }],
    ["array repeating one value", { "x-api-key": [WEBHOOK_KEY, WEBHOOK_KEY] }],
    ["two spellings with the same value", { "X-API-Key": WEBHOOK_KEY, "x-api-key": WEBHOOK_KEY }],
    ["undefined entries next to the key", { "x-api-key": WEBHOOK_KEY, "X-API-KEY": undefined }],
  ])("finds the key in %s", (_kind, given) => {
    expect(parse(succeeded, { headers: given })).toEqual(succeeded);
  });
});

describe("parseRebuildCallback: verification", () => {
  it.each<[string, WebhookHeaders, string]>([
    ["no header", {}, "missing X-API-Key header"],
    ["an empty header", { "x-api-key": "" }, "missing X-API-Key header"],
    ["an empty Headers value", new Headers({ "x-api-key": "" }), "missing X-API-Key header"],
    ["an empty array", { "x-api-key": [] }, "missing X-API-Key header"],
    ["a wrong key", { "x-api-key": "whk_wrong" }, "X-API-Key does not match the configured webhook API key"],
    [
      "a wrong key of the same length",
      { "x-api-key": `${WEBHOOK_KEY.slice(0, -1)}x` },
      "X-API-Key does not match the configured webhook API key",
    ],
    [
      "a prefix of the key",
      { "x-api-key": WEBHOOK_KEY.slice(0, 8) },
      "X-API-Key does not match the configured webhook API key",
    ],
    [
      "the key plus more",
      { "x-api-key": `${WEBHOOK_KEY}0` },
      "X-API-Key does not match the configured webhook API key",
    ],
    [
      "the key in another case",
      { "x-api-key": WEBHOOK_KEY.toUpperCase() },
      "X-API-Key does not match the configured webhook API key",
    ],
    [
      "Headers carrying the key twice (joined)",
      new Headers([
        ["x-api-key", WEBHOOK_KEY],
        ["x-api-key", WEBHOOK_KEY],
      ]),
      "X-API-Key does not match the configured webhook API key",
    ],
    [
      "an array of different values",
      { "x-api-key": [WEBHOOK_KEY, "other"] },
      "X-API-Key header has several different values",
    ],
    [
      "two spellings with different values",
      { "X-API-Key": WEBHOOK_KEY, "x-api-key": "other" },
      "X-API-Key header has several different values",
    ],
  ])("rejects %s", (_kind, given, message) => {
    const error = caught(() => parse(succeeded, { headers: given }));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.name).toBe("WebhookVerificationError");
    expect(error.message).toBe(message);
  });

  it("verifies the key before looking at the body", () => {
    expect(caught(() => parse("not json", { headers: { "x-api-key": "nope" } }))).toBeInstanceOf(
      WebhookVerificationError,
    );
    expect(caught(() => parse({ anything: true }, { headers: {} }))).toBeInstanceOf(WebhookVerificationError);
  });

  it.each([[""], [undefined], [42], ["whk_key\n"], [" whk_key"], ["whk_кey"], ["whk\u0000key"]])(
    "refuses a configured key of %j with a TypeError, as the clients refuse such an apiKey",
    (webhookApiKey) => {
      const error = caught(() => parse(succeeded, { webhookApiKey: webhookApiKey as string }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe(
        "parseRebuildCallback: webhookApiKey must be a non-empty header value without surrounding whitespace",
      );
    },
  );
});

describe("parseRebuildCallback: body errors", () => {
  it("refuses an already parsed body and says to pass the raw body", () => {
    const error = caught(() =>
      parseRebuildCallback({ body: succeeded as unknown as string, headers, webhookApiKey: WEBHOOK_KEY }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error.message).toContain("body is already parsed; pass the raw request body");
    expect(error.message).toContain('express.raw({ type: "application/json" })');
  });

  it.each([[null], [undefined]])("refuses a %j body", (body) => {
    const error = caught(() =>
      parseRebuildCallback({ body: body as unknown as string, headers, webhookApiKey: WEBHOOK_KEY }),
    );
    expect(error.message).toBe(
      "invalid rebuild callback: body is missing; pass the raw request body (a string or bytes)",
    );
  });

  it("refuses bytes that are not UTF-8", () => {
    const body = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    const error = caught(() => parseRebuildCallback({ body, headers, webhookApiKey: WEBHOOK_KEY }));
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error.message).toBe("invalid rebuild callback: body is not valid UTF-8");
  });

  it("refuses invalid JSON and keeps the syntax error as cause", () => {
    const error = caught(() => parse("{ not json"));
    expect(error.message).toBe("invalid rebuild callback: body is not valid JSON");
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect((error as WebhookPayloadError).issues).toEqual([{ path: "", message: "body is not valid JSON" }]);
  });

  it.each([
    ["", "invalid rebuild callback: body is empty"],
    ["  \n", "invalid rebuild callback: body is empty"],
    ["[]", "invalid rebuild callback: body must be a JSON object"],
    ["null", "invalid rebuild callback: body must be a JSON object"],
    ["42", "invalid rebuild callback: body must be a JSON object"],
    ['"text"', "invalid rebuild callback: body must be a JSON object"],
  ])("refuses body %j", (body, message) => {
    expect(payloadMessage(body)).toBe(message);
  });

  it("rejects an unknown event_type and names it", () => {
    expect(payloadMessage({ ...succeeded, event_type: "partner_project_deleted" })).toBe(
      'invalid rebuild callback: event_type: unknown event type "partner_project_deleted"; only "partner_project_rebuild_completed" is supported',
    );
    const long = payloadMessage({ event_type: "x".repeat(500) });
    expect(long).toContain(`"${"x".repeat(56)}...`);
    expect(long.length).toBeLessThan(200);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["success without preview_url", { ...succeeded, preview_url: undefined }, "preview_url: required"],
    ["relative preview_url", { ...succeeded, preview_url: "/preview/1" }, "preview_url: must be a valid uri"],
    [
      "preview_url with a space",
      { ...succeeded, preview_url: "https://a b/" },
      "preview_url: must be a valid uri",
    ],
    ["numeric preview_url", { ...succeeded, preview_url: 5 }, "preview_url: expected string, got integer"],
    ["missing status", { ...succeeded, status: undefined }, "status: required"],
    ["running status", { ...succeeded, status: "running" }, 'status: expected "success" or "failed"'],
    ["numeric status", { ...succeeded, status: 1 }, 'status: expected "success" or "failed"'],
    ["missing event_type", { ...succeeded, event_type: undefined }, "event_type: required"],
    ["numeric event_type", { ...succeeded, event_type: 7 }, "event_type: expected string, got integer"],
    ["missing request_id", { ...succeeded, request_id: undefined }, "request_id: required"],
    ["null source_url", { ...failed, source_url: null }, "source_url: expected string, got null"],
    ["fractional partner_id", { ...succeeded, partner_id: 1.5 }, "partner_id: expected integer, got number"],
    ["string partner_id", { ...succeeded, partner_id: "1001" }, "partner_id: expected integer, got string"],
    [
      "a partner_id beyond 2^53 (JSON.parse would round it)",
      { ...succeeded, partner_id: 2 ** 60 },
      "partner_id: must be within ±(2^53 - 1): JSON numbers beyond lose digits",
    ],
    ["numeric error_code", { ...failed, error_code: 500 }, "error_code: expected string, got integer"],
    ["error_code on success", { ...succeeded, error_code: "process_failed" }, "error_code: not allowed"],
    [
      "preview_url on failure",
      { ...failed, preview_url: "https://p.example.com/" },
      "preview_url: not allowed",
    ],
  ])("rejects %s", (_kind, body, message) => {
    expect(payloadMessage(body)).toBe(`invalid rebuild callback: ${message}`);
  });

  // The contract's schema says what is valid, not this receiver: whatever it accepts is accepted.
  it.each<[string, Record<string, unknown>]>([
    ["partner_id 0", { ...succeeded, partner_id: 0 }],
    ["a negative partner_id", { ...succeeded, partner_id: -4 }],
    ["an ftp: preview_url", { ...succeeded, preview_url: "ftp://files.example.com/site.zip" }],
    ["an empty request_id", { ...succeeded, request_id: "" }],
    ["an empty project_id and source_url", { ...failed, project_id: "", source_url: "" }],
    ["an error_code nobody announced", { ...failed, error_code: "quota_exceeded" }],
  ])("accepts %s, as the contract's schema does", (_kind, body) => {
    expect(parse(body)).toEqual(body);
  });

  it("lists every issue, in the message and as issues", () => {
    const error = caught(() =>
      parse({ ...succeeded, preview_url: undefined, partner_id: "x" }),
    ) as WebhookPayloadError;
    expect(error.issues).toEqual([
      { path: "partner_id", message: "expected integer, got string" },
      { path: "preview_url", message: "required" },
    ]);
    expect(error.message).toBe(
      "invalid rebuild callback: partner_id: expected integer, got string; preview_url: required",
    );
  });
});
