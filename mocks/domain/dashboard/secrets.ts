import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { type Random, randomHex } from "../random.js";

/**
 * Secrets are kept only as this hash. Looking a presented secret up by its hash in a map means no
 * comparison of secret bytes ever happens, so there is nothing to time.
 */
export function hashSecret(secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(secret)));
}

/** `mck_` and 40 hex digits (160 random bits): 44 characters, above the contract's minimum of 32. */
export function generateSecret(random: Random): string {
  return `mck_${randomHex(random, 20)}`;
}
