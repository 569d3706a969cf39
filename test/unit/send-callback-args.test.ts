// send-callback's command line (issue 14, point 4), in-process: the callback the options describe,
// built by the mock's builder and valid by the contract (an independent Ajv check here), and every
// usage error, each naming its option and never the webhook key.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../mocks/domain/random.js";
import { callbackPayload, previewUrlOf } from "../../mocks/domain/rebuild/callback-payload.js";
import { defaultRebuildSeed } from "../../mocks/domain/rebuild/index.js";
import { USAGE } from "../../mocks/server/args.js";
import { UsageError } from "../../mocks/server/flags.js";
import { printable } from "../../mocks/server/printable.js";
import {
  parseSendCallbackArgs,
  SEND_CALLBACK_USAGE,
  type SendCallbackPlan,
} from "../../mocks/server/send-callback-args.js";
import { callbackViolations } from "../support/contract-validator.js";
import { PARTNER } from "../support/default-seed.js";

const KEY = "wk_send-callback-unit-key";
const REQUIRED = ["--to", "http://127.0.0.1:3000/hook", "--webhook-key", KEY];
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function plan(...args: string[]): SendCallbackPlan {
  const result = parseSendCallbackArgs([...REQUIRED, ...args]);
  if (result === "help") throw new Error("expected a plan");
  expect(callbackViolations(result.payload), "valid by the contract").toEqual([]);
  return result;
}

function usageError(args: readonly string[]): string {
  try {
    parseSendCallbackArgs(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`no usage error for ${JSON.stringify(args)}`);
}

describe("send-callback's options", () => {
  it("default to a success callback of the default seed's partner, with new GUIDs and a preview URL as the mock makes them", () => {
    const { to, webhookKey, payload, repeat } = plan();
    expect(to.href).toBe("http://127.0.0.1:3000/hook");
    expect(webhookKey).toBe(KEY);
    expect(repeat).toBe(1);
    expect(payload).toEqual({
      event_type: "partner_project_rebuild_completed",
      request_id: expect.stringMatching(GUID),
      partner_id: Number(PARTNER.ok.id),
      project_id: expect.stringMatching(GUID),
      source_url: "https://www.example.com/",
      status: "success",
      preview_url: previewUrlOf(payload.project_id),
    });
    // The default partner is the default seed's partner with webhooks.
    expect(defaultRebuildSeed.partners[0]).toMatchObject({
      id: payload.partner_id,
      webhookUrl: expect.any(String),
    });
    // A new delivery each time.
    expect(plan().payload.request_id).not.toBe(payload.request_id);
  });

  it("build the body with the mock's own builder: the same fields give the same callback", () => {
    const result = parseSendCallbackArgs(
      [...REQUIRED, "--status", "failed", "--error-code", "process_failed"],
      seededRandom(7),
    );
    if (result === "help") throw new Error("expected a plan");
    const { payload } = result;
    expect(payload).toEqual(
      callbackPayload({
        requestId: payload.request_id,
        partnerId: 1001,
        projectId: payload.project_id,
        sourceUrl: "https://www.example.com/",
        status: "failed",
        errorCode: "process_failed",
      }),
    );
    // Ids come from the injected randomness, as the mock's do.
    const again = parseSendCallbackArgs([...REQUIRED], seededRandom(7));
    expect(again !== "help" && again.payload.request_id).toBe(payload.request_id);
  });

  it("set every field they name; --status failed sends error details only when given", () => {
    const { payload, repeat } = plan(
      "--source-url",
      "https://shop.example.org/catalog",
      "--partner-id",
      "2002",
      "--request-id",
      "req-42",
      "--project-id",
      "prj 42/x",
      "--repeat",
      "3",
    );
    expect(payload).toMatchObject({
      request_id: "req-42",
      partner_id: 2002,
      project_id: "prj 42/x",
      source_url: "https://shop.example.org/catalog",
      status: "success",
      // The project id is encoded into the path, so any id gives a valid URI.
      preview_url: "https://preview.mock.example/projects/prj%2042%2Fx",
    });
    expect(repeat).toBe(3);

    const failed = plan("--status=failed", "--error-code", "process_failed", "--error-message", "It broke.");
    expect(failed.payload).toMatchObject({
      status: "failed",
      error_code: "process_failed",
      error_message: "It broke.",
    });
    expect(failed.payload).not.toHaveProperty("preview_url");
    const bare = plan("--status", "failed");
    expect(Object.keys(bare.payload)).not.toContain("error_code");
    expect(Object.keys(bare.payload)).not.toContain("error_message");
    expect(bare.payload).not.toHaveProperty("preview_url");
  });

  it("let the contract decide what partner_id may be: any JSON integer it accepts, as written", () => {
    expect(plan("--partner-id", "0").payload.partner_id).toBe(0);
    expect(plan("--partner-id", "-7").payload.partner_id).toBe(-7);
    expect(plan("--partner-id", "1e3").payload.partner_id).toBe(1000);
    expect(plan("--partner-id", "9007199254740991").payload.partner_id).toBe(9007199254740991);
  });

  it.each([
    [[], "--to is required"],
    [["--to", "http://x/"], "--webhook-key is required"],
    [
      ["--to", "ftp://x/", "--webhook-key", KEY],
      '--to must be an absolute http or https URL, got "ftp://x/"',
    ],
    [["--to", "/hook", "--webhook-key", KEY], "--to must be an absolute http or https URL"],
    [["--to", "127.0.0.1:3000", "--webhook-key", KEY], "--to must be an absolute http or https URL"],
    [["--to", "http://user:pw@x/", "--webhook-key", KEY], "--to must not carry user info"],
    [["--to"], "--to needs a value"],
    [["--to", "http://x/", "--webhook-key", " padded"], "--webhook-key must be a non-empty header value"],
    [["--to", "http://x/", "--webhook-key", "line\nbreak"], "--webhook-key must be a non-empty header value"],
    [
      [...REQUIRED, "--status", "done"],
      '--status "done" is refused by the contract\'s callback schema (status: expected "success" or "failed")',
    ],
    [
      [...REQUIRED, "--partner-id", "abc"],
      '--partner-id "abc" is refused by the contract\'s callback schema (partner_id: expected integer, got string)',
    ],
    [[...REQUIRED, "--partner-id", "1.5"], "(partner_id: expected integer, got number)"],
    [[...REQUIRED, "--partner-id", "0x10"], "(partner_id: expected integer, got string)"],
    [
      [...REQUIRED, "--partner-id", "99999999999999999999"],
      "(partner_id: must be within ±(2^53 - 1): JSON numbers beyond lose digits)",
    ],
    [
      [...REQUIRED, "--partner-id", "1e400"],
      '--partner-id "1e400" is refused by the contract\'s callback schema',
    ],
    [[...REQUIRED, "--error-code", "x"], "--error-code goes with --status failed"],
    [
      [...REQUIRED, "--status", "success", "--error-message", "x"],
      "--error-message goes with --status failed",
    ],
    [[...REQUIRED, "--repeat", "0"], "--repeat must be an integer from 1 to 100, got 0"],
    [[...REQUIRED, "--repeat", "101"], "--repeat must be an integer from 1 to 100, got 101"],
    [[...REQUIRED, "--repeat", "2.5"], "--repeat must be an integer from 1 to 100, got 2.5"],
    [[...REQUIRED, "--repeat", "1", "--repeat", "2"], "--repeat is given twice"],
    [[...REQUIRED, "--status", "failed", "--status", "failed"], "--status is given twice"],
    [[...REQUIRED, "--bogus"], "unknown option --bogus"],
    [[...REQUIRED, "extra"], "unexpected argument extra"],
    [[...REQUIRED, "--help=yes"], "--help takes no value, got --help=yes"],
  ])("refuse %j: %s", (args, message) => {
    expect(usageError(args)).toContain(message);
  });

  it("never quote the webhook key in a usage error", () => {
    for (const args of [
      ["--to", "http://x/", `--webhook-kee=${KEY}`],
      ["--to", "http://x/", "--webhook-key", `${KEY} `],
      ["--to", "http://x/", "--webhook-key", KEY, "--webhook-key", KEY],
      ["--webhook-key", KEY, "--status", "done"],
    ]) {
      expect(usageError(args)).not.toContain(KEY.slice(3));
    }
  });

  it("--help wins over missing or refused values; the usage documents every option, its limits and an example", () => {
    expect(parseSendCallbackArgs(["--help"])).toBe("help");
    expect(parseSendCallbackArgs(["--status", "done", "-h"])).toBe("help");
    for (const option of [
      "--to URL",
      "--webhook-key KEY",
      "--status S",
      "--error-code C",
      "--error-message M",
      "--source-url U",
      "--partner-id N",
      "--request-id ID",
      "--project-id ID",
      "--repeat N",
      "--help",
      "success or failed",
      "1 to 100",
      "2,000 characters",
      "10 s",
      "Example:\n  npx rebuild-dashboard-kit send-callback --to http",
    ]) {
      expect(SEND_CALLBACK_USAGE).toContain(option);
    }
    // The server's usage names the command.
    expect(USAGE).toContain("rebuild-dashboard-kit send-callback --to URL --webhook-key KEY");
  });
});

describe("printable", () => {
  it("escapes what a terminal would act on and keeps text, tabs and line ends", () => {
    expect(printable("a\x1b[2J\x1b]0;title\x07b")).toBe("a\\x1b[2J\\x1b]0;title\\x07b");
    expect(printable("x\x9b31my\x7f\x00")).toBe("x\\x9b31my\\x7f\\x00");
    expect(printable("safe\u202Eevil\u2066")).toBe("safe\\u202eevil\\u2066");
    expect(printable("one\r\ntwo\rthree\n\tfour")).toBe("one\ntwo\\x0dthree\n\tfour");
    expect(printable("héllo — 😀 ✓")).toBe("héllo — 😀 ✓");
  });
});
