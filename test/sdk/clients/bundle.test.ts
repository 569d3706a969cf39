import { expect, it } from "vitest";
import { CLIENTS_BUDGET_BYTES, measureAppBundle } from "../../../bench/lib/app-bundle.js";

// What a browser app pays for the clients, measured as `npm run bench` measures it.
it("an app importing only the two clients stays within 9.5 kB min+gz (decisions/048), without the webhook receiver", async () => {
  const { gzipped, inputs } = await measureAppBundle(
    'export { DashboardClient, RebuildClient } from "./src/index.ts";',
  );
  expect(gzipped).toBeLessThanOrEqual(CLIENTS_BUDGET_BYTES);
  expect(inputs.filter((path) => path.includes("@noble"))).toEqual([]);
  expect(inputs.filter((path) => path.startsWith("src/webhooks/"))).toEqual(["src/webhooks/errors.ts"]);
  expect(inputs.filter((path) => path.startsWith("mocks/"))).toEqual([]);
});
