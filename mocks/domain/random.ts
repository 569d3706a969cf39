/** Source of randomness for ids and secrets, injected so tests can make them deterministic. */
export interface Random {
  /** `length` random bytes, new ones on every call. */
  bytes(length: number): Uint8Array;
}

// Random bytes are drawn from the CSPRNG this many at a time and handed out once each: a
// getRandomValues call for each of a rebuild's two GUIDs cost more than the rest of a submission.
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolOffset = 0;

export const cryptoRandom: Random = {
  bytes(length) {
    if (length > POOL_BYTES) return globalThis.crypto.getRandomValues(new Uint8Array(length));
    if (poolOffset + length > pool.length) {
      pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
      poolOffset = 0;
    }
    // A copy: callers may change the bytes they get (a GUID's version bits).
    const out = pool.slice(poolOffset, poolOffset + length);
    poolOffset += length;
    return out;
  },
};

/** A repeatable generator (xorshift32) for tests and reproducible seeds; never for real secrets. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  return {
    bytes(length) {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function randomHex(random: Random, bytes: number): string {
  let out = "";
  for (const b of random.bytes(bytes)) out += HEX[b];
  return out;
}

// The character codes of a GUID being written, reused: one flat string is made from them at once,
// where appending 20 pieces made a rope that every Map lookup by the id then had to flatten.
const GUID_CODES = new Array<number>(36).fill(45); // "-" where no digit is written
const hexDigit = (nibble: number) => (nibble < 10 ? 48 + nibble : 87 + nibble);

/** RFC 4122 version 4 GUID, lower case. */
export function randomGuid(random: Random): string {
  const b = random.bytes(16);
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) at++;
    let byte = b[i] ?? 0;
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    GUID_CODES[at++] = hexDigit(byte >> 4);
    GUID_CODES[at++] = hexDigit(byte & 0x0f);
  }
  return String.fromCharCode(...GUID_CODES);
}
