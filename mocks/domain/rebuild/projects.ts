import type { Clock } from "../clock.js";
import { type Random, randomGuid } from "../random.js";
import { formatTimestamp } from "../timestamp.js";
import type { ProjectOwner, ProjectRecord, RebuildRecord } from "./types.js";

/** Every project, in creation order: each rebuild's own, and the copies assignments make. */
export interface ProjectRegistry {
  /** The rebuild's own project (`copiedFrom` null) or a new, independent copy of it. */
  add(rebuild: RebuildRecord, owner: ProjectOwner, copiedFrom: string | null): ProjectRecord;
  /** Copies, in creation order. */
  list(): ProjectRecord[];
  replace(projects: readonly ProjectRecord[]): void;
}

export function createProjectRegistry(clock: Clock, random: Random): ProjectRegistry {
  let projects: ProjectRecord[] = [];
  return {
    add(rebuild, owner, copiedFrom) {
      const project: ProjectRecord = {
        projectId: copiedFrom === null ? rebuild.projectId : randomGuid(random),
        partnerId: rebuild.partnerId,
        requestId: rebuild.requestId,
        owner,
        copiedFrom,
        createdAt: copiedFrom === null ? rebuild.createdAt : formatTimestamp(clock.now()),
      };
      projects.push(project);
      return project;
    },
    list: () => structuredClone(projects),
    replace(given) {
      projects = structuredClone([...given]);
    },
  };
}
