// A real HTTP server on 127.0.0.1 (port 0) whose every answer a test scripts: the misbehaving
// servers an integrator's production meets. It records each request (method, path, headers).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import {
  DashboardClient,
  type DashboardClientOptions,
  RebuildClient,
  type RebuildClientOptions,
} from "../../../src/index.js";

interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
}

export type Answer = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export interface Misbehaving {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: SeenRequest[];
  dashboard(options?: Partial<DashboardClientOptions>): DashboardClient;
  rebuild(options?: Partial<RebuildClientOptions>): RebuildClient;
}

export const TOKEN = "dmt_misbehaving_token_3f9c2b7a51e84d06a9d1";
const API_KEY = "rbk_misbehaving_key_6b1f0e9d2c8a4735aa90";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A server answering request number `n` (from 1) with `answer`; closed after the test. */
export async function misbehaving(answer: Answer): Promise<Misbehaving> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    // The request body is drained so that an answer never races an unread upload.
    req.resume();
    answer(req, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return {
    origin,
    requests,
    dashboard: (options = {}) =>
      new DashboardClient({ baseUrl: `${origin}/v1`, token: TOKEN, maxRetries: 2, ...options }),
    rebuild: (options = {}) =>
      new RebuildClient({ baseUrl: origin, partnerId: 1001, apiKey: API_KEY, maxRetries: 2, ...options }),
  };
}

/** An answer with a JSON (or, given a string, raw) body. */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(text);
  };
}

/** What a call rejected with (fails the test when it resolved). */
export async function rejection(promise: PromiseLike<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to reject, it resolved");
}
