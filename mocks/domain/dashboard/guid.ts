const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any 8-4-4-4-12 hex GUID, either case; version and variant bits are not checked. */
export function isGuid(value: string): boolean {
  return GUID.test(value);
}
