// Assigning a finished rebuild to a customer (contract-decisions, "Assignment"): a magic link carrying
// a promptToken, or "Clone to user". Each makes a new, independent copy of the project.
import type { components } from "../../../src/generated/mock-control.js";
import { parsePromptToken } from "../../../src/prompt-token.js";
import { DomainError } from "../errors.js";
import type { RebuildLedger } from "./ledger.js";
import { type PartnerBook, partnerIdOf } from "./partners.js";
import type { ProjectRegistry } from "./projects.js";

type Schemas = components["schemas"];

export interface Assignment {
  /**
   * A customer opens a magic link. Assigns a new copy of the project when the token names a
   * `success` rebuild of that partner; any other token is ignored (`assigned: false`), never an
   * error. With `serverIp`, the answer names the partner's brand that IP selects (or null).
   */
  openMagicLink(input: Schemas["MagicLinkRequest"]): Schemas["MagicLinkResult"];
  /** "Clone to user": a new copy of a `success` rebuild's project. NOT_FOUND, then CONFLICT. */
  clone(requestId: string, input: Schemas["CloneRequest"]): Schemas["ClonedProject"];
}

export function createAssignment({
  ledger,
  projects,
  partners,
}: {
  ledger: RebuildLedger;
  projects: ProjectRegistry;
  partners: PartnerBook;
}): Assignment {
  return {
    openMagicLink({ partnerId: given, promptToken, customerId, serverIp }) {
      const partnerId = partnerIdOf(given);
      const brand = serverIp === undefined ? null : partners.brandFor(partnerId, serverIp);
      const projectId = projectIdOf(promptToken);
      const entry = projectId === undefined ? undefined : ledger.forProject(projectId);
      if (!entry || entry.record.partnerId !== partnerId || entry.record.status !== "success") {
        return { assigned: false, brand };
      }
      const copy = projects.add(entry.record, { kind: "customer", customerId }, entry.record.projectId);
      return { assigned: true, projectId: copy.projectId, brand };
    },

    clone(requestId, { userId }) {
      const entry = ledger.find(requestId);
      if (entry.record.status !== "success") {
        throw new DomainError(
          "CONFLICT",
          `Only a successful rebuild can be cloned; ${requestId} is ${entry.record.status}`,
        );
      }
      return {
        projectId: projects.add(entry.record, { kind: "user", userId }, entry.record.projectId).projectId,
      };
    },
  };
}

/** The project a promptToken names (the SDK's decoder), or undefined when it is not a token. */
function projectIdOf(promptToken: string): string | undefined {
  try {
    return parsePromptToken(promptToken);
  } catch {
    return undefined;
  }
}
