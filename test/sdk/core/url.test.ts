// The SDK builds request URLs itself (decisions/014) and must build exactly what openapi-fetch's
// default serializers build for the contract's parameters: primitive path and query values.
import fc from "fast-check";
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { createTransport } from "../../../src/core/transport.js";
import { BASE_URL, json, scriptedFetch, TOKEN } from "./helpers.js";

// Any path and query the transport is asked for; the generated `paths` type is not the point here.
type AnyPaths = Record<string, { get: { parameters: object; responses: object } }>;

const primitive = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean());

describe("request URLs", () => {
  it("equal openapi-fetch's for any path and query values", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }).filter((id) => !/^\.{1,2}$/.test(id)),
        fc.dictionary(
          fc.string({
            unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzAB_"),
            minLength: 1,
            maxLength: 8,
          }),
          fc.option(primitive, { nil: undefined }),
          { maxKeys: 4 },
        ),
        async (id, query) => {
          const { fetch, requests } = scriptedFetch([() => json(200, {})]);
          const t = createTransport<AnyPaths>({
            client: "TestClient",
            baseUrl: BASE_URL,
            authHeaders: { Authorization: `Bearer ${TOKEN}` },
            secrets: [TOKEN],
            fetch,
          });
          const params = { path: { id }, query };
          await t("safe", undefined, (http, init) =>
            (http.GET as (path: string, init: object) => Promise<never>)("/items/{id}/children", {
              ...init,
              params,
            }),
          );
          const expected = createFinalURL("/items/{id}/children", {
            baseUrl: BASE_URL,
            params,
            querySerializer: createQuerySerializer(),
            pathSerializer: defaultPathSerializer,
          });
          expect(requests[0]?.url).toBe(new Request(expected).url);
        },
      ),
      { numRuns: 300 },
    );
  });
});
