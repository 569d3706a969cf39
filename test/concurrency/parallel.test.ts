// Issue "contract conformance", item 5: requests that arrive together, over many sockets at once, at
// the standalone mock. Identical submissions create one rebuild; a fresh partner's hour admits
// exactly its limit; token creates and deletes racing each other leave a consistent inventory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClock, seededRandom } from "../../mocks/index.js";
import { type RunningMockServer, startMockServer } from "../../mocks/node.js";

const PARALLEL = 200;
const OWNER = { authorization: "Bearer mock-token-unrestricted" };
const JSON_TYPE = { "content-type": "application/json" };
const REBUILDS = "/api/integration/partners/hostpanel/rebuilds";

let mock: RunningMockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: createClock({ frozenAt: Date.parse("2026-03-01T12:00:00+00:00") }),
    random: seededRandom(5),
  });
});

afterAll(() => mock?.close());

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

async function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<Answer> {
  const response = await fetch(`${mock.origin}${path}`, {
    method,
    headers: json === undefined ? headers : { ...headers, ...JSON_TYPE },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const parallel = <T>(count: number, task: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => task(i)));
const countOf = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe(`${PARALLEL} requests at once`, () => {
  it(`${PARALLEL} identical submissions create exactly one rebuild`, async () => {
    // Room for all of them: the rate limit is the next test's subject.
    mock.world.upsertPartner(1001, { rateLimitPerHour: 1000 });
    const partner = { "x-partner-id": "1001", "x-api-key": "mock-rebuild-key-1001" };
    const answers = await parallel(PARALLEL, () =>
      send("POST", REBUILDS, partner, { sourceUrl: "https://same.example.com/" }),
    );
    expect([countOf(answers, 202), countOf(answers, 200)]).toEqual([1, PARALLEL - 1]);
    expect(new Set(answers.map((a) => a.body?.requestId)).size).toBe(1);
    const rebuilds = mock.world.state().rebuild.rebuilds.filter((r) => r.partnerId === 1001);
    expect(rebuilds).toHaveLength(1);
  });

  it(`${PARALLEL} distinct submissions for a fresh partner: exactly 30 admitted, the rest 429`, async () => {
    const fresh = (await send("PUT", "/__mock/partners/5001", {}, {})).body as {
      apiKey: string;
      rateLimitPerHour: number;
    };
    expect(fresh.rateLimitPerHour).toBe(30);
    const partner = { "x-partner-id": "5001", "x-api-key": fresh.apiKey };
    const answers = await parallel(PARALLEL, (i) =>
      send("POST", REBUILDS, partner, { sourceUrl: `https://site${i}.example.com/` }),
    );
    expect([countOf(answers, 202), countOf(answers, 429)]).toEqual([30, PARALLEL - 30]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    }
    expect(mock.world.state().rebuild.rebuilds.filter((r) => r.partnerId === 5001)).toHaveLength(30);
  });

  it("token creates and deletes racing each other: the list holds exactly creates − deletes", async () => {
    const listed = async () =>
      (await send("GET", "/v1/dashboard/api-tokens?pageSize=1", OWNER)).body?.totalCount as number;
    const initial = await listed();
    const create = (name: string) => send("POST", "/v1/dashboard/api-tokens", OWNER, { name, claims: [] });
    const first = await parallel(PARALLEL / 2, (i) => create(`first ${i}`));
    expect(countOf(first, 201)).toBe(PARALLEL / 2);
    const created = first.map((a) => (a.body?.data as { id: number; token: string }) ?? { id: 0, token: "" });
    expect(new Set(created.map((t) => t.id)).size).toBe(created.length);
    expect(new Set(created.map((t) => t.token)).size).toBe(created.length);

    // Creates race deletes, and every deleted token is deleted twice at once: one 204, one 404.
    const doomed = created.slice(0, 60);
    const [second, deletes] = await Promise.all([
      parallel(PARALLEL / 2, (i) => create(`second ${i}`)),
      parallel(doomed.length * 2, (i) =>
        send("DELETE", `/v1/dashboard/api-tokens/${doomed[i % doomed.length]?.id}`, OWNER),
      ),
    ]);
    expect(countOf(second, 201)).toBe(PARALLEL / 2);
    expect([countOf(deletes, 204), countOf(deletes, 404)]).toEqual([doomed.length, doomed.length]);
    expect(await listed()).toBe(initial + PARALLEL - doomed.length);

    const survivors = [
      ...created.slice(doomed.length),
      ...second.map((a) => a.body?.data as { id: number; token: string }),
    ];
    const [deadAnswers, liveAnswers] = await Promise.all([
      parallel(doomed.length, (i) =>
        send("GET", "/v1/si/servers", { authorization: `Bearer ${doomed[i]?.token}` }),
      ),
      parallel(survivors.length, (i) =>
        send("GET", "/v1/si/servers", { authorization: `Bearer ${survivors[i]?.token}` }),
      ),
    ]);
    expect(countOf(deadAnswers, 401)).toBe(doomed.length);
    expect(countOf(liveAnswers, 200)).toBe(survivors.length);
  });
});
