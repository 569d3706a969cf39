// Handing a finished rebuild to a customer with a magic link. The link carries a `promptToken`
// (Base64 of `rebuildId=<projectId>`); the service assigns the project to whoever opens it and signs
// in, but only once the rebuild has succeeded.
//
//   npm start                            # the mock, in another terminal (or MOCK_ORIGIN=http://… for another)
//   npx tsx examples/magic-link.ts
//
// In an application, import from "rebuild-dashboard-kit" and "rebuild-dashboard-kit/mocks/control"
// instead of "../src/index.js" and "../mocks/control/index.js".
import { MockControlClient } from "../mocks/control/index.js";
import { buildMagicLink, buildPromptToken, RebuildClient } from "../src/index.js";

// The mock's origin: MOCK_ORIGIN (`npm start`'s by default; the tests start a mock on a free port).
const origin = process.env.MOCK_ORIGIN ?? "http://127.0.0.1:4010";
// The mock's control API does what the real service's customers would (open the link).
const control = new MockControlClient({ baseUrl: origin });

const partnerId = 1001;
const rebuild = new RebuildClient({
  baseUrl: origin,
  partnerId,
  apiKey: "mock-rebuild-key-1001",
});
const { projectId } = await rebuild.submit({
  sourceUrl: `https://shop.example.com/?run=${crypto.randomUUID()}`,
});

console.log(`promptToken of project ${projectId}: ${buildPromptToken(projectId)}`);
// The sign-in address and its other parameters are the service's; this one is made up.
const link = buildMagicLink("https://builder.example.com/login", projectId, { utm_source: "rebuild-mail" });
console.log(`magic link: ${link}`);

// What the service does when a customer opens the link and signs in; the mock does it on request.
// The customer logs in from a hosting-panel server: its IP selects the partner's brand they see.
const open = async () => {
  const { brand, ...assignment } = await control.openMagicLink({
    partnerId,
    promptToken: new URL(link).searchParams.get("promptToken") ?? "",
    customerId: "customer-42",
    serverIp: "203.0.113.10",
  });
  return `${JSON.stringify(assignment)}, brand ${brand?.name ?? "(none)"}`;
};
console.log(`opened while the rebuild runs: ${await open()}`);
// The mock completes a rebuild after 5 s; advancing its clock skips the wait.
await control.advanceClock({ seconds: 5 });
console.log(`opened after it succeeded: ${await open()}`);
