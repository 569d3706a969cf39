import type { Clock } from "../clock.js";
import { type Random, randomGuid } from "../random.js";
import { formatTimestamp } from "../timestamp.js";
import type { ProjectOwner, ProjectRecord, RebuildRecord } from "./types.js";

/** Every project, in creation order: each rebuild's own, and the copies assignments make. */
export class ProjectRegistry {
  #projects: ProjectRecord[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** The rebuild's own project (`copiedFrom` null) or a new, independent copy of it. */
  add(rebuild: RebuildRecord, owner: ProjectOwner, copiedFrom: string | null): ProjectRecord {
    const project: ProjectRecord = {
      projectId: copiedFrom === null ? rebuild.projectId : randomGuid(this.random),
      partnerId: rebuild.partnerId,
      requestId: rebuild.requestId,
      owner,
      copiedFrom,
      createdAt: copiedFrom === null ? rebuild.createdAt : formatTimestamp(this.clock.now()),
    };
    this.#projects.push(project);
    return project;
  }

  /** Copies, in creation order. */
  list(): ProjectRecord[] {
    return structuredClone(this.#projects);
  }

  replace(projects: readonly ProjectRecord[]): void {
    this.#projects = structuredClone([...projects]);
  }
}
