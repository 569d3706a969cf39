import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, TimeoutError } from "../../../src/core/errors.js";
import { sleep } from "../../../src/core/timers.js";
import { errorBody, json, setup, times } from "./helpers.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const ok = () => json(200, { totalCount: 0, data: [] });

async function expectAbortError(promise: Promise<unknown>) {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DOMException);
  expect((error as DOMException).name).toBe("AbortError");
}

describe("abort", () => {
  it("an already aborted signal rejects without a request", async () => {
    const { list, fetch } = setup([ok]);
    const controller = new AbortController();
    controller.abort();
    await expectAbortError(list({ signal: controller.signal }));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("aborting during a request rejects at once and does not retry", async () => {
    const { list, fetch, requests } = setup(["hang", ok]);
    const controller = new AbortController();
    const call = list({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    expect(fetch).toHaveBeenCalledTimes(1);
    controller.abort();
    await expectAbortError(call);
    expect(requests[0]?.signal.aborted).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("aborting with a reason of one's own still rejects with an AbortError", async () => {
    const { list } = setup(["hang"]);
    const controller = new AbortController();
    const call = list({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error("user navigated away"));
    await expectAbortError(call);
  });

  it("aborting during a backoff wait rejects at once", async () => {
    // The real sleep (on fake timers): the wait is 0.5 · 500 ms = 250 ms.
    const { list, fetch } = setup([() => json(503, errorBody("UNAVAILABLE")), ok], {}, { sleep });
    const controller = new AbortController();
    const call = list({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).toHaveBeenCalledTimes(1);
    controller.abort();
    await expectAbortError(call);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("aborting during a long Retry-After wait rejects at once", async () => {
    const limited = () => json(429, errorBody("RATE_LIMIT_EXCEEDED"), { "retry-after": "30" });
    const { list, fetch } = setup([limited, ok], {}, { sleep });
    const controller = new AbortController();
    const call = list({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(29_000);
    controller.abort();
    await expectAbortError(call);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a custom fetch that ignores its signal cannot delay the abort", async () => {
    const { list } = setup([], { fetch: () => new Promise<Response>(() => {}) });
    const controller = new AbortController();
    const call = list({ signal: controller.signal });
    controller.abort();
    await expectAbortError(call);
  });

  it("an abort after success changes nothing and leaves no listener behind", async () => {
    const { list } = setup([ok]);
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    await expect(list({ signal: controller.signal })).resolves.toEqual({ totalCount: 0, data: [] });
    expect(remove).toHaveBeenCalledWith("abort", expect.any(Function));
    controller.abort();
  });
});

describe("timeouts", () => {
  it("the client's timeoutMs applies to each attempt", async () => {
    const { list, fetch } = setup(["hang", "hang", ok], { timeoutMs: 2000 });
    const call = list();
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(call).resolves.toEqual({ totalCount: 0, data: [] });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("defaults to 60 s", async () => {
    const { list } = setup(["hang"], { maxRetries: 0 });
    const call = list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe("GET https://api.test/v1/items timed out after 60000 ms");
  });

  it("a call's timeoutMs overrides the client's", async () => {
    const { list } = setup(["hang"], { timeoutMs: 60_000, maxRetries: 0 });
    const call = list({ timeoutMs: 1000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe("GET https://api.test/v1/items timed out after 1000 ms");
  });

  it("after retries the last timeout surfaces", async () => {
    const { list, fetch } = setup(times(3, "hang"), { timeoutMs: 100 });
    const call = list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(300);
    expect(await call).toBeInstanceOf(TimeoutError);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("the timeout covers reading the body", async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"totalCount":')) }),
        {
          status: 200,
        },
      );
    const { list } = setup([stalled], { timeoutMs: 500, maxRetries: 0 });
    const call = list().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    expect(await call).toBeInstanceOf(TimeoutError);
  });

  it("an infinite timeout never fires", async () => {
    const { list } = setup(["hang"], { timeoutMs: Number.POSITIVE_INFINITY });
    let settled = false;
    const call = list().finally(() => {
      settled = true;
    });
    call.catch(() => {});
    await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
    expect(settled).toBe(false);
  });
});

describe("without a timeout (timeoutMs: Infinity)", () => {
  it("no timer is armed and fetch follows the caller's own signal", async () => {
    const inits: RequestInit[] = [];
    vi.stubGlobal("fetch", (_url: string, init: RequestInit) => {
      inits.push(init);
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    });
    try {
      const { list } = setup([], { fetch: undefined as never, timeoutMs: Number.POSITIVE_INFINITY });
      const controller = new AbortController();
      const call = list({ signal: controller.signal });
      await vi.advanceTimersByTimeAsync(10);
      expect(inits[0]?.signal).toBe(controller.signal);
      expect(vi.getTimerCount()).toBe(0);
      controller.abort();
      await expectAbortError(call);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("without a caller's signal fetch gets none", async () => {
    const inits: RequestInit[] = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      inits.push(init);
      return ok();
    });
    try {
      const { list } = setup([], { fetch: undefined as never });
      await list({ timeoutMs: Number.POSITIVE_INFINITY });
      expect(inits[0]?.signal).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a custom fetch that ignores its signal still cannot delay the caller's abort", async () => {
    const { list } = setup([], { fetch: () => new Promise<Response>(() => {}) });
    const controller = new AbortController();
    const call = list({ signal: controller.signal, timeoutMs: Number.POSITIVE_INFINITY });
    controller.abort();
    await expectAbortError(call);
  });
});

describe("a call's timeoutMs out of range", () => {
  it.each([0, -1, Number.NaN, "5" as never])(
    "%s rejects with a TypeError and sends nothing",
    async (timeoutMs) => {
      const { list, fetch } = setup([ok]);
      const error = await list({ timeoutMs }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        "timeoutMs must be a number of milliseconds above 0, or Infinity for none",
      );
      expect(fetch).not.toHaveBeenCalled();
    },
  );
});

describe("sleep", () => {
  it("resolves after the delay", async () => {
    let done = false;
    void sleep(1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it("rejects with an AbortError when aborted, before or during", async () => {
    const controller = new AbortController();
    const during = sleep(1000, controller.signal);
    controller.abort();
    await expectAbortError(during);
    await expectAbortError(sleep(1000, controller.signal));
  });
});
