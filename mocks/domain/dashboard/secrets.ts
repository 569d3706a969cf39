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
 * `hash` remembering the hashes of `capacity` secrets. A client presents the same one or two bearer
 * tokens on every request, and hashing one is the largest part of authenticating it (several
 * microseconds with the pure-JS hash). Bounded in count and length, so a client sending a new
 * secret each time costs nothing more than hashing it, and a secret in use stays remembered: the
 * one to forget is the oldest not presented since it was last passed over (a "second chance"
 * order, which costs a hit one flag instead of moving its entry).
 */
export function rememberingHashes(hash: Sha256Hex, capacity = 64): Sha256Hex {
  const known = new Map<string, { digest: string; presented: boolean }>();
  const forgetOne = () => {
    // Oldest first; one presented since is moved to the end once, so this ends within capacity + 1 steps.
    for (const [secret, entry] of known) {
      known.delete(secret);
      if (!entry.presented) return;
      entry.presented = false;
      known.set(secret, entry);
    }
  };
  return (secret) => {
    const entry = known.get(secret);
    if (entry !== undefined) {
      entry.presented = true;
      return entry.digest;
    }
    const digest = hash(secret);
    if (secret.length > REMEMBERED_SECRET_LENGTH) return digest;
    if (known.size >= capacity) forgetOne();
    known.set(secret, { digest, presented: false });
    return digest;
  };
}

/** `mck_` and 40 hex digits (160 random bits): 44 characters, above the contract's minimum of 32. */
export function generateSecret(random: Random): string {
  return `mck_${randomHex(random, 20)}`;
}
