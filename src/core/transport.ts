import createClient, { type Client, type Middleware } from "openapi-fetch";
import { APIPromise, type WithResponse } from "./api-promise.js";
import {
  type ApiError,
  abortError,
  ConnectionError,
  createApiError,
  ResponseTooLargeError,
  ResponseValidationError,
  SdkError,
  TimeoutError,
} from "./errors.js";
import {
  type CommonClientOptions,
  checkBaseUrl,
  checkNumber,
  checkNumericOptions,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
} from "./options.js";
import { retryAfterMs } from "./rate-limit.js";
import { errorCode, redact, redactHeaders, sanitizeError, secretForms } from "./redact.js";
import { RequestDraft } from "./request-draft.js";
import { contractElement, invalidResponses } from "./response-problem.js";
import { checkShape, type ResponseShapes, type ShapeIssue } from "./shape.js";
import { sleep, startTimer } from "./timers.js";
import { SDK_USER_AGENT } from "./version.js";

/**
 * Whether an operation may be sent again when it is unknown whether the server acted on it.
 * `"safe"`: reads, deletes, and submissions the server deduplicates (the rebuild, idempotent per
 * `sourceUrl`); retried after connection errors, timeouts, 408, 429 and 5xx.
 * `"delete"`: retried like `"safe"`; a 404 to a retry resolves as done, since an earlier attempt
 * may have deleted the resource, which is gone either way.
 * `"unsafe"`: everything else (creating a token, connecting servers, sending invitations); retried
 * only when the request certainly never left: connection refused or DNS failure.
 */
export type RetryPolicy = "safe" | "delete" | "unsafe";

/** The shape openapi-fetch resolves to. */
interface FetchResult {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}

/** The success data type of an openapi-fetch result (`undefined` for a 204). */
type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;

/** What a client (DashboardClient, RebuildClient) gives `createTransport`. */
export interface TransportOptions extends CommonClientOptions {
  /** The client's name, which starts the message of an option's TypeError. */
  readonly client: string;
  /**
   * Prefix of every path, e.g. `https://dashboard.example.com/v1` (trailing slashes dropped). Never
   * carries a secret.
   */
  readonly baseUrl: string;
  /**
   * Credentials, sent on every request; neither the `headers` option nor a middleware can replace
   * them. Their names are the contract's security schemes' headers, which logs show redacted whole.
   */
  readonly authHeaders: Readonly<Record<string, string>>;
  /**
   * Values redacted, in every form a server could echo them (`secretForms`), from every log line,
   * error message, cause and error property.
   */
  readonly secrets: readonly string[];
  /** Shapes of the document's success responses (src/generated/<document>-responses.ts). */
  readonly responses?: ResponseShapes;
  /**
   * What a success body that does not hold its shape may mean, by `METHOD /path` (the key of
   * `responses`): a note added to the `ResponseValidationError`.
   */
  readonly invalidNotes?: Readonly<Record<string, InvalidResponseNote>>;
  /** Sees the headers of every response as it arrives, whatever its status. */
  readonly onResponse?: (headers: Headers, now: number) => void;
}

/**
 * What the response check adds to a `ResponseValidationError` when the body it could not accept
 * may mean the server acted: a sentence for the message, and the id of what was created when the
 * body had one.
 */
export type InvalidResponseNote = (body: unknown) => {
  readonly note: string;
  readonly tokenId: number | undefined;
};

/** Seams for tests, so that no test waits for real. Not part of the public API. */
export interface TransportHooks {
  /** Waits before a retry; must reject with an AbortError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1), for the backoff's jitter. */
  random(): number;
  /** Epoch ms, for `Retry-After` dates, `resetAt` and logged durations. */
  now(): number;
}

/**
 * What a resource method spreads into its `.http` call: the call's own `fetch` (its policy and
 * options) and headers. (A type literal: openapi-fetch's init is indexed by any string.)
 */
type CallInit = {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly headers?: Headers;
};

/**
 * One client's request pipeline: `http`, the openapi-fetch client every call goes through, and a
 * function for the resource methods. Keep it in a private field: its closures hold the credentials.
 *
 * The function runs `run` (one call on `http`, given `init`, which carries the call's policy and
 * options) and resolves to the success data, passed through `map` when given (with the Response,
 * for a result that depends on the status); it rejects with the typed error of the last attempt,
 * or with an AbortError DOMException when `opts.signal` aborts.
 *
 * ```ts
 * list(query: ListServersQuery = {}, opts?: RequestOptions) {
 *   return this.#t("safe", opts, (http, init) => http.GET("/si/servers", { ...init, params: { query } }));
 * }
 * ```
 */
export type Transport<Paths extends {}> = (<R extends FetchResult, T = DataOf<R>>(
  policy: RetryPolicy,
  opts: RequestOptions | undefined,
  run: (http: Client<Paths>, init: CallInit) => Promise<R>,
  map?: (data: DataOf<R>, response: Response) => T,
) => APIPromise<T>) & { readonly http: Client<Paths> };

/** One call as the `fetch` option sees it: its policy and options, and the attempts made so far. */
interface Call {
  readonly policy: RetryPolicy;
  readonly timeoutMs: number;
  readonly retries: number;
  /** The caller's signal: an attempt's own signal follows it, and a retry wait ends with it. */
  readonly signal: AbortSignal | undefined;
  /**
   * A resource method's call no user middleware sees (none was added with `http.use`): the SDK alone
   * reads its request, a RequestDraft, and its Response, which then carries no body; the data is
   * what the response check parsed.
   */
  readonly unobserved: boolean;
  attempts: number;
  /** The request openapi-fetch built (after the middleware), for labels. */
  request?: Request | RequestDraft;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;
// Codes undici (Node) puts on a fetch TypeError's cause when no connection was ever made, so the
// server cannot have seen the request.
const NOT_SENT_CODES = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"];
// The methods of the `.http` calls retried as "safe": repeating them is harmless.
const REPEATABLE_METHODS = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
// A Response with one of these statuses cannot have a body.
const NULL_BODY_STATUSES = [204, 205, 304];

// Shared by every call. Decoding without `stream` resets it each time; like response.text(): UTF-8,
// a BOM dropped, malformed bytes replaced.
const decoder = new TextDecoder();

/**
 * Builds the pipeline for one client; throws a TypeError naming the client and the option when
 * `baseUrl` or a numeric option is out of range. `hooks` exist for tests only.
 */
export function createTransport<Paths extends {}>(
  options: TransportOptions,
  hooks: Partial<TransportHooks> = {},
): Transport<Paths> {
  const { sleep: wait = sleep, random = Math.random, now = Date.now } = hooks;
  const { client, fetch: customFetch, logger, responses, invalidNotes, onResponse, authHeaders } = options;
  const baseUrl = checkBaseUrl(client, options.baseUrl);
  checkNumericOptions(client, options);
  const secrets = secretForms(options.secrets);
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const clientTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const auth = buildHeaders(client, authHeaders);
  // The text of each body `send` read, for the response check (a middleware's Response may be another).
  const texts = new WeakMap<Response, string>();
  // The data the response check parsed from each success body, for the resource methods.
  const parsed = new WeakMap<Response, unknown>();
  // Whether the user added middleware (`http.use`), which may read any Response.
  let observed = false;
  // What a body with a problem becomes: a ResponseValidationError, or (validateResponses: "warn") a
  // warning, and the body resolves as received (in `asReceived`: not passed through a method's `map`).
  const onInvalid = invalidResponses(client, options.validateResponses, logger);
  const asReceived = new WeakSet<Response>();

  /** The wait before retry number `retry` (from 0), or undefined when `failure` must surface now. */
  function retryDelay(
    failure: unknown,
    policy: RetryPolicy,
    retry: number,
    retries: number,
  ): number | undefined {
    if (retry >= retries) return undefined;
    let hinted: number | undefined;
    if (failure instanceof Response) {
      const { status } = failure;
      if (policy === "unsafe" || !(status === 408 || status === 429 || status >= 500)) return undefined;
      hinted = retryAfterMs(failure.headers, status, now());
      if (hinted !== undefined && hinted > maxRetryAfterMs) return undefined;
    } else if (
      !(failure instanceof ConnectionError) ||
      // An unsafe call is sent again only when it certainly never left.
      (policy === "unsafe" &&
        (failure instanceof TimeoutError || !NOT_SENT_CODES.includes(errorCode(failure.cause) as string)))
    ) {
      return undefined;
    }
    // Full jitter: uniform in [0, min(cap, base · 2^retry)), so clients that failed together spread out.
    return hinted ?? random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  }

  /**
   * One attempt: sends `init` (the attempt's request, with its signal) to `request`'s URL, reads the
   * answer's body up to maxResponseBytes, and resolves to a Response holding what was read.
   */
  async function attempt(
    request: Request | RequestDraft,
    init: RequestInit,
    number: number,
    lean: boolean,
  ): Promise<Response> {
    const started = logger ? now() : 0;
    const log =
      logger &&
      ((outcome: string | number) =>
        logger.debug(
          redact(`${labelOf(request)} attempt ${number}: ${outcome} in ${now() - started} ms`, secrets),
          {
            headers: Object.fromEntries(redactHeaders(init.headers as Headers, secrets)),
          },
        ));
    let response: Response;
    try {
      // globalThis.fetch is looked up now, so a mock installed after the client was built applies.
      // Sent by URL: a Request built from another costs more than one built from its URL.
      response = await (customFetch ? customFetch(new Request(request.url, init)) : fetch(request.url, init));
    } catch (error) {
      log?.(`failed (${errorCode(error) ?? (error as Error)?.name})`);
      throw error;
    }
    log?.(response.status);
    onResponse?.(response.headers, now());
    const { status, statusText, headers } = response;
    // The body, read chunk by chunk (fetch has already decompressed it) and counted as it comes:
    // past maxResponseBytes it is cancelled at once, so a decompression bomb never holds more than
    // about that in memory.
    const reader = response.body?.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      size += chunk.value.length;
      if (size > maxBytes) {
        reader?.cancel().catch(() => {});
        throw new ResponseTooLargeError(
          redact(`${labelOf(request)} answered ${status} with a body over ${maxBytes} bytes`, secrets),
          { status, method: request.method, path: new URL(request.url).pathname, maxResponseBytes: maxBytes },
        );
      }
      chunks.push(chunk.value);
    }
    // A browser's answer to a redirect not followed has status 0 and no body: no Response can be built with it.
    if (status < 200) return response;
    // Most bodies come in one chunk; others are joined once, then decoded (a character may span two).
    const text = decoder.decode(chunks[1] ? await new Blob(chunks).arrayBuffer() : chunks[0]);
    // A body costs a stream to build: where no one but the SDK reads it, the Response fetch gave
    // (its body consumed) is handed on.
    const read =
      lean && response.ok
        ? response
        : new Response(NULL_BODY_STATUSES.includes(status) ? null : text, { status, statusText, headers });
    texts.set(read, text);
    return read;
  }

  /**
   * openapi-fetch's `fetch` for one call: the attempts of `call`, each with its timeout and the
   * credentials, until one answers with a status that is not retried (a success, or an error that
   * openapi-fetch returns as `error`) or an error that no response came with must surface (thrown).
   */
  async function send(request: Request | RequestDraft, call: Call): Promise<Response> {
    const { policy, timeoutMs, retries, signal } = call;
    call.request = request;
    // Credentials last, below every middleware: nothing a caller sets replaces them.
    const draft = request instanceof RequestDraft;
    const headers = new Headers(draft ? request.init.headers : request.headers);
    for (const [name, value] of auth) headers.set(name, value);
    // What each attempt sends: the request as openapi-fetch and the middleware left it, its body
    // read once (a draft's init holds the serialised text itself).
    const sent: RequestInit = draft
      ? request.init
      : {
          method: request.method,
          body: request.body && (await request.arrayBuffer()),
          redirect: request.redirect,
          credentials: request.credentials,
          keepalive: request.keepalive,
        };
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw abortError();
      call.attempts = retry + 1;
      // One signal per attempt, for the timeout and the caller's abort. Without a timeout, fetch
      // follows the caller's signal (if any) directly.
      const controller = timeoutMs < Infinity ? new AbortController() : undefined;
      const init: RequestInit = { ...sent, headers, signal: controller?.signal ?? signal ?? null };
      let failure: unknown;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort!: (reason?: unknown) => void;
      try {
        // Cancelling rejects the attempt itself, so a custom fetch (or a body) that ignores its signal
        // cannot outlive the timeout or the caller's abort.
        const response = await new Promise<Response>((resolve, reject) => {
          onAbort = reject;
          signal?.addEventListener("abort", reject, { once: true });
          // `init` itself as the reason: only a timeout rejects with it.
          timer = controller && startTimer(timeoutMs, () => reject(init));
          attempt(request, init, retry + 1, call.unobserved).then(resolve, reject);
        });
        if (response.ok) return response;
        failure = response;
      } catch (error) {
        // Whatever went wrong (a timeout, the caller's abort, a body over maxResponseBytes), the
        // request is let go.
        controller?.abort();
        // A connection error names the host too: which service did not answer matters.
        failure =
          error === init
            ? new TimeoutError(redact(`${labelOf(request, true)} timed out after ${timeoutMs} ms`, secrets))
            : error instanceof SdkError
              ? error
              : new ConnectionError(
                  redact(`${labelOf(request, true)} failed: ${errorCode(error) ?? "no response"}`, secrets),
                  { cause: sanitizeError(error, secrets) },
                );
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
      if (signal?.aborted) throw abortError();
      const delay = retryDelay(failure, policy, retry, retries);
      if (delay === undefined) {
        if (failure instanceof Response) return failure;
        throw failure;
      }
      if (logger) {
        const reason =
          failure instanceof Response
            ? failed(failure, request, errorBody(texts.get(failure) ?? "")).message
            : (failure as Error).message;
        logger.info(`${reason}; retry ${retry + 1} of ${retries} in ${Math.round(delay)} ms`);
      }
      await wait(delay, signal);
    }
  }

  /** The typed error of a non-2xx answer to `request`, from its body (parsed as openapi-fetch parses an error's). */
  function failed(response: Response, request: Request | RequestDraft | undefined, body: unknown): ApiError {
    return createApiError(response, body, {
      label: request ? labelOf(request) : client,
      secrets,
      now: now(),
    });
  }

  /**
   * The response check, the last `onResponse` to run (middleware added later run before it): a
   * success body must be JSON holding the operation's documented shape (an undocumented 2xx is read
   * as the operation's first documented one), or nothing where none is documented; without a table,
   * any JSON (or nothing) goes.
   */
  const responseCheck: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      if (!response.ok) return undefined;
      const text = texts.get(response) ?? (await response.clone().text());
      const { status } = response;
      const operation = `${request.method} ${schemaPath}`;
      const byStatus = responses?.[operation];
      // An undocumented 2xx is read as the operation's first documented one.
      const documented = byStatus && (status in byStatus ? status : Object.keys(byStatus)[0]);
      const shape = byStatus?.[documented as string];
      // Whatever came where no body is documented is dropped (its Content-Length too, or openapi-fetch
      // would read a body).
      if (shape === null || !(text || shape)) {
        if (!text) return undefined;
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        return new Response(null, { status, statusText: response.statusText, headers });
      }
      // A body that is not JSON stays its text (what validateResponses: "warn" resolves to).
      let data: unknown = text;
      let problem: string | undefined;
      let jsonPath = "$";
      let issue: ShapeIssue | undefined;
      try {
        data = JSON.parse(text);
      } catch {
        // The parser's message quotes the body, which may hold a new token's secret: never kept.
        problem = text ? "a body that is not valid JSON" : "an empty body";
      }
      if (shape && !problem) {
        issue = checkShape(shape, data)[0];
        if (issue) {
          jsonPath = issue.path;
          problem = `an unexpected body (${jsonPath}: ${issue.message})`;
        }
      }
      if (!problem) {
        parsed.set(response, data);
        return undefined;
      }
      const extra = invalidNotes?.[operation]?.(data);
      onInvalid(
        new ResponseValidationError(
          redact(
            `${labelOf(request)} answered ${status} with ${problem}${extra ? `. ${extra.note}` : ""}`,
            secrets,
          ),
          {
            status,
            method: request.method,
            path: new URL(request.url).pathname,
            jsonPath,
            tokenId: extra?.tokenId,
            ...contractElement(issue, request.method, schemaPath, documented, shape),
          },
        ),
      );
      // Only "warn" comes here: the body as received.
      parsed.set(response, data);
      asReceived.add(response);
      return undefined;
    },
  };

  const http = createClient<Paths>({
    baseUrl,
    headers: buildHeaders(client, {
      // Browsers ignore a page's User-Agent or, as a non-safelisted header, make the server's CORS
      // policy allow it; every browser's own User-Agent starts with "Mozilla/", no server runtime's does.
      ...(globalThis.navigator?.userAgent?.startsWith("Mozilla/")
        ? {}
        : // Headers drops the trailing space when there is no `userAgent`.
          { "User-Agent": `${SDK_USER_AGENT} ${options.userAgent ?? ""}` }),
      ...options.headers,
    }),
    // `.http`'s own calls: retried as their method allows, with the client's timeout and retries.
    fetch: (request) =>
      send(request, {
        policy: REPEATABLE_METHODS.includes(request.method) ? "safe" : "unsafe",
        timeoutMs: clientTimeoutMs,
        retries: maxRetries,
        signal: request.signal,
        unobserved: false,
        attempts: 0,
      }),
    // A followed redirect would resend the credentials to wherever it points; none is expected.
    redirect: "manual",
  });
  http.use(responseCheck);
  const use = http.use;
  http.use = (...middleware) => {
    observed = true;
    use(...middleware);
  };

  /** One resource method's call: `run` on `http`, with the call's policy and options; the typed error thrown. */
  async function execute<T>(
    policy: RetryPolicy,
    opts: RequestOptions | undefined,
    run: (http: Client<Paths>, init: CallInit) => Promise<FetchResult>,
    map: ((data: never, response: Response) => T) | undefined,
  ): Promise<WithResponse<T>> {
    // The client's own options were checked when it was built; a call's are checked here.
    const call: Call = {
      policy,
      timeoutMs: opts?.timeoutMs === undefined ? clientTimeoutMs : checkNumber("timeoutMs", opts.timeoutMs),
      retries: opts?.maxRetries === undefined ? maxRetries : checkNumber("maxRetries", opts.maxRetries),
      signal: opts?.signal,
      unobserved: !observed,
      attempts: 0,
    };
    const fetch = (request: Request | RequestDraft) => send(request, call);
    // openapi-fetch leaves the body to the SDK, whose response check has parsed it; where no user
    // middleware sees the call, its request is a draft the SDK sends itself (decisions/054).
    // (`parseAs` and `Request` are not in CallInit's type, so that `run`'s result keeps the JSON data
    // type the SDK resolves to.)
    const init = (call.unobserved
      ? { fetch, parseAs: "stream", Request: RequestDraft }
      : { fetch, parseAs: "stream" }) as unknown as CallInit;
    const { error, response } = await run(
      http,
      opts?.headers === undefined ? init : { ...init, headers: buildHeaders(client, opts.headers) },
    );
    const data = parsed.get(response);
    // A delete is retried after no answer, a timeout or a 5xx, after any of which the earlier attempt
    // may have done the work.
    if (response.ok || (policy === "delete" && call.attempts > 1 && response.status === 404)) {
      return {
        data: map && !asReceived.has(response) ? map(data as never, response) : (data as T),
        response,
      };
    }
    throw failed(response, call.request, error);
  }

  return Object.assign(
    <T>(
      policy: RetryPolicy,
      opts: RequestOptions | undefined,
      run: (http: Client<Paths>, init: CallInit) => Promise<FetchResult>,
      map?: (data: never, response: Response) => T,
    ) => new APIPromise(execute(policy, opts, run, map)),
    { http },
  ) as Transport<Paths>;
}

// Built only for a log line or an error.
function labelOf(request: Request | RequestDraft, withHost?: boolean): string {
  const url = new URL(request.url);
  return `${request.method} ${withHost ? url.origin : ""}${url.pathname}`;
}

/** The body of an error as openapi-fetch gives it: JSON, else the text. */
function errorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `entries` as Headers; a TypeError naming the client, never quoting a value, when one cannot be sent. */
function buildHeaders(client: string, entries: Readonly<Record<string, string>>): Headers {
  const headers = new Headers();
  try {
    for (const name in entries) headers.set(name, entries[name] as string);
  } catch {
    // Not the runtime's message: it quotes the offending value, which may be a secret.
    throw new TypeError(`${client}: headers must map header names to valid header values`);
  }
  return headers;
}
