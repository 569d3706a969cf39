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

/** Longer secrets are hashed each time rather than kept: bounds what the memory below holds. */
const REMEMBERED_SECRET_LENGTH = 256;

/**
 * `hash` remembering the hashes of the `capacity` secrets it was last given. A client presents the
 * same one or two bearer tokens on every request, and hashing one is the largest part of
 * authenticating it (several microseconds with the pure-JS hash). Bounded in count and length, so
 * a client sending a new secret each time costs nothing more than hashing it, and a secret in use
 * stays remembered (the least recently presented one goes first).
 */
export function rememberingHashes(hash: Sha256Hex, capacity = 64): Sha256Hex {
  const known = new Map<string, string>();
  return (secret) => {
    let digest = known.get(secret);
    if (digest !== undefined) {
      // Moved to the end: a Map iterates in insertion order, so its first key is the least recent.
      known.delete(secret);
    } else {
      digest = hash(secret);
      if (secret.length > REMEMBERED_SECRET_LENGTH) return digest;
      if (known.size >= capacity) known.delete(known.keys().next().value as string);
    }
    known.set(secret, digest);
    return digest;
  };
}

/** `mck_` and 40 hex digits (160 random bits): 44 characters, above the contract's minimum of 32. */
export function generateSecret(random: Random): string {
  return `mck_${randomHex(random, 20)}`;
}
