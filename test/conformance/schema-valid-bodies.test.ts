// Issue 20, point 3: a request body that the contract's schemas accept, read as most tools read them
// (JSON Schema 2020-12 with unknown formats such as `iri` ignored), is never refused by the mock with
// `400`, except by a documented rule no schema can state (the public host, test/support/
// documented-rules.ts). Bodies are drawn from every POST operation's request schema (a fixed seed,
// bounded runs), kept when that reading accepts them, and sent to the mock.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Answer, dashboardAs, submitRebuild } from "../http/support/client.js";
import { useMswMock } from "../http/support/harness.js";
import { contract, isObject, type JsonObject } from "../support/contract-validator.js";
import { TOKEN } from "../support/default-seed.js";
import { documentedRuleOf } from "../support/documented-rules.js";
import { arbitraryOf } from "../support/schema-arbitrary.js";

const SEED = 20_261_128;
const RUNS = 150;
const { world, call } = useMswMock();

beforeAll(() => {
  // Rate limiting is not under test; every drawn body must reach validation.
  world.upsertPartner(1001, { rateLimitPerHour: 1_000_000 });
});

/** How most tools read the contract: 2020-12, the formats they know, `iri` (unknown to them) ignored. */
function toolsAjv(api: "dashboard" | "rebuild"): { ajv: Ajv2020; id: string } {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addFormat("iri", true);
  const id = `https://tools.test/openapi/${api}.yaml`;
  ajv.addSchema({ ...contract(api).doc, $id: id });
  return { ajv, id };
}

interface PostOperation {
  api: "dashboard" | "rebuild";
  template: string;
  schemaPointer: string;
  schema: unknown;
}

function postOperations(api: "dashboard" | "rebuild"): PostOperation[] {
  const { doc } = contract(api);
  return Object.entries(doc.paths as JsonObject).flatMap(([template, item]) => {
    const body = isObject(item) && isObject(item.post) ? item.post.requestBody : undefined;
    const media = isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
    if (!isObject(media)) return [];
    const escaped = template.replaceAll("~", "~0").replaceAll("/", "~1");
    return [
      {
        api,
        template,
        schemaPointer: `/paths/${escaped}/post/requestBody/content/application~1json/schema`,
        schema: media.schema,
      },
    ];
  });
}

const OPERATIONS = [...postOperations("dashboard"), ...postOperations("rebuild")];

function send(operation: PostOperation, body: unknown): Promise<Answer> {
  if (operation.api === "rebuild") return submitRebuild(call, body);
  return dashboardAs(call, TOKEN.unrestricted)("POST", operation.template, body);
}

describe("bodies the contract's schemas accept get no 400 from the mock, but for the public host", () => {
  it("covers every POST operation of both APIs", () => {
    expect(OPERATIONS.map(({ api, template }) => `${api} ${template}`).sort()).toEqual([
      "dashboard /accounts/invitations",
      "dashboard /dashboard/api-tokens",
      "dashboard /si/servers",
      "rebuild /api/integration/partners/hostpanel/rebuilds",
    ]);
  });

  it.each(OPERATIONS)("$api POST $template", async (operation) => {
    const { ajv, id } = toolsAjv(operation.api);
    const accepts = ajv.compile({ $ref: `${id}#${operation.schemaPointer}` });
    const drawn = fc.sample(arbitraryOf(contract(operation.api).doc, operation.schema), {
      numRuns: RUNS,
      seed: SEED,
    });
    const kept = drawn.filter((body) => accepts(body));
    // Most drawn bodies must survive the filter, or the property says little.
    expect(kept.length).toBeGreaterThan(RUNS / 3);
    const refused: string[] = [];
    let publicHost = 0;
    for (const body of kept) {
      const answer = await send(operation, body);
      if (answer.status !== 400) continue;
      const errors = isObject(answer.body) && Array.isArray(answer.body.errors) ? answer.body.errors : [];
      const undocumented = errors.filter(
        (error) => !isObject(error) || !documentedRuleOf(operation.api, error),
      );
      if (undocumented.length === 0 && errors.length > 0) publicHost++;
      else refused.push(`${JSON.stringify(body)} → ${JSON.stringify(undocumented)}`);
    }
    expect(refused).toEqual([]);
    if (operation.api === "dashboard") expect(publicHost).toBe(0);
  });
});
