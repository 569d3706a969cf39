// What the zod schemas generated from the contract (src/generated/*-zod.ts, scripts/generate/zod.mjs)
// check beyond zod's own methods, each as a `superRefine` callback: the contract's formats as the
// mock checks them, lengths in code points, `dependentRequired`, and "at most once" by one property.
// Messages are predicates, like the mock's field errors ("must be …").
import type * as z from "zod";
import { FORMAT_DESCRIPTIONS, formats } from "../core/formats.js";

type Refinement<T> = (value: T, ctx: z.RefinementCtx<T>) => void;

/** `format: <name>`: the contract's own check (src/core/formats.ts), the one the mock applies. */
export function format(name: string): Refinement<string> {
  const test = formats[name];
  if (!test) throw new Error(`the contract names no format ${name}`);
  const message = `must be ${FORMAT_DESCRIPTIONS[name] ?? `of format ${name}`}`;
  return (value, ctx) => {
    if (!test(value)) ctx.addIssue({ code: "custom", message, input: value });
  };
}

/** `minLength` and `maxLength` (`null`: none), counted in code points as JSON Schema counts. */
export function length(min: number, max: number | null): Refinement<string> {
  return (value, ctx) => {
    // A string has at most as many code points as code units, and at least half as many.
    if (value.length >= min * 2 && (max === null || value.length <= max)) return;
    const points = [...value].length;
    if (points < min)
      ctx.addIssue({ code: "custom", message: `must be at least ${min} characters`, input: value });
    else if (max !== null && points > max)
      ctx.addIssue({ code: "custom", message: `must be at most ${max} characters`, input: value });
  };
}

/** `dependentRequired`: a field given only with the fields it depends on. */
export function dependentRequired(rules: Readonly<Record<string, readonly string[]>>): Refinement<object> {
  return (value, ctx) => {
    for (const [field, needed] of Object.entries(rules)) {
      if (!Object.hasOwn(value, field)) continue;
      for (const other of needed) {
        if (Object.hasOwn(value, other)) continue;
        ctx.addIssue({
          code: "custom",
          message: `is required when ${field} is given`,
          path: [other],
          input: value,
        });
      }
    }
  };
}

/**
 * `contains` with `maxContains: 1`, one per value of `property` (each claim name at most once): the
 * later occurrence is the one refused, as the mock reports it.
 */
export function atMostOnce(property: string, values: readonly string[]): Refinement<readonly unknown[]> {
  return (items, ctx) => {
    const first = new Map<unknown, number>();
    items.forEach((item, index) => {
      const value =
        typeof item === "object" && item !== null ? (item as Record<string, unknown>)[property] : undefined;
      if (!values.includes(value as string)) return;
      const earlier = first.get(value);
      if (earlier === undefined) first.set(value, index);
      else
        ctx.addIssue({
          code: "custom",
          message: `must not repeat ${property} ${String(value)} (first at ${earlier})`,
          path: [index],
          input: item,
        });
    });
  };
}
