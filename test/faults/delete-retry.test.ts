// Found by sdk-under-faults.test.ts: a delete whose answer was lost did delete, so its retry got 404
// and the call rejected with NotFoundError although it had done what was asked. The "delete" retry
// policy resolves a 404 to a retry; a 404 to the first attempt still rejects.
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/core/errors.js";
import { createTransport, type RetryPolicy } from "../../src/core/transport.js";
import {
  BASE_URL,
  errorBody,
  json,
  netError,
  type paths,
  recordingSleep,
  type Step,
  scriptedFetch,
  TOKEN,
} from "../sdk/core/helpers.js";

function remove(policy: RetryPolicy, steps: Step[]) {
  const { fetch, requests } = scriptedFetch(steps);
  const { sleep } = recordingSleep();
  const t = createTransport<paths>(
    {
      client: "TestClient",
      baseUrl: BASE_URL,
      authHeaders: { Authorization: `Bearer ${TOKEN}` },
      secrets: [TOKEN],
      fetch,
    },
    { sleep, random: () => 0.5, now: () => 0 },
  );
  const call = t(policy, undefined, (http, init) =>
    http.DELETE("/items/{id}", { ...init, params: { path: { id: 7 } } }),
  );
  return { call, requests };
}

const notFound = () => json(404, errorBody("NOT_FOUND"));
const gone = () => new Response(null, { status: 204 });

describe('retry policy "delete"', () => {
  it.each([
    ["the connection was reset", netError("ECONNRESET")],
    ["the answer was a 503", () => json(503, errorBody("INTERNAL"), { "retry-after": "0" })],
  ] as [string, Step][])(
    "resolves a 404 to a retry after an attempt whose outcome is unknown: %s",
    async (_, first) => {
      const { call, requests } = remove("delete", [first, notFound]);
      await expect(call).resolves.toBeUndefined();
      expect(requests).toHaveLength(2);
    },
  );

  it("still rejects a 404 to the first attempt", async () => {
    await expect(remove("delete", [notFound]).call).rejects.toBeInstanceOf(NotFoundError);
  });

  it("resolves a plain success as before, and leaves the safe policy's 404 alone", async () => {
    await expect(remove("delete", [gone]).call).resolves.toBeUndefined();
    await expect(remove("safe", [netError("ECONNRESET"), notFound]).call).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
