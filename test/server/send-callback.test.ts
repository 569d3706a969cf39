// `rebuild-dashboard-kit send-callback` (issue 14, point 4) over real HTTP on 127.0.0.1: the CLI
// is started from source as `npm start` runs it, against the package's own webhook receiver
// (createRebuildWebhookHandler + toNodeHandler) and against receivers that fail, redirect, echo
// the key or never answer. The time-limit cases run the command's function with a short limit
// rather than waiting the service's 10 s.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../mocks/node.js";
import { sendCallback } from "../../mocks/server/send-callback.js";
import { parseSendCallbackArgs } from "../../mocks/server/send-callback-args.js";
import {
  createRebuildWebhookHandler,
  type RebuildCompletedCallback,
  toNodeHandler,
} from "../../src/webhooks/index.js";
import { PARTNER } from "../support/default-seed.js";
import { freePort } from "../support/free-port.js";
import { startScript, stopAll } from "./spawn-cli.js";

// Each case boots node with tsx: seconds, not milliseconds, on a busy machine.
const SLOW = 60_000;
const KEY = PARTNER.ok.webhookApiKey;

const servers: Server[] = [];
afterAll(async () => {
  await stopAll();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** What a receiver saw of one request. */
interface Seen {
  method: string;
  /** Header names lower-cased, in the order sent, with their values. */
  headers: Array<[string, string]>;
}

/** A server on 127.0.0.1:0 that records every request's method and headers, then lets `handle` answer. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      headers.push([(req.rawHeaders[i] ?? "").toLowerCase(), req.rawHeaders[i + 1] ?? ""]);
    }
    seen.push({ method: req.method ?? "", headers });
    handle(req, res);
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/rebuild`, port, seen };
}

/** The package's own receiver, recording the events its onCompleted got. */
async function packageReceiver(webhookApiKey: string = KEY) {
  const events: RebuildCompletedCallback[] = [];
  const handler = toNodeHandler(
    createRebuildWebhookHandler({
      webhookApiKey,
      onCompleted: (event) => {
        events.push(event);
      },
    }),
  );
  return { ...(await receiver((req, res) => void handler(req, res))), events };
}

/** Answers every request with `status` and `body` once the request's body has arrived. */
function answer(status: number, body: string, headers: Record<string, string> = {}) {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => res.writeHead(status, headers).end(body));
  };
}

async function run(args: readonly string[]) {
  const cli = startScript(["send-callback", ...args]);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** The attempt lines of the output: `Attempt 2 of 3: 200 OK in 4 ms, 17 bytes`. */
const attemptLines = (stdout: string) => stdout.split("\n").filter((line) => line.startsWith("Attempt "));

describe("send-callback against the package's own webhook receiver", () => {
  it.concurrent(
    "is accepted (exit 0): onCompleted gets the event with the fields given, sent as the mock's service sends it",
    async () => {
      const target = await packageReceiver();
      const { code, stdout, stderr } = await run([
        "--to",
        target.url,
        "--webhook-key",
        KEY,
        "--request-id",
        "req-send-callback-1",
        "--project-id",
        "prj-send-callback-1",
        "--partner-id",
        "2002",
        "--source-url",
        "https://shop.example.org/catalog",
      ]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(target.events).toEqual([
        {
          event_type: "partner_project_rebuild_completed",
          request_id: "req-send-callback-1",
          partner_id: 2002,
          project_id: "prj-send-callback-1",
          source_url: "https://shop.example.org/catalog",
          status: "success",
          preview_url: "https://preview.mock.example/projects/prj-send-callback-1",
        },
      ]);
      expect(attemptLines(stdout)).toEqual([
        expect.stringMatching(/^Attempt 1 of 1: 200 OK in \d+ ms, 17 bytes$/),
      ]);
      expect(stdout).toContain('  {"received":true}');
      expect(stdout).toContain("The attempt got a 2xx.");

      // The mock's service delivers a callback of its own to the same receiver: the two requests
      // carry the same headers, in the same order, with the same values (but the host's port
      // and the body's length, which differ).
      const mock = await startMockServer({ port: 0 });
      try {
        const control = (path: string, body: unknown) =>
          fetch(`${mock.origin}${path}`, {
            method: path.startsWith("/__mock/partners") ? "PUT" : "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        expect((await control(`/__mock/partners/${PARTNER.ok.id}`, { webhookUrl: target.url })).status).toBe(
          200,
        );
        const submitted = await fetch(`${mock.origin}/api/integration/partners/hostpanel/rebuilds`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-partner-id": PARTNER.ok.id,
            "x-api-key": PARTNER.ok.apiKey,
          },
          body: JSON.stringify({ sourceUrl: "https://www.example.com/" }),
        });
        expect(submitted.status).toBe(202);
        expect((await control("/__mock/clock/advance", { seconds: 5 })).status).toBe(200);
      } finally {
        await mock.close();
      }
      expect(target.events).toHaveLength(2);
      const [cli, service] = target.seen.map(({ method, headers }) => ({
        method,
        headers: headers.map(([name, value]) => [
          name,
          name === "host" || name === "content-length" ? "…" : value,
        ]),
      }));
      expect(cli).toEqual(service);
      expect(cli?.headers).toContainEqual(["content-type", "application/json"]);
      expect(cli?.headers).toContainEqual(["x-api-key", KEY]);
    },
    SLOW,
  );

  it.concurrent(
    "with the wrong key gets 401 and exits 1; onCompleted is not called",
    async () => {
      const target = await packageReceiver("the-receivers-own-key");
      const { code, stdout } = await run(["--to", target.url, "--webhook-key", KEY]);
      expect(code).toBe(1);
      expect(target.events).toEqual([]);
      expect(attemptLines(stdout)).toEqual([
        expect.stringMatching(/^Attempt 1 of 1: 401 Unauthorized in \d+ ms/),
      ]);
      expect(stdout).toContain("X-API-Key does not match the configured webhook API key");
      expect(stdout).toContain("1 of 1 attempt did not get a 2xx; the service would retry the delivery.");
    },
    SLOW,
  );

  it.concurrent(
    "--repeat 3 sends the same delivery three times: three 200s, onCompleted called once, exit 0",
    async () => {
      const target = await packageReceiver();
      const { code, stdout } = await run(["--to", target.url, "--webhook-key", KEY, "--repeat", "3"]);
      expect(code).toBe(0);
      expect(target.seen).toHaveLength(3);
      expect(target.events).toHaveLength(1);
      expect(attemptLines(stdout)).toEqual(
        [1, 2, 3].map((n) => expect.stringMatching(new RegExp(`^Attempt ${n} of 3: 200 OK in \\d+ ms`))),
      );
      expect(stdout).toContain("All 3 attempts got a 2xx.");
    },
    SLOW,
  );

  it.concurrent(
    "--status failed sends error details when given, and none when not",
    async () => {
      const target = await packageReceiver();
      const withDetails = await run([
        "--to",
        target.url,
        "--webhook-key",
        KEY,
        "--status",
        "failed",
        "--error-code",
        "process_failed",
        "--error-message",
        "The source site could not be processed.",
      ]);
      const without = await run(["--to", target.url, "--webhook-key", KEY, "--status", "failed"]);
      expect([withDetails.code, without.code]).toEqual([0, 0]);
      expect(target.events).toEqual([
        expect.objectContaining({
          status: "failed",
          error_code: "process_failed",
          error_message: "The source site could not be processed.",
        }),
        expect.objectContaining({ status: "failed" }),
      ]);
      expect(Object.keys(target.events[1] ?? {}).sort()).toEqual(
        ["event_type", "partner_id", "project_id", "request_id", "source_url", "status"].sort(),
      );
    },
    SLOW,
  );
});

describe("send-callback against receivers that fail", () => {
  it.concurrent(
    "a 500 is printed with its body and exits 1; every repeat is still sent",
    async () => {
      const target = await receiver(answer(500, '{"error":"receiver exploded"}'));
      const { code, stdout } = await run(["--to", target.url, "--webhook-key", KEY, "--repeat", "2"]);
      expect(code).toBe(1);
      expect(target.seen).toHaveLength(2);
      expect(attemptLines(stdout)).toEqual([
        expect.stringMatching(/^Attempt 1 of 2: 500 Internal Server Error in \d+ ms, 29 bytes$/),
        expect.stringMatching(/^Attempt 2 of 2: 500 Internal Server Error in \d+ ms, 29 bytes$/),
      ]);
      expect(stdout).toContain('  {"error":"receiver exploded"}');
      expect(stdout).toContain("2 of 2 attempts did not get a 2xx");
    },
    SLOW,
  );

  it.concurrent(
    "a redirect is not followed (as by the service) and fails the attempt",
    async () => {
      const elsewhere = await packageReceiver();
      const target = await receiver(answer(307, "", { location: elsewhere.url }));
      const { code, stdout } = await run(["--to", target.url, "--webhook-key", KEY]);
      expect(code).toBe(1);
      expect(elsewhere.seen).toEqual([]);
      expect(stdout).toContain(`Attempt 1 of 1: 307 Temporary Redirect in`);
      expect(stdout).toContain(`  Location: ${elsewhere.url} (not followed, as by the service)`);
      expect(stdout).toContain("  (no body)");
    },
    SLOW,
  );

  it.concurrent(
    "a receiver that cannot be reached is named by host and port; exit 1 and no further attempts",
    async () => {
      const port = await freePort();
      const { code, stdout } = await run([
        "--to",
        `http://127.0.0.1:${port}/hook`,
        "--webhook-key",
        KEY,
        "--repeat",
        "3",
      ]);
      expect(code).toBe(1);
      expect(attemptLines(stdout)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Attempt 1 of 3: no answer after \\d+ ms: 127\\.0\\.0\\.1:${port} refused the connection \\(ECONNREFUSED\\); is the receiver running\\?$`,
          ),
        ),
      ]);
      expect(stdout).toContain("The receiver could not be reached, so 2 attempts more were not sent.");
    },
    SLOW,
  );

  it.concurrent(
    "never prints the webhook key, whatever form the receiver echoes it in, nor a control character it sends",
    async () => {
      const target = await receiver((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          const key = String(req.headers["x-api-key"]);
          const echo = [
            `raw ${key}`,
            `json ${JSON.stringify(req.headers)}`,
            `base64 ${Buffer.from(`X-API-Key: ${key}`).toString("base64")}`,
            `percent ${encodeURIComponent(key)}`,
            `upper-escapes ${encodeURIComponent(key).toUpperCase()}`,
            "\x1b[2J\x1b[31mred\x1b]0;title\x07\u202eevil\r\nlast",
            "x".repeat(3000),
            `tail ${key}`,
          ].join("\n");
          res.writeHead(418, `I echo ${key}`).end(echo);
        });
      });
      const { code, stdout, stderr } = await run(["--to", target.url, "--webhook-key", KEY]);
      expect(code).toBe(1);
      const output = stdout + stderr;
      for (const form of [KEY, Buffer.from(KEY).toString("base64").slice(0, 12), encodeURIComponent(KEY)]) {
        expect(output).not.toContain(form);
      }
      expect(output).toContain("Attempt 1 of 1: 418 I echo [REDACTED] in");
      expect(output).toContain("  raw [REDACTED]");
      expect(output).toContain('"x-api-key":"[REDACTED]"');
      // Escaped, never written: no escape sequence, no bell, no carriage return, no bidi override.
      for (const char of ["\x07", "\x1b", "\r", "\u202e"]) expect(output).not.toContain(char);
      expect(output).toContain("  \\x1b[2J\\x1b[31mred\\x1b]0;title\\x07\\u202eevil");
      expect(output).toContain("  last");
      // Cut to 2,000 characters: the tail (and its key) is not shown.
      expect(output).toContain("... (the first 2000 characters are shown)");
      expect(output).not.toContain("tail");
    },
    SLOW,
  );
});

describe("send-callback's command line", () => {
  it.concurrent(
    "a usage error exits 2 with the message and the usage, and sends nothing",
    async () => {
      const target = await packageReceiver();
      for (const [args, message] of [
        [["--partner-id", "abc"], `--partner-id "abc" is refused by the contract's callback schema`],
        [["--error-code", "x"], "--error-code goes with --status failed"],
        [["--repeat", "1000"], "--repeat must be an integer from 1 to 100, got 1000"],
        [["--bogus"], "unknown option --bogus"],
      ] as const) {
        const { code, stdout, stderr } = await run(["--to", target.url, "--webhook-key", KEY, ...args]);
        expect(code, message).toBe(2);
        expect(stderr).toContain(message);
        expect(stderr).toContain("Usage: rebuild-dashboard-kit send-callback --to URL --webhook-key KEY");
        expect(stdout).toBe("");
      }
      const missing = await run(["--to", "ftp://example.com/"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        '--to must be an absolute http or https URL, got "ftp://example.com/"',
      );
      expect(target.seen).toEqual([]);
    },
    SLOW,
  );

  it.concurrent(
    "--help documents the command and exits 0; the server's --help names it",
    async () => {
      const help = await run(["--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(
        "Usage: rebuild-dashboard-kit send-callback --to URL --webhook-key KEY [options]",
      );
      expect(help.stdout).toContain("Example:");
      const server = startScript(["--help"]);
      expect((await server.exited).code).toBe(0);
      expect(server.stdout()).toContain(
        "rebuild-dashboard-kit send-callback --to URL --webhook-key KEY [options]",
      );
      expect(server.stdout()).not.toContain("Listening on");
    },
    SLOW,
  );
});

describe("send-callback's time limit (the service's 10 s, made short here)", () => {
  function planFor(url: string, repeat = 1) {
    const plan = parseSendCallbackArgs(["--to", url, "--webhook-key", KEY, "--repeat", String(repeat)]);
    if (plan === "help") throw new Error("expected a plan");
    return plan;
  }
  function collect() {
    const lines: string[] = [];
    return {
      lines,
      output: { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) },
    };
  }

  it("a receiver that never answers is reported by host and port, exit 1, no further attempts", async () => {
    const target = await receiver(() => undefined);
    const { lines, output } = collect();
    expect(await sendCallback(planFor(target.url, 3), { output, timeoutMs: 300 })).toBe(1);
    expect(target.seen).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Attempt 1 of 3: no answer after \\d+ ms: 127\\.0\\.0\\.1:${target.port} did not answer within 0\\.3 s \\(timed out\\)$`,
        ),
      ),
    );
    expect(lines.at(-1)).toContain("so 2 attempts more were not sent");
  });

  it("a key echoed across the 2,000-character cut is redacted whole before the body is cut", async () => {
    for (const before of [1990, 1995, 1999, 2000]) {
      const target = await receiver(answer(200, `${"y".repeat(before)}${KEY}${"z".repeat(5000)}`));
      const { lines, output } = collect();
      expect(await sendCallback(planFor(target.url), { output })).toBe(0);
      // Not one character of the key: what is cut is the redaction mark.
      const shown = `${"y".repeat(before)}[REDACTED]${"z".repeat(5000)}`.slice(0, 2000);
      expect(lines, String(before)).toContain(`  ${shown}`);
      expect(lines).toContain("  ... (the first 2000 characters are shown)");
    }
  });

  it("no 8 characters in a row of the key are printed: upper-cased, shortened, hex, the tail of its Base64", async () => {
    const b64 = Buffer.from(KEY).toString("base64");
    const echoes = [
      KEY.toUpperCase(),
      KEY.slice(0, -1),
      KEY.slice(0, 8),
      KEY.slice(-8),
      Buffer.from(KEY).toString("hex").toUpperCase(),
      b64.slice(8),
      b64.toLowerCase(),
    ];
    const target = await receiver(answer(200, echoes.map((echo) => `<${echo}>`).join("\n")));
    const { lines, output } = collect();
    expect(await sendCallback(planFor(target.url), { output })).toBe(0);
    expect(lines).toContain("  <[REDACTED]>");
    const printed = lines.join("\n").toLowerCase();
    for (const form of [KEY, Buffer.from(KEY).toString("hex"), b64.slice(0, -2)]) {
      for (let n = 0; n + 8 <= form.length; n++)
        expect(printed).not.toContain(form.slice(n, n + 8).toLowerCase());
    }
    expect(lines.filter((line) => line.startsWith("  <"))).toEqual(echoes.map(() => "  <[REDACTED]>"));
  });

  it("an answer whose body does not end in time fails the attempt, as the service counts it", async () => {
    const target = await receiver((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
      });
    });
    const { lines, output } = collect();
    expect(await sendCallback(planFor(target.url), { output, timeoutMs: 300 })).toBe(1);
    expect(lines).toContainEqual(expect.stringMatching(/^Attempt 1 of 1: 200 OK in \d+ ms, 7 bytes$/));
    expect(lines).toContain("  partial");
    expect(lines).toContain("  the body did not end within 0.3 s: the service counts this attempt as failed");
    expect(lines.at(-1)).toContain("1 of 1 attempt did not get a 2xx");
  });
});
