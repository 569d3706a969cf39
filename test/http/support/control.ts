import type { DeliveryRecord, MockWorld } from "../../../mocks/index.js";
import type { Client } from "./client.js";

export type MockState = ReturnType<MockWorld["state"]>;

export interface SinkEntry {
  headers: Record<string, string>;
  body: unknown;
  at: string;
}

/** The `/__mock` control API over HTTP, failing loudly on any answer but the expected one. */
export function controlApi(client: Client) {
  const expectStatus = async <Body>(status: number, answer: Promise<{ status: number; body: Body }>) => {
    const { status: got, body } = await answer;
    if (got !== status)
      throw new Error(`control API answered ${got}, expected ${status}: ${JSON.stringify(body)}`);
    return body;
  };
  return {
    reset: () => expectStatus(204, client({ method: "POST", path: "/__mock/reset" })),
    state: () => expectStatus(200, client<MockState>({ path: "/__mock/state" })),
    advance: (seconds: number) =>
      expectStatus(200, client<{ now: string }>({ path: "/__mock/clock/advance", json: { seconds } })),
    deliveries: async () =>
      (await expectStatus(200, client<{ data: DeliveryRecord[] }>({ path: "/__mock/deliveries" }))).data,
    sink: async (partnerId: string) =>
      (await expectStatus(200, client<{ data: SinkEntry[] }>({ path: `/__mock/webhook-sink/${partnerId}` })))
        .data,
    putPartner: (partnerId: string, patch: Record<string, unknown>) =>
      expectStatus(
        200,
        client<Record<string, unknown>>({
          method: "PUT",
          path: `/__mock/partners/${partnerId}`,
          json: patch,
        }),
      ),
  };
}
