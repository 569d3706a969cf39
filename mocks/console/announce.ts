// What changed between two reads of the state, in a sentence or two: the live region says it, so
// someone who does not watch the page (or cannot see it) hears that a rebuild finished.
import type { MockState } from "./control.js";

const MOST = 3;

// Sentences the page says both after its own action (main.ts) and when the change came from
// elsewhere (below): one wording each, so `tell` recognises its own action's echo and says it once.
export const rebuildIsNow = (sourceUrl: string, status: string) =>
  `The rebuild of ${sourceUrl} is now ${status}`;
export const newRebuildKey = (partnerId: number) => `Partner ${partnerId} has a new rebuild API key`;
export const featureIs = (partnerId: number, enabled: boolean) =>
  `The rebuild feature of partner ${partnerId} is ${enabled ? "enabled" : "disabled"}`;

export function changesBetween(before: MockState | undefined, after: MockState): string[] {
  if (!before) return [];
  const said: string[] = [];
  const earlier = new Map(before.rebuild.rebuilds.map((r) => [r.requestId, r]));
  for (const rebuild of after.rebuild.rebuilds) {
    const was = earlier.get(rebuild.requestId);
    if (!was) said.push(`New rebuild of ${rebuild.sourceUrl}: ${rebuild.status}.`);
    else if (was.status !== rebuild.status) said.push(`${rebuildIsNow(rebuild.sourceUrl, rebuild.status)}.`);
  }
  const newAttempts = after.rebuild.deliveries.length - before.rebuild.deliveries.length;
  const last = after.rebuild.deliveries.at(-1);
  if (newAttempts > 0 && last) {
    const answer =
      last.responseStatus === null ? "no answer" : `the receiver answered ${last.responseStatus}`;
    said.push(`${newAttempts === 1 ? "A callback attempt" : `${newAttempts} callback attempts`}: ${answer}.`);
  }
  const keys = new Map(before.rebuild.partners.map((p) => [p.id, p]));
  for (const partner of after.rebuild.partners) {
    const was = keys.get(partner.id);
    if (!was) said.push(`New partner ${partner.id}.`);
    else if (was.apiKey !== partner.apiKey) said.push(`${newRebuildKey(partner.id)}.`);
    else if (was.featureEnabled !== partner.featureEnabled)
      said.push(`${featureIs(partner.id, partner.featureEnabled)}.`);
  }
  const tokens = after.dashboard.tokens.length - before.dashboard.tokens.length;
  if (tokens !== 0)
    said.push(
      `${Math.abs(tokens)} API token${Math.abs(tokens) === 1 ? "" : "s"} ${tokens > 0 ? "created" : "deleted"}.`,
    );
  const invitations = after.dashboard.invitations.length - before.dashboard.invitations.length;
  if (invitations > 0) said.push(`${invitations} invitation${invitations === 1 ? "" : "s"} sent.`);
  if (said.length <= MOST) return said;
  return [...said.slice(0, MOST), `And ${said.length - MOST} more changes.`];
}
