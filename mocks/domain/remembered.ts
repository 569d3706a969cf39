/**
 * `decide` remembering its answers for `capacity` keys: for a pure function asked the same few
 * questions on every request (a presented token's hash, whether a Host or Origin is allowed).
 * Bounded in count and key length, so a client sending a new value each time costs nothing more
 * than the answer, and a key in use stays remembered: the one to forget is the oldest not asked
 * again since it was last passed over (a "second chance" order, which costs a hit one flag instead
 * of moving its entry; a true LRU cost about 0.5 µs per request, decisions/036).
 */
export function remembered<T>(
  decide: (key: string) => T,
  { capacity, longestKey }: { capacity: number; longestKey: number },
): (key: string) => T {
  const known = new Map<string, { answer: T; asked: boolean }>();
  const forgetOne = () => {
    // Oldest first; one asked since is moved to the end once, so this ends within capacity + 1 steps.
    for (const [key, entry] of known) {
      known.delete(key);
      if (!entry.asked) return;
      entry.asked = false;
      known.set(key, entry);
    }
  };
  return (key) => {
    const entry = known.get(key);
    if (entry !== undefined) {
      entry.asked = true;
      return entry.answer;
    }
    const answer = decide(key);
    if (key.length > longestKey) return answer;
    if (known.size >= capacity) forgetOne();
    known.set(key, { answer, asked: false });
    return answer;
  };
}
