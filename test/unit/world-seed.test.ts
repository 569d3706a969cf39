import { describe, expect, it } from "vitest";
import {
  createClock,
  createMockWorld,
  defaultDashboardSeed,
  defaultRebuildSeed,
  defineSeed,
} from "../../mocks/index.js";

const clock = () => createClock({ frozenAt: Date.UTC(2026, 10, 22) });

describe("createMockWorld seed halves", () => {
  it("a missing half loads its default seed", () => {
    expect(() => createMockWorld({ clock: clock(), seed: {} })).not.toThrow();
  });

  it.each([
    ["dashboard", /^Invalid seed: dashboard: must be an object$/],
    ["rebuild", /^Invalid seed: rebuild: must be an object$/],
  ])("an explicit null %s half is refused, not replaced by the default", (half, message) => {
    expect(() => createMockWorld({ clock: clock(), seed: { [half]: null } as never })).toThrow(message);
  });
});

describe("partial seeds: a list left out is the default seed's", () => {
  it("a half that gives only its servers keeps the default teams, users and tokens", () => {
    const only = defaultDashboardSeed.servers[0];
    if (!only) throw new Error("the default seed has servers");
    const world = createMockWorld({ clock: clock(), seed: { dashboard: { servers: [only] } } });
    const { dashboard, rebuild } = world.state();
    expect(dashboard.servers.map((s) => s.guid)).toEqual([only.guid]);
    expect(dashboard.users).toHaveLength(defaultDashboardSeed.users.length);
    expect(dashboard.tokens).toHaveLength(defaultDashboardSeed.tokens.length);
    expect(rebuild.partners).toHaveLength(defaultRebuildSeed.partners.length);
    // reset returns to the same completed seed
    world.reset();
    expect(world.state().dashboard.servers).toHaveLength(1);
  });

  it("references are still checked against the lists the world ends up with", () => {
    expect(() =>
      createMockWorld({
        clock: clock(),
        seed: { dashboard: { teams: [{ id: "t", guid: crypto.randomUUID() }] } },
      }),
    ).toThrow(
      /^Invalid seed: dashboard\.users\.0\.team: must be the id of a team in the seed \(dashboard\.users is the default seed's: the seed left it out\);/,
    );
  });

  it("an empty list is a list given: no partners", () => {
    const world = createMockWorld({ clock: clock(), seed: { rebuild: { partners: [] } } });
    expect(world.state().rebuild.partners).toEqual([]);
  });
});

describe("defineSeed derives ids and references", () => {
  it("teams, users, tokens and servers from what a test is about", () => {
    const seed = defineSeed({
      dashboard: {
        teams: ["red", "blue"],
        users: [{ email: "a@example.com" }, { email: "b@example.com", team: "blue" }],
        tokens: [{ secret: "secret-a" }, { secret: "secret-b", user: "b@example.com", name: "B's" }],
        servers: [
          { address: "https://one.example.com" },
          { address: "https://two.example.com", team: "blue" },
        ],
      },
    });
    expect(seed.rebuild).toBeUndefined();
    expect(seed.dashboard?.users).toEqual([
      { id: 1, email: "a@example.com", team: "red" },
      { id: 2, email: "b@example.com", team: "blue" },
    ]);
    expect(seed.dashboard?.tokens?.map((t) => [t.id, t.userId, t.name])).toEqual([
      [1, 1, "Token 1"],
      [2, 2, "B's"],
    ]);
    const world = createMockWorld({ clock: clock(), seed });
    const { dashboard } = world.state();
    expect(dashboard.servers.map((s) => [s.team, s.address, s.active])).toEqual([
      ["red", "https://one.example.com", true],
      ["blue", "https://two.example.com", true],
    ]);
    expect(new Set(dashboard.teams.map((t) => t.guid)).size).toBe(2);
  });

  it("a list alone refers to the default seed's teams and users", () => {
    const seed = defineSeed({ dashboard: { tokens: [{ secret: "extra", user: "other@example.com" }] } });
    expect(seed.dashboard).toEqual({
      tokens: [
        {
          id: 1,
          userId: 2,
          name: "Token 1",
          secret: "extra",
          claims: [],
          createdAt: "2026-01-01T00:00:00+00:00",
        },
      ],
    });
    expect(createMockWorld({ clock: clock(), seed }).state().dashboard.users).toHaveLength(2);
  });

  it("a token of an email no user has is a TypeError naming it", () => {
    expect(() =>
      defineSeed({ dashboard: { tokens: [{ secret: "x", user: "nobody@example.com" }] } }),
    ).toThrow(new TypeError('defineSeed: no user has the email "nobody@example.com"'));
  });
});
