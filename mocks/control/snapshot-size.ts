import { operations } from "../../src/generated/mock-control-operations.js";

/**
 * The largest snapshot `PUT /__mock/snapshot` takes (openapi/mock-control.yaml's `x-body-limit` of
 * restoreMockSnapshot, 64 MiB): a world with a full webhook sink is larger than the 1 MiB other
 * bodies may have. `MockControlClient` reads answers that large by default, so what one mock gives
 * another takes back.
 */
export const SNAPSHOT_MAX_BYTES = operations.restoreMockSnapshot.bodyLimit;
