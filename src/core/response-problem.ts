import type { ResponseValidationError } from "./errors.js";
import type { Logger } from "./options.js";
import type { Shape, ShapeIssue } from "./shape.js";

/**
 * The contract element a body problem is in (decisions/039): the assumed element the shape check
 * named (the pointer in the generated tables), else the documented response (status `documented`,
 * body `shape`), which is assumed or confirmed as a whole for a body that is not JSON or empty
 * (`issue` undefined) and otherwise confirmed, since nothing assumed encloses the problem. No table
 * (the mock's control client): none.
 */
export function contractElement(
  issue: ShapeIssue | undefined,
  method: string,
  path: string,
  documented: number | string | undefined,
  shape: Shape | null | undefined,
): { assumed: boolean; pointer?: string } {
  if (documented === undefined) return { assumed: false };
  const response = `/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method.toLowerCase()}/responses/${documented}`;
  // A mark of `true`: the response itself.
  const assumed = issue ? issue.assumed : (shape || undefined)?.a;
  return assumed
    ? { assumed: true, pointer: assumed === true ? response : assumed }
    : { assumed: false, pointer: response };
}

// Distinct problems one client remembers having logged; past it, it starts again (a problem may be logged twice).
const REMEMBERED = 100;

/**
 * What a client does with a `ResponseValidationError` (`validateResponses`): `"strict"` (the
 * default) throws it; `"warn"` logs it once per problem (status, operation or element, and where,
 * array indexes left out) through `logger.warn` and lets the body through as received. A TypeError
 * names the option when it is neither.
 */
export function invalidResponses(
  client: string,
  mode: unknown,
  logger: Logger | undefined,
): (error: ResponseValidationError) => void {
  if (mode === undefined || mode === "strict") {
    return (error) => {
      throw error;
    };
  }
  if (mode !== "warn") throw new TypeError(`${client}: validateResponses must be "strict" or "warn"`);
  const logged = new Set<string>();
  return (error) => {
    const key = `${error.status} ${error.method} ${error.pointer ?? error.path} ${error.jsonPath.replace(/\[\d+\]/g, "[]")}`;
    if (logged.has(key)) return;
    if (logged.add(key).size > REMEMBERED) logged.clear();
    logger?.warn(error.message);
  };
}
