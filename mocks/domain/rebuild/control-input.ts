import { type FieldError, validationFailed } from "../errors.js";
import { codePointLength, isJsonObject, jsonType } from "../validation/json-input.js";
import { parsePartnerId } from "./partner-settings.js";

/** How the control API ends a running rebuild. */
export interface CompletionInput {
  /** Default `success`. */
  status: "success" | "failed";
  /** Failed only. Omitted: `process_failed`; null: the callback carries no `error_code`. */
  errorCode?: string | null;
  /** Failed only. Omitted: a default text; null: the callback carries no `error_message`. */
  errorMessage?: string | null;
}

export interface MagicLinkInput {
  partnerId: number;
  /** Checked only when the link is opened: a malformed token is ignored, never an error. */
  promptToken: string;
  customerId: string;
}

const MAX_ID_LENGTH = 256;
const MAX_ERROR_TEXT_LENGTH = 1000;

/**
 * Reads the body of `POST /__mock/rebuilds/{requestId}/complete`: `{ status?, errorCode?,
 * errorMessage? }`; an empty body means `{ status: "success" }`.
 */
export function parseCompletion(body: unknown): CompletionInput {
  const errors: FieldError[] = [];
  const fields = objectBody(body === undefined ? {} : body, ["status", "errorCode", "errorMessage"], errors);
  const { status = "success", errorCode, errorMessage } = fields;
  if (status !== "success" && status !== "failed") {
    errors.push({ type: "invalid_value", path: "status", message: 'must be "success" or "failed"' });
  }
  const input: CompletionInput = { status: status === "failed" ? "failed" : "success" };
  for (const [field, value] of [
    ["errorCode", errorCode],
    ["errorMessage", errorMessage],
  ] as const) {
    if (value === undefined) continue;
    if (status !== "failed") {
      errors.push({ type: "invalid_value", path: field, message: 'is only allowed with status "failed"' });
    } else if (value !== null && (typeof value !== "string" || value === "")) {
      errors.push({
        type: "invalid_type",
        path: field,
        message: `must be a non-empty string or null, got ${jsonType(value)}`,
      });
    } else if (value !== null && codePointLength(value) > MAX_ERROR_TEXT_LENGTH) {
      errors.push({
        type: "too_big",
        path: field,
        message: `must be at most ${MAX_ERROR_TEXT_LENGTH} characters`,
      });
    } else {
      input[field] = value;
    }
  }
  if (errors.length > 0) throw validationFailed(errors);
  return input;
}

/** Reads the body of `POST /__mock/magic-links/open`: `{ partnerId, promptToken, customerId }`. */
export function parseMagicLink(body: unknown): MagicLinkInput {
  const errors: FieldError[] = [];
  const fields = objectBody(body, ["partnerId", "promptToken", "customerId"], errors);
  const partnerId = parsePartnerId(fields.partnerId);
  if (partnerId === undefined) {
    errors.push(
      fields.partnerId === undefined
        ? { type: "required", path: "partnerId", message: "is required" }
        : { type: "invalid_value", path: "partnerId", message: "must be a positive integer" },
    );
  }
  const promptToken = requiredString(fields.promptToken, "promptToken", errors, false);
  const customerId = requiredString(fields.customerId, "customerId", errors, true);
  if (errors.length > 0 || partnerId === undefined || promptToken === undefined || customerId === undefined) {
    throw validationFailed(errors);
  }
  return { partnerId, promptToken, customerId };
}

/** Reads the body of "Clone to user": `{ userId }`. */
export function parseClone(body: unknown): { userId: string } {
  const errors: FieldError[] = [];
  const fields = objectBody(body, ["userId"], errors);
  const userId = requiredString(fields.userId, "userId", errors, true);
  if (errors.length > 0 || userId === undefined) throw validationFailed(errors);
  return { userId };
}

/** The body's fields, with an `unknown_field` error pushed for each one not in `known`. */
function objectBody(body: unknown, known: readonly string[], errors: FieldError[]): Record<string, unknown> {
  if (!isJsonObject(body)) {
    throw validationFailed([
      {
        type: body === undefined ? "required" : "invalid_type",
        path: "",
        message: body === undefined ? "Body is missing" : `Body must be a JSON object, got ${jsonType(body)}`,
      },
    ]);
  }
  for (const key of Object.keys(body)) {
    if (!known.includes(key))
      errors.push({ type: "unknown_field", path: key, message: "is not a known field" });
  }
  return body;
}

function requiredString(
  value: unknown,
  path: string,
  errors: FieldError[],
  isId: boolean,
): string | undefined {
  if (value === undefined) {
    errors.push({ type: "required", path, message: "is required" });
  } else if (typeof value !== "string") {
    errors.push({ type: "invalid_type", path, message: `must be a string, got ${jsonType(value)}` });
  } else if (isId && (value === "" || codePointLength(value) > MAX_ID_LENGTH)) {
    errors.push({
      type: value === "" ? "too_small" : "too_big",
      path,
      message: `must be 1 to ${MAX_ID_LENGTH} characters`,
    });
  } else {
    return value;
  }
  return undefined;
}
