import type { FieldErrorList } from "../validation/field-errors.js";

/** The query string of a request; `URLSearchParams` fits. */
export interface QueryParams {
  getAll(name: string): readonly string[];
}

/**
 * A known parameter's single value, or undefined when it is absent. Given twice, or given without a
 * value, it is an error at the parameter's name (and reads as absent, so checks can go on).
 */
export function readQueryParam(query: QueryParams, name: string, errors: FieldErrorList): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) {
    errors.add("duplicate", name, `"${name}" must be given at most once`);
    return undefined;
  }
  const value = values[0];
  if (value === "") {
    errors.add("invalid_format", name, `"${name}" must not be empty`);
    return undefined;
  }
  return value;
}

export interface PageWindow {
  page: number;
  pageSize: number;
}

const PAGE_LIMITS = {
  page: { min: 1, max: 2_147_483_647, default: 1 },
  pageSize: { min: 1, max: 100, default: 10 },
} as const;

const DIGITS = /^[0-9]+$/;

/** `page` and `pageSize`: base-10 digits only (leading zeros allowed), in range, never clamped. */
export function readPageWindow(query: QueryParams, errors: FieldErrorList): PageWindow {
  return {
    page: readBoundedInteger(query, "page", errors),
    pageSize: readBoundedInteger(query, "pageSize", errors),
  };
}

function readBoundedInteger(
  query: QueryParams,
  name: keyof typeof PAGE_LIMITS,
  errors: FieldErrorList,
): number {
  const limits = PAGE_LIMITS[name];
  const raw = readQueryParam(query, name, errors);
  if (raw === undefined) return limits.default;
  if (!DIGITS.test(raw)) {
    errors.add("invalid_format", name, `"${name}" must be a base-10 integer`);
    return limits.default;
  }
  // Without leading zeros, more than 10 digits is past any limit and Number() would lose precision.
  const significant = raw.replace(/^0+/, "");
  const value = significant.length > 10 ? Number.POSITIVE_INFINITY : Number(significant);
  if (value < limits.min) {
    errors.add("too_small", name, `"${name}" must be at least ${limits.min}`);
    return limits.default;
  }
  if (value > limits.max) {
    errors.add("too_big", name, `"${name}" must be at most ${limits.max}`);
    return limits.default;
  }
  return value;
}
