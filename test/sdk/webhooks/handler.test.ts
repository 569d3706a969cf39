import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import {
  createMemoryDeliveryStore,
  createRebuildWebhookHandler,
  type DeliveryStore,
  type RebuildCompletedCallback,
} from "../../../src/webhooks/index.js";
import { callbackRequest, failed, succeeded, WEBHOOK_KEY } from "./fixtures.js";

const MiB = 1024 * 1024;

function setup(
  onCompleted: (
    event: RebuildCompletedCallback,
    context: { signal: AbortSignal },
  ) => void | Promise<void> = () => {},
  store?: DeliveryStore,
) {
  const spy = vi.fn(onCompleted);
  const handler = createRebuildWebhookHandler({
    webhookApiKey: WEBHOOK_KEY,
    onCompleted: spy,
    ...(store === undefined ? {} : { store }),
  });
  return { handler, onCompleted: spy };
}

async function answer(response: Response): Promise<[number, unknown]> {
  expect(response.headers.get("content-type")).toBe("application/json");
  return [response.status, await response.json()];
}

function deferred() {
  let resolve = () => {};
  let reject = (_error: Error) => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Lets pending promise callbacks and stream reads run: turns of the event loop, no clock. What a
 * copy still waits for after these it waits for until the test lets it go.
 */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await nextTurn();
}

describe("createRebuildWebhookHandler: statuses", () => {
  it("answers 200 { received: true } and passes the typed event to onCompleted", async () => {
    const { handler, onCompleted } = setup();
    expect(await answer(await handler(callbackRequest(succeeded)))).toEqual([200, { received: true }]);
    expect(await answer(await handler(callbackRequest(failed)))).toEqual([200, { received: true }]);
    expect(onCompleted.mock.calls.map(([event]) => event)).toEqual([succeeded, failed]);
    expect(onCompleted.mock.calls[0]?.[1].signal).toBeInstanceOf(AbortSignal);
  });

  it.each(["GET", "PUT", "DELETE", "PATCH", "HEAD"])(
    "answers %s with 405 and Allow: POST",
    async (method) => {
      const { handler, onCompleted } = setup();
      const response = await handler(callbackRequest(succeeded, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      if (method !== "HEAD")
        expect(await response.json()).toEqual({ error: `method ${method} is not allowed` });
      expect(onCompleted).not.toHaveBeenCalled();
    },
  );

  it("answers 401 for a missing or wrong key", async () => {
    const { handler, onCompleted } = setup();
    expect(await answer(await handler(callbackRequest(succeeded, { key: null })))).toEqual([
      401,
      { error: "missing X-API-Key header" },
    ]);
    expect(await answer(await handler(callbackRequest(succeeded, { key: "whk_other" })))).toEqual([
      401,
      { error: "X-API-Key does not match the configured webhook API key" },
    ]);
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("answers 400 with the validation message", async () => {
    const { handler, onCompleted } = setup();
    expect(await answer(await handler(callbackRequest({ ...succeeded, preview_url: undefined })))).toEqual([
      400,
      { error: "invalid rebuild callback: preview_url: required" },
    ]);
    expect(await answer(await handler(callbackRequest("{oops")))).toEqual([
      400,
      { error: "invalid rebuild callback: body is not valid JSON" },
    ]);
    expect(await answer(await handler(callbackRequest({ ...succeeded, event_type: "other_event" })))).toEqual(
      [
        400,
        {
          error:
            'invalid rebuild callback: event_type: unknown event type "other_event"; only "partner_project_rebuild_completed" is supported',
        },
      ],
    );
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("answers 413 for a body over 1 MiB, read as a stream", async () => {
    const { handler, onCompleted } = setup();
    const response = await handler(callbackRequest("x".repeat(MiB + 1)));
    expect(await answer(response)).toEqual([413, { error: `request body is larger than ${MiB} bytes` }]);
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("answers 413 from a declared Content-Length without reading the body", async () => {
    const { handler } = setup();
    const request = new Request("https://partner.example.com/hook", {
      method: "POST",
      headers: { "x-api-key": WEBHOOK_KEY, "content-length": String(MiB + 1) },
      body: new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(1024)) }),
      duplex: "half",
    } as RequestInit);
    expect((await handler(request)).status).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const { handler, onCompleted } = setup();
    const shell = JSON.stringify({ ...succeeded, padding: "" });
    const body = shell.replace('"padding":""', `"padding":"${"p".repeat(MiB - shell.length)}"`);
    expect(new TextEncoder().encode(body).length).toBe(MiB);
    expect((await handler(callbackRequest(body))).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledWith(succeeded, expect.anything());
  });

  it("checks the key before the body size", async () => {
    const { handler } = setup();
    expect((await handler(callbackRequest("x".repeat(MiB + 1), { key: "wrong" }))).status).toBe(401);
  });

  it("answers 400 when the body stream fails", async () => {
    const { handler } = setup();
    const request = new Request("https://partner.example.com/hook", {
      method: "POST",
      headers: { "x-api-key": WEBHOOK_KEY },
      body: new ReadableStream({
        pull(controller) {
          controller.error(new Error("connection reset"));
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(await answer(await handler(request))).toEqual([
      400,
      { error: "the request body could not be read" },
    ]);
  });

  it("refuses bad configuration at setup", () => {
    expect(() => createRebuildWebhookHandler({ webhookApiKey: "", onCompleted: () => {} })).toThrow(
      new TypeError(
        "createRebuildWebhookHandler: webhookApiKey must be a non-empty header value without surrounding whitespace",
      ),
    );
    expect(() =>
      createRebuildWebhookHandler({
        webhookApiKey: WEBHOOK_KEY,
        onCompleted: undefined as unknown as () => void,
      }),
    ).toThrow(new TypeError("onCompleted must be a function"));
  });
});

describe("createRebuildWebhookHandler: deliveries", () => {
  it("acknowledges a repeated delivery without calling onCompleted again", async () => {
    const { handler, onCompleted } = setup();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await answer(await handler(callbackRequest(succeeded)))).toEqual([200, { received: true }]);
    }
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it("treats another status or request_id as a new event", async () => {
    const { handler, onCompleted } = setup();
    await handler(callbackRequest(succeeded));
    await handler(callbackRequest({ ...failed, request_id: succeeded.request_id }));
    await handler(callbackRequest({ ...succeeded, request_id: "req_other" }));
    expect(onCompleted).toHaveBeenCalledTimes(3);
  });

  it("makes a concurrent copy wait for the first and then acknowledges it without a second call", async () => {
    const gate = deferred();
    const entered = deferred();
    const { handler, onCompleted } = setup(() => {
      entered.resolve();
      return gate.promise;
    });
    const first = handler(callbackRequest(succeeded));
    const second = handler(callbackRequest(succeeded));
    await entered.promise;
    await settle();
    expect(onCompleted).toHaveBeenCalledTimes(1);
    let secondDone = false;
    void second.then(() => {
      secondDone = true;
    });
    await settle();
    expect(secondDone).toBe(false);
    gate.resolve();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledTimes(1);
  });

  it("answers 500 when onCompleted throws, without leaking its error, and lets the retry through", async () => {
    let fail = true;
    const { handler, onCompleted } = setup(async () => {
      if (fail) throw new Error("database is down: password=hunter2");
    });
    expect(await answer(await handler(callbackRequest(succeeded)))).toEqual([
      500,
      { error: "the callback could not be processed" },
    ]);
    fail = false;
    expect((await handler(callbackRequest(succeeded))).status).toBe(200);
    expect((await handler(callbackRequest(succeeded))).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledTimes(2);
  });

  it("hands a waiting copy the delivery when the first attempt fails", async () => {
    const gate = deferred();
    const entered = deferred();
    let calls = 0;
    const { handler, onCompleted } = setup(async () => {
      calls++;
      if (calls !== 1) return;
      entered.resolve();
      await gate.promise;
    });
    const first = handler(callbackRequest(failed));
    const second = handler(callbackRequest(failed));
    const third = handler(callbackRequest(failed));
    await entered.promise;
    await settle();
    gate.reject(new Error("transient"));
    expect((await first).status).toBe(500);
    expect((await second).status).toBe(200);
    expect((await third).status).toBe(200);
    expect(onCompleted).toHaveBeenCalledTimes(2);
  });

  it("works with an async store and records `<status>:<request_id>` keys", async () => {
    const keys = new Set<string>();
    // A store that answers on a later turn of the event loop, as one over the network does.
    const tick = () => nextTurn();
    const store: DeliveryStore = {
      async has(key) {
        await tick();
        return keys.has(key);
      },
      async add(key) {
        await tick();
        keys.add(key);
      },
    };
    const { handler, onCompleted } = setup(() => {}, store);
    const answers = await Promise.all([1, 2, 3].map(() => handler(callbackRequest(succeeded))));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
    await handler(callbackRequest(failed));
    expect(onCompleted).toHaveBeenCalledTimes(2);
    expect([...keys]).toEqual(["success:req_0001", "failed:req_0002"]);
  });

  it("skips deliveries an existing store already knows", async () => {
    const store = createMemoryDeliveryStore();
    await store.add("success:req_0001");
    const { handler, onCompleted } = setup(() => {}, store);
    expect((await handler(callbackRequest(succeeded))).status).toBe(200);
    expect(onCompleted).not.toHaveBeenCalled();
  });

  it("answers 500 when the store fails, so the delivery is retried", async () => {
    const { handler, onCompleted } = setup(() => {}, {
      has: () => {
        throw new Error("store offline");
      },
      add: () => {},
    });
    expect((await handler(callbackRequest(succeeded))).status).toBe(500);
    expect(onCompleted).not.toHaveBeenCalled();
    const failingAdd = setup(() => {}, { has: () => false, add: () => Promise.reject(new Error("offline")) });
    expect((await failingAdd.handler(callbackRequest(succeeded))).status).toBe(500);
  });
});

describe("createMemoryDeliveryStore", () => {
  it("keeps the most recently used keys up to its cap", () => {
    const store = createMemoryDeliveryStore(2);
    store.add("a");
    store.add("b");
    expect(store.has("a")).toBe(true);
    store.add("c");
    expect(store.has("b")).toBe(false);
    expect(store.has("a")).toBe(true);
    expect(store.has("c")).toBe(true);
    store.add("c");
    store.add("d");
    expect([store.has("a"), store.has("c"), store.has("d")]).toEqual([false, true, true]);
  });

  it("holds 10,000 keys by default", () => {
    const store = createMemoryDeliveryStore();
    for (let index = 0; index <= 10_000; index++) store.add(`k${index}`);
    expect(store.has("k0")).toBe(false);
    expect(store.has("k1")).toBe(true);
    expect(store.has("k10000")).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses a cap of %s", (maxKeys) => {
    expect(() => createMemoryDeliveryStore(maxKeys)).toThrow(
      new TypeError("maxKeys must be a positive integer"),
    );
  });
});
