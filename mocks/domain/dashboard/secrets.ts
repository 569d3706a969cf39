import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { type Random, randomHex } from "../random.js";
import { remembered } from "../remembered.js";

/** SHA-256 of a UTF-8 string as lowercase hex. */
export type Sha256Hex = (text: string) => string;

/**
 * Secrets are kept only as this hash. Looking a presented secret up by its hash in a map means no
 * comparison of secret bytes ever happens, so there is nothing to time.
 *
 * This pure-JS SHA-256 runs anywhere (the browser included). The domain takes any implementation
 * of the same function (`sha256Hex`): the Node server injects node:crypto's, several times faster
 * on the path every dashboard request takes.
 */
export const hashSecret: Sha256Hex = (secret) => bytesToHex(sha256(utf8ToBytes(secret)));

/** Longer secrets are hashed each time rather than kept: bounds what the memory below holds. */
const REMEMBERED_SECRET_LENGTH = 256;

/**
 * `hash` remembering the hashes of `capacity` presented secrets (a secret in use is never the one
 * forgotten): a client presents the same one or two bearer tokens on every request, and hashing
 * one is the largest part of authenticating it (several microseconds with the pure-JS hash).
 */
export function rememberingHashes(hash: Sha256Hex, capacity = 64): Sha256Hex {
  return remembered(hash, { capacity, longestKey: REMEMBERED_SECRET_LENGTH });
}

/** `mck_` and 40 hex digits (160 random bits): 44 characters, above the contract's minimum of 32. */
export function generateSecret(random: Random): string {
  return `mck_${randomHex(random, 20)}`;
}
