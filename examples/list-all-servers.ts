// Every server of the team, however many pages that takes: `listAll` requests the next page only
// when the loop has used up the previous one (and stops requesting when the loop stops).
//
//   npm start                            # the mock, in another terminal (or MOCK_ORIGIN=http://… for another)
//   npx tsx examples/list-all-servers.ts
//
// In an application, import from "rebuild-dashboard-kit" instead of "../src/index.js".
import { DashboardClient } from "../src/index.js";

// The mock's origin: MOCK_ORIGIN (`npm start`'s by default; the tests start a mock on a free port).
const origin = process.env.MOCK_ORIGIN ?? "http://127.0.0.1:4010";

const dashboard = new DashboardClient({
  baseUrl: `${origin}/v1`,
  token: "mock-token-unrestricted",
  // Here only to print the requests the loop makes; real code leaves `fetch` out.
  fetch: (request) => {
    console.log(`request: GET ${new URL(request.url).search}`);
    return fetch(request);
  },
});

// pageSize 2 so that the seed's three servers take two pages; the default (100) makes fewest requests.
let count = 0;
for await (const server of dashboard.servers.listAll({ pageSize: 2 })) {
  count += 1;
  console.log(`server: ${server.address} (${server.product}${server.active ? "" : ", inactive"})`);
}
console.log(`${count} servers`);
