// What the package root exports at run time; its types are in types/public-api.test-d.ts.
import { describe, expect, it } from "vitest";
import * as apiPromise from "../../src/core/api-promise.js";
import * as errors from "../../src/core/errors.js";
import * as root from "../../src/index.js";
import * as webhooks from "../../src/webhooks/index.js";

describe("the package root", () => {
  it("exports the clients, every error class, the promptToken helpers and APIPromise, nothing else at runtime", () => {
    expect(Object.keys(root).sort()).toEqual(
      [
        "APIPromise",
        "ApiError",
        "AuthenticationError",
        "ConnectionError",
        "DashboardClient",
        "InternalServerError",
        "NotFoundError",
        "PermissionDeniedError",
        "PromptTokenError",
        "RateLimitError",
        "RebuildClient",
        "ResponseTooLargeError",
        "ResponseValidationError",
        "SdkError",
        "TimeoutError",
        "UnprocessableEntityError",
        "ValidationError",
        "WebhookPayloadError",
        "WebhookVerificationError",
        "buildMagicLink",
        "buildPromptToken",
        "parsePromptToken",
      ].sort(),
    );
  });

  it("its error classes are the ones the pipeline and the webhook receiver throw", () => {
    expect(root.ApiError).toBe(errors.ApiError);
    expect(root.RateLimitError).toBe(errors.RateLimitError);
    expect(root.APIPromise).toBe(apiPromise.APIPromise);
    expect(root.WebhookVerificationError).toBe(webhooks.WebhookVerificationError);
    expect(root.WebhookPayloadError).toBe(webhooks.WebhookPayloadError);
    expect(new root.WebhookPayloadError([])).toBeInstanceOf(root.SdkError);
  });
});
