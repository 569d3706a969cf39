import { SdkError } from "../core/errors.js";

/**
 * A callback's `X-API-Key` is missing, ambiguous or wrong. Neither the configured key nor the one
 * received ever appears in the message, the stack or any property.
 */
export class WebhookVerificationError extends SdkError {
  override readonly name: string = "WebhookVerificationError";
}

/** One reason a callback body was refused; `path` is dotted (`""` for the body itself). */
export interface WebhookPayloadIssue {
  readonly path: string;
  readonly message: string;
}

/** A verified callback whose body is not a valid `partner_project_rebuild_completed` payload. */
export class WebhookPayloadError extends SdkError {
  override readonly name: string = "WebhookPayloadError";
  readonly issues: readonly WebhookPayloadIssue[];

  /** An error listing `issues` in its message; `options.cause` as `Error`'s. */
  constructor(issues: readonly WebhookPayloadIssue[], options?: { cause?: unknown }) {
    super(
      `invalid rebuild callback: ${issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ")}`,
      options,
    );
    this.issues = issues;
  }
}
