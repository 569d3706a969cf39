/**
 * Whether `received` equals `expected`, in time that depends only on the length of `received`:
 * every byte of it is looked at, whatever `expected` holds, so the time tells neither where the two
 * first differ nor how long `expected` (the secret) is. The one constant-time compare of the SDK's
 * webhook receiver and the mock's key checks.
 */
export function timingSafeEqual(expected: Uint8Array, received: Uint8Array): boolean {
  const span = Math.max(expected.length, 1);
  let difference = expected.length ^ received.length;
  for (let index = 0; index < received.length; index++) {
    difference |= (received[index] ?? 0) ^ (expected[index % span] ?? 0);
  }
  return difference === 0;
}
