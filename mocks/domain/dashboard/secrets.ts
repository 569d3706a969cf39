import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { type Random, randomHex } from "../random.js";

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

/** `mck_` and 40 hex digits (160 random bits): 44 characters, above the contract's minimum of 32. */
export function generateSecret(random: Random): string {
  return `mck_${randomHex(random, 20)}`;
}
