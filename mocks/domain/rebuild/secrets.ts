import { type Random, randomHex } from "../random.js";

/**
 * Compares a presented key with the stored one in time that depends only on the presented key's
 * length: every character is looked at, so timing tells nothing about where the keys first differ
 * nor about the stored key's length. (Hashing both sides first would do the same, but a pure-JS
 * SHA-256 costs tens of microseconds per request when the mock runs under a TypeScript loader.)
 */
export function sameKey(given: string, expected: string): boolean {
  const span = Math.max(expected.length, 1);
  let difference = given.length ^ expected.length;
  for (let i = 0; i < given.length; i++) {
    difference |= given.charCodeAt(i) ^ (expected.charCodeAt(i % span) || 0);
  }
  return difference === 0;
}

/** A new key: the prefix tells the two kinds apart in logs, 48 hex characters carry 192 random bits. */
export function generateKey(random: Random, prefix: "rk" | "wk"): string {
  return `${prefix}_${randomHex(random, 24)}`;
}
