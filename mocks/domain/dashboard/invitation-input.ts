import { FieldErrorList, joinPath } from "../validation/field-errors.js";
import { readArray, readBodyObject, rejectUnknownFields, requiredField } from "../validation/json-input.js";
import { isValidEmailAddress } from "./email-address.js";

const INVITATION_LIMITS = { emails: { min: 1, max: 50 } } as const;

/** Validates the body of `POST /accounts/invitations`; returns the addresses as sent. */
export function parseSendInvitationsBody(body: unknown): string[] {
  const errors = new FieldErrorList();
  const root = readBodyObject(body, errors);
  if (!root) throw errors.toError();
  rejectUnknownFields(root, ["emails"], "", errors);
  const items = readArray(
    requiredField(root, "emails", "", errors),
    INVITATION_LIMITS.emails,
    "emails",
    errors,
  );
  const emails: string[] = [];
  items?.forEach((item, index) => {
    const path = joinPath("emails", index);
    if (typeof item !== "string") errors.add("invalid_type", path, "Must be a string");
    else if (!isValidEmailAddress(item)) errors.add("invalid_format", path, "Must be a valid email address");
    else emails.push(item);
  });
  errors.throwIfAny();
  return emails;
}
