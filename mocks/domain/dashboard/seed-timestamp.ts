/** Reads a seed timestamp (any form `Date.parse` accepts; seeds should give an offset). */
export function parseSeedTimestamp(text: string, where: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`Dashboard seed: ${where} is not a timestamp: ${text}`);
  return ms;
}
