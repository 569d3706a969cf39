import { type Random, randomHex } from "../random.js";

/** A new key: the prefix tells the two kinds apart in logs, 48 hex characters carry 192 random bits. */
export function generateKey(random: Random, prefix: "rk" | "wk"): string {
  return `${prefix}_${randomHex(random, 24)}`;
}
