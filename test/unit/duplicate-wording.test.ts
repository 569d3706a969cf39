// Every `duplicate` field error the mock can produce reads one way: "must not repeat <what> (first at
// <path>)", the earlier occurrence's full dotted path; a query parameter given twice, which has no
// earlier path of its own, "must not repeat parameter <name>". Each source is driven below, and no
// file of the mock builds a `duplicate` but the one helper (schema-errors.ts, duplicateOf).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createClock } from "../../mocks/domain/clock.js";
import { createDashboardDomain, type DashboardSeed } from "../../mocks/domain/dashboard/index.js";
import { DomainError, type FieldError } from "../../mocks/domain/errors.js";
import { seededRandom } from "../../mocks/domain/random.js";
import { readParameters } from "../../mocks/domain/validation/parameters.js";
import { fieldErrorsOf } from "../../mocks/domain/validation/schema-errors.js";
import { createMockWorld, type MockWorldSnapshot } from "../../mocks/index.js";
import { coreOf } from "../../mocks/world.js";
import { operations as dashboardOperations } from "../../src/generated/dashboard-validators.js";
import { FROZEN_AT, PARTNER, TOKEN } from "../support/default-seed.js";

const ELEMENT = /^must not repeat (.+) \(first at (\S+)\)$/;
const PARAMETER = /^must not repeat parameter (\S+)$/;

/** Fails unless `error` is a duplicate in the one form, its earlier occurrence a sibling of `path`. */
function expectOneForm(error: FieldError): void {
  expect(error.type).toBe("duplicate");
  const parameter = PARAMETER.exec(error.message);
  if (parameter) {
    expect(parameter[1]).toBe(error.path);
    return;
  }
  const [, what, first] = ELEMENT.exec(error.message) ?? [];
  expect(what, `${error.path}: ${error.message}`).toBeTruthy();
  // The same depth, another element: `claims.0` for `claims.1`, `…brands.0.serverIps.0` for `…brands.1.serverIps.0`.
  expect(first?.split(".").length).toBe(error.path.split(".").length);
  expect(first).not.toBe(error.path);
}

/** The field errors of the VALIDATION_FAILED that `run` throws. */
function fieldErrors(run: () => unknown): FieldError[] {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError && error.code === "VALIDATION_FAILED")
      return [...(error.details.fieldErrors ?? [])];
    throw error;
  }
  throw new Error("nothing was refused");
}

const duplicates = (errors: readonly FieldError[]) => errors.filter((e) => e.type === "duplicate");

function world() {
  return createMockWorld({ clock: createClock({ frozenAt: FROZEN_AT }), random: seededRandom(3) });
}

describe("every duplicate field error has one form", () => {
  it("a query parameter given twice", () => {
    const query = dashboardOperations.listServers.query;
    if (!query) throw new Error("listServers takes a query");
    const errors = fieldErrors(() => readParameters(query, (name) => (name === "page" ? ["1", "2"] : [])));
    expect(errors).toEqual([{ type: "duplicate", path: "page", message: "must not repeat parameter page" }]);
    for (const error of errors) expectOneForm(error);
  });

  it("a claim name given twice in a request, as the contract's example shows it", () => {
    const { dashboard } = coreOf(world());
    const owner = dashboard.authenticate(`Bearer ${TOKEN.unrestricted}`);
    let refused: unknown;
    try {
      dashboard.createApiToken(owner, {
        name: "n",
        claims: [{ name: "mcp" }, { name: "mcp", readonly: true }],
      });
    } catch (error) {
      refused = error;
    }
    if (!(refused instanceof DomainError)) throw new Error("the duplicate claim was accepted");
    const errors = [...(refused.details.fieldErrors ?? [])];
    expect(errors).toEqual([
      { type: "duplicate", path: "claims.1", message: "must not repeat claim mcp (first at claims.0)" },
    ]);
    for (const error of errors) expectOneForm(error);
    const contract = parse(readFileSync("openapi/dashboard.yaml", "utf8"));
    const { message, errors: documented } =
      contract.paths["/dashboard/api-tokens"].post.responses["400"].content["application/json"].examples
        .duplicateClaim.value;
    expect({ message: refused.message, errors }).toEqual({ message, errors: documented });
  });

  it("uniqueItems, whichever way the compiled schema compares the items", () => {
    const ajv = new Ajv2020({ allErrors: true });
    for (const [schema, value] of [
      [{ type: "array", items: { type: "string" }, uniqueItems: true }, ["a", "b", "a"]],
      [{ type: "array", uniqueItems: true }, [{ a: 1 }, { b: 2 }, { a: 1 }]],
    ] as const) {
      const validate = ajv.compile(schema);
      expect(validate(value)).toBe(false);
      const errors = fieldErrorsOf(validate.errors ?? [], "list");
      expect(errors).toEqual([
        { type: "duplicate", path: "list.2", message: "must not repeat an item (first at list.0)" },
      ]);
      for (const error of errors) expectOneForm(error);
    }
  });

  it("a server IP in two brands or twice in one (the partner console)", () => {
    const brand = (name: string, serverIps: string[]) => ({
      name,
      loginUrl: "https://panel.example.com/login",
      upgradeUrl: "https://panel.example.com/upgrade",
      domainPurchaseUrl: "https://panel.example.com/domains",
      serverIps,
    });
    const errors = fieldErrors(() =>
      world().upsertPartner(1001, {
        brands: [brand("A", ["192.0.2.1", "::ffff:192.0.2.1"]), brand("B", ["192.0.2.1"])],
      }),
    );
    expect(errors).toEqual([
      {
        type: "duplicate",
        path: "brands.0.serverIps.1",
        message: "must not repeat server IP 192.0.2.1 (first at brands.0.serverIps.0)",
      },
      {
        type: "duplicate",
        path: "brands.1.serverIps.0",
        message: "must not repeat server IP 192.0.2.1 (first at brands.0.serverIps.0)",
      },
    ]);
    for (const error of errors) expectOneForm(error);
  });

  it("every key of a dashboard seed given twice", () => {
    const token = (id: number, secret: string) => ({
      id,
      userId: 1,
      name: "n",
      secret,
      claims: [{ name: "mcp" as const }, { name: "mcp" as const }],
      createdAt: "2026-01-01T00:00:00Z",
    });
    const server = {
      guid: "5b1c3f0e-2a4d-4c6b-8e9f-0a1b2c3d4e01",
      team: "t",
      address: "https://x.example.com",
      product: "p",
      active: true,
    };
    const seed: DashboardSeed = {
      teams: [
        { id: "t", guid: "9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d" },
        { id: "t", guid: "9D8C7B6A-5E4F-4A3B-8C2D-1E0F9A8B7C6D" },
      ],
      users: [
        { id: 1, email: "u@example.com", team: "t" },
        { id: 1, email: "U@example.com", team: "t" },
      ],
      tokens: [token(1, "s"), token(1, "s")],
      servers: [server, server],
    };
    const errors = duplicates(
      fieldErrors(() =>
        createDashboardDomain({ clock: createClock({ frozenAt: FROZEN_AT }), random: seededRandom(1), seed }),
      ),
    );
    expect(errors.map((e) => e.path)).toEqual([
      "dashboard.teams.1.id",
      "dashboard.teams.1.guid",
      "dashboard.users.1.id",
      "dashboard.users.1.email",
      "dashboard.tokens.0.claims.1",
      "dashboard.tokens.1.id",
      "dashboard.tokens.1.secret",
      "dashboard.tokens.1.claims.1",
      "dashboard.servers.1.guid",
    ]);
    for (const error of errors) expectOneForm(error);
  });

  it("every key of a snapshot given twice, in both halves (and a partner id, as a seed's)", async () => {
    const source = world();
    const { rebuild } = coreOf(source);
    const partner = rebuild.authenticate(PARTNER.ok.id, PARTNER.ok.apiKey);
    for (const url of ["https://a.example.com/", "https://b.example.com/"]) {
      rebuild.admit(partner);
      rebuild.submit(partner, { sourceUrl: url });
    }
    await source.clock.advance(5000);
    // biome-ignore lint/suspicious/noExplicitAny: the test edits arbitrary paths of a parsed snapshot
    const s: Record<string, any> = JSON.parse(JSON.stringify(source.snapshot()));
    const { dashboard: d, rebuild: r } = s;
    d.teams.push({ ...d.teams[0] });
    d.users.push({ ...d.users[0] });
    d.tokens.push({
      ...d.tokens[0],
      claims: [
        { name: "mcp", readonly: false, attributes: {} },
        { name: "mcp", readonly: true, attributes: {} },
      ],
    });
    d.servers.push({ ...d.servers[0] });
    r.partners.push({ ...r.partners[0] });
    r.rebuilds[1].requestId = r.rebuilds[0].requestId;
    r.rebuilds[1].projectId = r.rebuilds[0].projectId;
    r.rebuilds[1].sourceUrl = "HTTPS://A.example.com";
    r.projects.push({ ...r.projects[0] });
    const all = fieldErrors(() => world().restore(s as MockWorldSnapshot));
    const errors = duplicates(all);
    expect(errors.map((e) => e.path)).toEqual([
      "dashboard.teams.2.id",
      "dashboard.teams.2.guid",
      "dashboard.users.2.id",
      "dashboard.users.2.email",
      "dashboard.tokens.9.id",
      "dashboard.tokens.9.secretHash",
      "dashboard.tokens.9.claims.1",
      "dashboard.servers.3.guid",
      "rebuild.partners.3.id",
      "rebuild.rebuilds.1.requestId",
      "rebuild.rebuilds.1.projectId",
      "rebuild.rebuilds.1.sourceUrl",
      "rebuild.projects.2.projectId",
    ]);
    for (const error of errors) expectOneForm(error);
  });
});

describe("no file of the mock builds a duplicate but duplicateOf", () => {
  // A `duplicate` written anywhere else would have a wording of its own.
  const builds = (text: string) => /["']duplicate["']/.test(text);

  it("sees one written by hand", () => {
    expect(builds(`problems.push({ type: "duplicate", path, message: "is given twice" });`)).toBe(true);
    expect(builds(`return duplicateOf(path, "claim mcp", first);`)).toBe(false);
  });

  it("finds none outside the one helper", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(join(dir, entry.name))
          : entry.name.endsWith(".ts")
            ? [join(dir, entry.name)]
            : [],
      );
    const offenders = files("mocks").filter((file) => builds(readFileSync(file, "utf8")));
    expect(offenders).toEqual([join("mocks", "domain", "validation", "schema-errors.ts")]);
  });
});
