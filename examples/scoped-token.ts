// Tokens with claims. An unrestricted token creates an `mcp` token scoped to one server (for an MCP
// client; the management API refuses it), then a token manager, which may hand out tokens no
// broader than itself.
//
//   npm start                            # the mock, in another terminal (or MOCK_ORIGIN=http://… for another)
//   npx tsx examples/scoped-token.ts
//
// In an application, import from "rebuild-dashboard-kit" instead of "../src/index.js".
import { DashboardClient, PermissionDeniedError } from "../src/index.js";

// The mock's origin: MOCK_ORIGIN (`npm start`'s by default; the tests start a mock on a free port).
const origin = process.env.MOCK_ORIGIN ?? "http://127.0.0.1:4010";
const baseUrl = `${origin}/v1`;
// The mock's seeded token without claims: it may call everything.
const admin = new DashboardClient({ baseUrl, token: "mock-token-unrestricted" });

/** The 403 a call is refused with; any other outcome fails the example. */
async function refusal(call: PromiseLike<unknown>): Promise<PermissionDeniedError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof PermissionDeniedError) return error;
    throw error;
  }
  throw new Error("expected the call to be refused with 403");
}

const [server] = (await admin.servers.list({ pageSize: 1 })).data;
if (!server) throw new Error("the team has no servers to scope a token to");
console.log(`scoping to server ${server.guid} (${server.address})`);

// `token` (the secret) is in this response only: the API never returns it again.
const mcp = await admin.apiTokens.create({
  name: `MCP on ${new URL(server.address).hostname}`,
  claims: [{ name: "mcp", attributes: { serverGuid: server.guid } }],
});
console.log(`created #${mcp.id} "${mcp.name}": ${JSON.stringify(mcp.claims)}`);

const asMcp = new DashboardClient({ baseUrl, token: mcp.token });
const denied = await refusal(asMcp.servers.list());
console.log(`the mcp token listing servers: ${denied.status} ${denied.code}`);

// A token manager that also holds `mcp` on this server can create tokens within those claims.
const manager = await admin.apiTokens.create({
  name: "Token manager",
  claims: [{ name: "manage-api-tokens" }, { name: "mcp", attributes: { serverGuid: server.guid } }],
});
const asManager = new DashboardClient({ baseUrl, token: manager.token });
const narrower = await asManager.apiTokens.create({
  name: "Read-only MCP as admin",
  claims: [{ name: "mcp", readonly: true, attributes: { serverGuid: server.guid, panelUser: "admin" } }],
});
console.log(`the manager created #${narrower.id} "${narrower.name}": ${JSON.stringify(narrower.claims)}`);

// `mcp` on every server would be broader than the manager's own claim.
const broader = await refusal(
  asManager.apiTokens.create({ name: "MCP everywhere", claims: [{ name: "mcp" }] }),
);
console.log(`the manager creating an unscoped mcp token: ${broader.status} ${broader.code}`);
