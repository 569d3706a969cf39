// The public signatures, checked by the type checker: vitest's typecheck (`npm test`, this file is a
// `*.test-d.ts`) and `npm run typecheck`. Nothing here runs: a call below only gives tsc a type.
import { describe, expectTypeOf, it } from "vitest";
import {
  type APIPromise,
  type ApiToken,
  type ApiTokenList,
  type Claim,
  type CreatedApiToken,
  DashboardClient,
  type DashboardClientOptions,
  type Invitation,
  NotFoundError,
  RebuildClient,
  type RebuildClientOptions,
  type RequestOptions,
  type Server,
  type ServerList,
  type SubmittedRebuild,
  type WithResponse,
} from "../../../src/index.js";

const dashboard = new DashboardClient({ baseUrl: "https://dashboard.example.com/v1", token: "t" });
const rebuild = new RebuildClient({ baseUrl: "https://rebuild.example.com", partnerId: 1, apiKey: "k" });

describe("DashboardClient", () => {
  it("servers", () => {
    expectTypeOf(dashboard.servers.list).returns.toEqualTypeOf<APIPromise<ServerList>>();
    expectTypeOf(dashboard.servers.list).returns.resolves.toEqualTypeOf<{
      totalCount: number;
      data: Server[];
    }>();
    expectTypeOf(dashboard.servers.listAll).returns.toEqualTypeOf<AsyncIterable<Server>>();
    expectTypeOf(dashboard.servers.connect).returns.resolves.toEqualTypeOf<Server[]>();
    expectTypeOf(dashboard.servers.connect)
      .parameter(0)
      .toEqualTypeOf<{ address: string; product: string }[]>();
    expectTypeOf(dashboard.servers.delete).returns.toEqualTypeOf<APIPromise<void>>();
    expectTypeOf(dashboard.servers.delete).parameter(0).toEqualTypeOf<string>();
  });

  it("apiTokens", () => {
    expectTypeOf(dashboard.apiTokens.list).returns.resolves.toEqualTypeOf<ApiTokenList>();
    expectTypeOf(dashboard.apiTokens.listAll).returns.toEqualTypeOf<AsyncIterable<ApiToken>>();
    expectTypeOf(dashboard.apiTokens.get).parameter(0).toEqualTypeOf<number>();
    expectTypeOf(dashboard.apiTokens.get).returns.resolves.toEqualTypeOf<ApiToken>();
    // The object itself, no envelope, and no secret.
    expectTypeOf<ApiToken>().not.toHaveProperty("token");
    expectTypeOf<ApiToken>().not.toHaveProperty("data");
    expectTypeOf<ApiToken["claims"]>().toEqualTypeOf<Claim[]>();
    expectTypeOf(dashboard.apiTokens.create).returns.resolves.toEqualTypeOf<CreatedApiToken>();
    expectTypeOf<CreatedApiToken["token"]>().toEqualTypeOf<string>();
    expectTypeOf<Omit<CreatedApiToken, "token">>().toEqualTypeOf<ApiToken>();
    expectTypeOf(dashboard.apiTokens.delete).returns.toEqualTypeOf<APIPromise<void>>();
  });

  it("accounts", () => {
    expectTypeOf(dashboard.accounts.sendInvitations).parameter(0).toEqualTypeOf<string[]>();
    expectTypeOf(dashboard.accounts.sendInvitations).returns.resolves.toEqualTypeOf<Invitation[]>();
    expectTypeOf<Invitation>().toEqualTypeOf<{ email: string; status: "sent" }>();
    expectTypeOf(dashboard.accounts.getTeamGuid).returns.toEqualTypeOf<APIPromise<string>>();
  });

  it("claims are told apart by name", () => {
    const describeClaim = (claim: Claim) =>
      claim.name === "mcp" ? claim.attributes.serverGuid : claim.readonly ? "read-only" : "manage";
    expectTypeOf(describeClaim).returns.toEqualTypeOf<string | undefined>();
  });
});

describe("RebuildClient", () => {
  it("submit", () => {
    expectTypeOf(rebuild.submit).returns.toEqualTypeOf<APIPromise<SubmittedRebuild>>();
    expectTypeOf<SubmittedRebuild["created"]>().toEqualTypeOf<boolean>();
    expectTypeOf<SubmittedRebuild["status"]>().toEqualTypeOf<"running" | "success" | "failed">();
    const previewOf = (r: SubmittedRebuild) => (r.status === "success" ? r.previewUrl : r.previewUrl);
    expectTypeOf(previewOf).returns.toEqualTypeOf<string | undefined>();
    expectTypeOf(rebuild.submit).parameter(0).toEqualTypeOf<{ sourceUrl: string; prompt?: string }>();
  });
});

describe("every call", () => {
  it("takes optional RequestOptions last", () => {
    expectTypeOf(dashboard.servers.list).parameters.toEqualTypeOf<
      [query?: { page?: number; pageSize?: number }, opts?: RequestOptions]
    >();
    expectTypeOf(dashboard.servers.listAll).parameters.toEqualTypeOf<
      [query?: { pageSize?: number }, opts?: RequestOptions]
    >();
    expectTypeOf(dashboard.apiTokens.listAll).parameters.toEqualTypeOf<
      [query?: { pageSize?: number; filter?: string }, opts?: RequestOptions]
    >();
    expectTypeOf(dashboard.servers.delete).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(dashboard.apiTokens.create).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(dashboard.accounts.getTeamGuid).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf(rebuild.submit).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
  });

  it("offers withResponse", () => {
    expectTypeOf(rebuild.submit({ sourceUrl: "x" }).withResponse()).resolves.toEqualTypeOf<
      WithResponse<SubmittedRebuild>
    >();
    expectTypeOf(dashboard.servers.delete("x").withResponse()).resolves.toEqualTypeOf<WithResponse<void>>();
    expectTypeOf(dashboard.apiTokens.get(1)).toExtend<Promise<ApiToken>>();
  });

  it("refuses unknown keys and wrong types", () => {
    const never = (_: unknown) => {};
    // Only type-checked, never called.
    never(() => {
      // @ts-expect-error `size` is not a query parameter
      dashboard.servers.list({ size: 2 });
      // @ts-expect-error listAll chooses the pages itself
      dashboard.servers.listAll({ page: 2 });
      // @ts-expect-error listAll chooses the pages itself
      dashboard.apiTokens.listAll({ filter: "x", page: 2 });
      // @ts-expect-error a token id is a number
      dashboard.apiTokens.get("3");
      // @ts-expect-error `timeout` is not a request option (it is `timeoutMs`)
      dashboard.servers.delete("x", { timeout: 5 });
      // @ts-expect-error `expireAt` cannot be set: tokens created through the API never expire
      dashboard.apiTokens.create({ name: "x", claims: [], expireAt: null });
      // @ts-expect-error an unknown claim name
      dashboard.apiTokens.create({ name: "x", claims: [{ name: "admin" }] });
      const attributes = { serverGuid: "g" };
      // @ts-expect-error `manage-api-tokens` takes no attributes
      dashboard.apiTokens.create({ name: "x", claims: [{ name: "manage-api-tokens", attributes }] });
      // @ts-expect-error `callbackUrl` is not part of a submission
      rebuild.submit({ sourceUrl: "https://a.example.com/", callbackUrl: "x" });
      // @ts-expect-error `sourceUrl` is required
      rebuild.submit({ prompt: "x" });
    });
    // @ts-expect-error `retries` is not an option (it is `maxRetries`)
    const dashboardOptions: DashboardClientOptions = { baseUrl: "x", token: "t", retries: 3 };
    // @ts-expect-error partnerId is a number
    const rebuildOptions: RebuildClientOptions = { baseUrl: "x", partnerId: "1001", apiKey: "k" };
    never([dashboardOptions, rebuildOptions]);
  });
});

describe("APIPromise<T> takes everything a Promise<T> takes", () => {
  const call = dashboard.apiTokens.get(1);

  it("then, with a rejection handler of any parameter type", () => {
    expectTypeOf(
      call.then(
        (t) => t.id,
        (e: Error) => e.message,
      ),
    ).toEqualTypeOf<Promise<number | string>>();
    expectTypeOf(call.then(undefined, (e: TypeError) => e.name)).toEqualTypeOf<Promise<ApiToken | string>>();
    expectTypeOf(call.then(null, (e: unknown) => String(e))).toEqualTypeOf<Promise<ApiToken | string>>();
    expectTypeOf(call.then((t) => t.name)).toEqualTypeOf<Promise<string>>();
    expectTypeOf(call.then()).toEqualTypeOf<Promise<ApiToken>>();
  });

  it("then, with an unannotated rejection handler: the reason is unknown, to be narrowed", () => {
    expectTypeOf(
      call.then(
        () => 1,
        (e) => e instanceof NotFoundError,
      ),
    ).toEqualTypeOf<Promise<number | boolean>>();
    call.then(undefined, (e) => {
      expectTypeOf(e).toBeUnknown();
      // @ts-expect-error an unnarrowed reason is not a string
      const message: string = e;
      return message;
    });
  });

  it("catch, finally, await and the Promise combinators", () => {
    expectTypeOf(call.catch((e: Error) => e.message)).toEqualTypeOf<Promise<ApiToken | string>>();
    expectTypeOf(call.finally(() => {})).toEqualTypeOf<Promise<ApiToken>>();
    expectTypeOf(Promise.all([call, rebuild.submit({ sourceUrl: "x" })])).toEqualTypeOf<
      Promise<[ApiToken, SubmittedRebuild]>
    >();
    expectTypeOf(Promise.race([call])).toEqualTypeOf<Promise<ApiToken>>();
    expectTypeOf(Promise.resolve(call)).toEqualTypeOf<Promise<ApiToken>>();
    expectTypeOf(call).toExtend<Promise<ApiToken>>();
    expectTypeOf(call).toExtend<PromiseLike<ApiToken>>();
    const never = (_: unknown) => {};
    // Only type-checked, never called.
    never(async () => {
      const token: ApiToken = await call;
      const promise: Promise<ApiToken> = call;
      const like: PromiseLike<ApiToken> = call;
      const settled: PromiseSettledResult<ApiToken>[] = await Promise.allSettled([call]);
      never([token, promise, like, settled]);
    });
  });
});
