/** Source of randomness for ids and secrets, injected so tests can make them deterministic. */
export interface Random {
  bytes(length: number): Uint8Array;
}

export const cryptoRandom: Random = {
  bytes(length) {
    return globalThis.crypto.getRandomValues(new Uint8Array(length));
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

/** RFC 4122 version 4 GUID, lower case. */
export function randomGuid(random: Random): string {
  const b = random.bytes(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => HEX[x]).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
