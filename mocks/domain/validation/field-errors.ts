import { type DomainError, type FieldError, type FieldErrorType, validationFailed } from "../errors.js";

/** Collects every field error of one input so the 400 lists them all, not just the first. */
export class FieldErrorList {
  readonly items: FieldError[] = [];

  add(type: FieldErrorType, path: string, message: string): void {
    this.items.push({ type, path, message });
  }

  /** `VALIDATION_FAILED` carrying everything collected so far. */
  toError(): DomainError {
    return validationFailed(this.items);
  }

  /** Throws `toError()` if anything was collected. */
  throwIfAny(): void {
    if (this.items.length > 0) throw this.toError();
  }
}

/** Dotted path of a child: `joinPath("claims", 0)` is `claims.0`; the root is `""`. */
export function joinPath(base: string, key: string | number): string {
  return base === "" ? String(key) : `${base}.${key}`;
}
