import { type FieldError, validationFailed } from "../errors.js";
import type { Random } from "../random.js";
import { codePointLength, isJsonObject, jsonType } from "../validation/json-input.js";
import { parseBrands } from "./brands.js";
import { httpUrlProblem } from "./http-url.js";
import { generateKey } from "./secrets.js";
import type { PartnerSettings } from "./types.js";

const DEFAULT_REGION = "eu";
const DEFAULT_RATE_LIMIT_PER_HOUR = 30;
// Bounds the memory of a partner's rate window, which holds one timestamp per counted request.
const MAX_RATE_LIMIT_PER_HOUR = 1_000_000;
const MAX_KEY_LENGTH = 256;
// Keys travel in a header, so they are visible ASCII without spaces.
const KEY_TEXT = /^[\x21-\x7e]+$/;
const REGION = /^[a-z][a-z0-9-]{0,31}$/;
const PARTNER_ID = /^[1-9][0-9]*$/;

/** The placeholder a seed or a control request may write for the mock's own origin. */
const ORIGIN_PLACEHOLDER = "{origin}";

/**
 * A partner id given as a positive integer: a JSON number, or a digit string without a leading zero
 * (the form of the `X-Partner-Id` header). Undefined for anything else.
 */
export function parsePartnerId(value: unknown): number | undefined {
  if (typeof value === "string") {
    if (!PARTNER_ID.test(value)) return undefined;
    value = Number(value);
  }
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function builtInSinkUrl(origin: string, partnerId: number): string {
  return `${origin.replace(/\/+$/, "")}/__mock/webhook-sink/${partnerId}`;
}

/** Settings of a partner created by the control API: feature on, generated keys, the built-in sink. */
export function defaultPartner(id: number, random: Random, origin: string): PartnerSettings {
  const apiKey = generateKey(random, "rk");
  return {
    id,
    featureEnabled: true,
    apiKey,
    webhookUrl: builtInSinkUrl(origin, id),
    webhookApiKey: generateKey(random, "wk"),
    region: DEFAULT_REGION,
    rateLimitPerHour: DEFAULT_RATE_LIMIT_PER_HOUR,
    brands: [],
  };
}

/**
 * `current` with the fields of `patch` applied, or VALIDATION_FAILED listing every problem. `patch`
 * is a parsed JSON object holding any of `featureEnabled`, `apiKey`, `webhookUrl` (string or null;
 * `{origin}` is replaced by the mock's origin), `webhookApiKey` (string or null), `region`,
 * `rateLimitPerHour` (integer ≥ 1) and `brands`; undefined (an empty body) changes nothing. The
 * rebuild key and the webhook key must differ.
 */
export function applyPartnerPatch(current: PartnerSettings, patch: unknown, origin: string): PartnerSettings {
  if (patch === undefined) return current;
  if (!isJsonObject(patch)) {
    throw validationFailed([
      { type: "invalid_type", path: "", message: `Body must be a JSON object, got ${jsonType(patch)}` },
    ]);
  }
  const errors: FieldError[] = [];
  const next: PartnerSettings = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    const fail = (type: FieldError["type"], message: string) => errors.push({ type, path: field, message });
    switch (field) {
      case "featureEnabled":
        if (typeof value === "boolean") next.featureEnabled = value;
        else fail("invalid_type", `must be a boolean, got ${jsonType(value)}`);
        break;
      case "apiKey":
      case "webhookApiKey": {
        if (value === null && field === "webhookApiKey") {
          next.webhookApiKey = null;
          break;
        }
        const problem = keyProblem(value);
        if (problem) fail(problem.type, problem.message);
        else next[field] = String(value);
        break;
      }
      case "webhookUrl": {
        if (value === null) {
          next.webhookUrl = null;
        } else if (typeof value !== "string") {
          fail("invalid_type", `must be a string or null, got ${jsonType(value)}`);
        } else {
          const url = value.replaceAll(ORIGIN_PLACEHOLDER, origin.replace(/\/+$/, ""));
          const problem = httpUrlProblem(url);
          if (problem) fail("invalid_format", problem);
          else next.webhookUrl = url;
        }
        break;
      }
      case "region":
        if (typeof value !== "string") fail("invalid_type", `must be a string, got ${jsonType(value)}`);
        else if (!REGION.test(value)) fail("invalid_format", "must be a lower-case region code such as eu");
        else next.region = value;
        break;
      case "rateLimitPerHour":
        if (typeof value !== "number" || !Number.isInteger(value)) {
          fail("invalid_type", `must be an integer, got ${jsonType(value)}`);
        } else if (value < 1) {
          fail("too_small", "must be at least 1");
        } else if (value > MAX_RATE_LIMIT_PER_HOUR) {
          fail("too_big", `must be at most ${MAX_RATE_LIMIT_PER_HOUR}`);
        } else {
          next.rateLimitPerHour = value;
        }
        break;
      case "brands": {
        const brands = parseBrands(value, errors);
        if (brands) next.brands = brands;
        break;
      }
      default:
        fail("unknown_field", "is not a partner setting");
    }
  }
  if (errors.length === 0 && next.apiKey === next.webhookApiKey) {
    errors.push({
      type: "invalid_value",
      path: "webhookApiKey" in patch ? "webhookApiKey" : "apiKey",
      message: "the rebuild API key and the webhook API key must differ",
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return next;
}

function keyProblem(value: unknown): Pick<FieldError, "type" | "message"> | undefined {
  if (typeof value !== "string")
    return { type: "invalid_type", message: `must be a string, got ${jsonType(value)}` };
  if (value === "") return { type: "too_small", message: "must not be empty" };
  if (codePointLength(value) > MAX_KEY_LENGTH) {
    return { type: "too_big", message: `must be at most ${MAX_KEY_LENGTH} characters` };
  }
  if (!KEY_TEXT.test(value))
    return { type: "invalid_format", message: "must be visible ASCII without spaces" };
  return undefined;
}
