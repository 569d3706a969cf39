/**
 * `value` with every object and array in it frozen: a default every world starts from (a seed) is
 * shared by all of them, so none may change it for the others.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
