import type { Client } from "openapi-fetch";
import { APIPromise, type WithResponse } from "./api-promise.js";
import {
  ApiError,
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

/**
 * The typed calls `run` makes, one per attempt: openapi-fetch's method signatures over the generated
 * `paths`, bound to the attempt's signal, logging and fetch. Only `params` and `body` are read.
 */
type AttemptClient<Paths extends {}> = Pick<Client<Paths>, "GET" | "POST" | "PUT" | "DELETE">;

/** The shape openapi-fetch resolves to. */
interface FetchResult {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
  /** A body with a problem `validateResponses: "warn"` let through: resolved as received, not `map`ped. */
  readonly asReceived?: boolean;
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
  /** Credentials, sent on every request; the `headers` option cannot replace them. */
  readonly authHeaders: Readonly<Record<string, string>>;
  /**
   * Values redacted, in every form a server could echo them (`secretForms`), from every log line,
   * error message, cause and error property.
   */
  readonly secrets: readonly string[];
  /** Shapes of the document's success responses (src/generated/<document>-responses.ts). */
  readonly responses?: ResponseShapes;
  /** Sees the headers of every response as it arrives, whatever its status. */
  readonly onResponse?: (headers: Headers, now: number) => void;
}

/**
 * What `call` adds to a `ResponseValidationError` when the body it could not accept may mean the
 * server acted: a sentence for the message, and the id of what was created when the body had one.
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
 * The request pipeline of one client: a function, called once per request. Keep it in a private
 * field: its closure holds the credentials.
 *
 * It runs `run` (one typed call on the attempt's client) with timeout, abort, logging and retries
 * under `policy`; resolves to the success data once it holds the operation's documented shape,
 * passed through `map` when given (with the successful attempt's Response, for a result that
 * depends on the status); rejects with the typed error of the last attempt (a body that does not
 * hold its shape: ResponseValidationError, with `invalid`'s note), or with an AbortError
 * DOMException when `opts.signal` aborts.
 *
 * ```ts
 * list(query: ListServersQuery = {}, opts?: RequestOptions) {
 *   return this.#t("safe", opts, (c) => c.GET("/si/servers", { params: { query } }));
 * }
 * ```
 */
export type Transport<Paths extends {}> = <R extends FetchResult, T = DataOf<R>>(
  policy: RetryPolicy,
  opts: RequestOptions | undefined,
  run: (client: AttemptClient<Paths>) => Promise<R>,
  map?: (data: DataOf<R>, response: Response) => T,
  invalid?: InvalidResponseNote,
) => APIPromise<T>;

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;
// Codes undici (Node) puts on a fetch TypeError's cause when no connection was ever made, so the
// server cannot have seen the request.
const NOT_SENT_CODES = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"];

// Shared by every call: a decoder made per call cost about 2 µs, more than the rest of this pipeline's own work.
// Decoding without `stream` resets it each time; like response.text(): UTF-8, a BOM dropped,
// malformed bytes replaced.
const decoder = new TextDecoder();

/**
 * One attempt of a call: what `send` reads, and what it leaves behind for the error the attempt may
 * end with. A plain object per attempt rather than closures: the functions `run` reaches are made
 * once per client.
 */
interface Attempt {
  readonly number: number;
  /** Never changed once built: fetch copies it. */
  readonly headers: Headers;
  /** What fetch follows: the controller's signal, else the caller's, else none. */
  readonly signal: AbortSignal | null;
  readonly invalid: InvalidResponseNote | undefined;
  /** Method and URL, set by `send` before it calls fetch: a label is built from them only for a log line or an error. */
  method?: string;
  url?: string;
}

/**
 * Builds the pipeline for one client; throws a TypeError naming the client and the option when
 * `baseUrl` or a numeric option is out of range. `hooks` exist for tests only.
 */
export function createTransport<Paths extends {}>(
  options: TransportOptions,
  hooks: Partial<TransportHooks> = {},
): Transport<Paths> {
  const { sleep: wait = sleep, random = Math.random, now = Date.now } = hooks;
  const { client, fetch: customFetch, logger, responses, onResponse } = options;
  const baseUrl = checkBaseUrl(client, options.baseUrl);
  checkNumericOptions(client, options);
  const secrets = secretForms(options.secrets);
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const clientTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const clientHeaders = buildHeaders(options, options.headers);
  const onInvalid = invalidResponses(client, options.validateResponses, logger);

  /** The wait before retry number `retry` (from 0), or undefined when `error` must surface now. */
  function retryDelay(
    error: unknown,
    policy: RetryPolicy,
    retry: number,
    retries: number,
  ): number | undefined {
    if (retry >= retries) return undefined;
    let hinted: number | undefined;
    if (error instanceof ApiError) {
      const { status } = error;
      if (policy === "unsafe" || !(status === 408 || status === 429 || status >= 500)) return undefined;
      hinted = retryAfterMs(error.headers, status, now());
      if (hinted !== undefined && hinted > maxRetryAfterMs) return undefined;
    } else if (
      !(error instanceof ConnectionError) ||
      // An unsafe call is sent again only when it certainly never left.
      (policy === "unsafe" &&
        (error instanceof TimeoutError || !NOT_SENT_CODES.includes(errorCode(error.cause) as string)))
    ) {
      return undefined;
    }
    // Full jitter: uniform in [0, min(cap, base · 2^retry)), so clients that failed together spread out.
    return hinted ?? random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  }

  /** Sends the request of attempt `a`; reads, parses and checks the answer. */
  async function send(
    a: Attempt,
    method: string,
    path: string,
    init?: { params?: Params; body?: unknown },
  ): Promise<FetchResult> {
    const url = buildUrl(baseUrl, path, init?.params);
    const hasBody = init?.body !== undefined;
    // openapi-fetch's own client would build a Request and hand it to fetch, which builds another
    // (following the signal twice); sending (url, init) costs one.
    const request: RequestInit = {
      method,
      // Earlier entries lose to later ones: `headers` may set another Content-Type, as in openapi-fetch.
      headers: hasBody ? { "content-type": "application/json", ...Object.fromEntries(a.headers) } : a.headers,
      body: hasBody ? JSON.stringify(init.body) : null,
      signal: a.signal,
      // A followed redirect would resend X-API-Key to wherever it points; none is expected.
      redirect: "manual",
    };
    a.method = method;
    a.url = url;
    const started = logger ? now() : 0;
    const log =
      logger &&
      ((outcome: string | number) =>
        logger.debug(
          redact(`${labelOf(a)} attempt ${a.number}: ${outcome} in ${now() - started} ms`, secrets),
          {
            headers: Object.fromEntries(
              redactHeaders(new Headers(request.headers), secrets, Object.keys(options.authHeaders)),
            ),
          },
        ));
    let response: Response;
    try {
      response = await (customFetch ? customFetch(new Request(url, request)) : fetch(url, request));
    } catch (error) {
      log?.(`failed (${errorCode(error) ?? (error as Error)?.name})`);
      throw error;
    }
    log?.(response.status);
    onResponse?.(response.headers, now());
    const { status } = response;
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
          redact(`${labelOf(a)} answered ${status} with a body over ${maxBytes} bytes`, secrets),
          { status, method, path: new URL(url).pathname, maxResponseBytes: maxBytes },
        );
      }
      chunks.push(chunk.value);
    }
    // Most bodies come in one chunk; others are joined once, then decoded (a character may span two).
    const text = decoder.decode(chunks[1] ? await new Blob(chunks).arrayBuffer() : chunks[0]);
    // An error's body: JSON, else the text (undefined when empty).
    let data: unknown = text || undefined;
    let problem: string | undefined;
    let jsonPath = "$";
    let issue: ShapeIssue | undefined;
    try {
      data = JSON.parse(text);
    } catch {
      // The parser's message quotes the body, which may hold a new token's secret: never kept.
      problem = text ? "a body that is not valid JSON" : "an empty body";
    }
    if (!response.ok) return { error: data, response };
    // The documented shape of this answer (an undocumented 2xx is read as the operation's first
    // documented one); `null` when it has no body, and whatever came is then dropped. Without a
    // table, any JSON (or nothing) goes.
    const byStatus = responses?.[`${method} ${path}`];
    const shape = byStatus && (byStatus[status] ?? Object.values(byStatus)[0]);
    if (shape === null || !(text || shape)) {
      data = problem = undefined;
    } else if (shape && !problem) {
      issue = checkShape(shape, data)[0];
      if (issue) {
        jsonPath = issue.path;
        problem = `an unexpected body (${jsonPath}: ${issue.message})`;
      }
    }
    if (problem) {
      const extra = a.invalid?.(data);
      onInvalid(
        new ResponseValidationError(
          redact(
            `${labelOf(a)} answered ${status} with ${problem}${extra ? `. ${extra.note}` : ""}`,
            secrets,
          ),
          {
            status,
            method,
            path: new URL(url).pathname,
            jsonPath,
            tokenId: extra?.tokenId,
            ...contractElement(issue, method, path, status, byStatus),
          },
        ),
      );
      // Only "warn" comes here.
      return { data, response, asReceived: true };
    }
    return { data, response };
  }

  // The client every attempt's `run` gets, built once: `run` calls it at once, so each method finds
  // the attempt that is starting in `current`.
  let current: Attempt;
  const attemptClient = Object.fromEntries(
    ["GET", "POST", "PUT", "DELETE"].map((method) => [
      method,
      (path: string, init?: { params?: Params; body?: unknown }) => send(current, method, path, init),
    ]),
  ) as unknown as AttemptClient<Paths>;

  /** The attempts of one call, each with its timeout, until one succeeds or an error must surface. */
  async function execute<T>(
    policy: RetryPolicy,
    opts: RequestOptions | undefined,
    run: (client: AttemptClient<Paths>) => Promise<FetchResult>,
    map: ((data: never, response: Response) => T) | undefined,
    invalid: InvalidResponseNote | undefined,
  ): Promise<WithResponse<T>> {
    const signal = opts?.signal;
    // The client's own options were checked when it was built; a call's are checked here.
    const timeoutMs =
      opts?.timeoutMs === undefined ? clientTimeoutMs : checkNumber("timeoutMs", opts.timeoutMs);
    const retries = opts?.maxRetries === undefined ? maxRetries : checkNumber("maxRetries", opts.maxRetries);
    const headers =
      opts?.headers === undefined
        ? clientHeaders
        : buildHeaders(options, { ...options.headers, ...opts.headers });
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw abortError();
      // One signal per attempt, for the timeout and the caller's abort: the AbortSignal fetch follows
      // is most of what this pipeline costs per call (decisions/013). Without a timeout, fetch
      // follows the caller's signal (if any) directly.
      const controller = timeoutMs < Infinity ? new AbortController() : undefined;
      const a: Attempt = {
        number: retry + 1,
        headers,
        signal: controller?.signal ?? signal ?? null,
        invalid,
      };
      let failure: unknown;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort!: (reason?: unknown) => void;
      try {
        // Cancelling rejects the attempt itself, so a custom fetch that ignores its signal cannot
        // outlive the timeout or the caller's abort.
        const { data, error, response, asReceived } = await new Promise<FetchResult>((resolve, reject) => {
          // The catch below aborts the controller, which cancels the request.
          onAbort = reject;
          signal?.addEventListener("abort", reject, { once: true });
          // The attempt itself as the reason: only a timeout rejects with it.
          timer = controller && startTimer(timeoutMs, () => reject(a));
          current = a;
          run(attemptClient).then(resolve, reject);
        });
        // A delete is retried after no answer, a timeout or a 5xx (the dashboard API never answers
        // 408 or 429), after any of which the earlier attempt may have done the work.
        if (response.ok || (policy === "delete" && retry && response.status === 404)) {
          return { data: map && !asReceived ? map(data as never, response) : (data as T), response };
        }
        failure = createApiError(response, error, { label: labelOf(a), secrets, now: now() });
      } catch (error) {
        // Whatever went wrong (a timeout, the caller's abort, a body over maxResponseBytes), the
        // request is let go.
        controller?.abort();
        // A connection error names the host too: which service did not answer matters. (A timer
        // fires only after `run` has called `send`, so the attempt has its URL then.)
        failure =
          error === a
            ? new TimeoutError(redact(`${labelOf(a, true)} timed out after ${timeoutMs} ms`, secrets))
            : // SDK errors are final; anything thrown before fetch was reached is the caller's own mistake.
              error instanceof SdkError || !a.url
              ? error
              : new ConnectionError(
                  redact(`${labelOf(a, true)} failed: ${errorCode(error) ?? "no response"}`, secrets),
                  { cause: sanitizeError(error, secrets) },
                );
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
      if (signal?.aborted) throw abortError();
      const delay = retryDelay(failure, policy, retry, retries);
      if (delay === undefined) throw failure;
      logger?.info(
        `${(failure as Error).message}; retry ${retry + 1} of ${retries} in ${Math.round(delay)} ms`,
      );
      await wait(delay, signal);
    }
  }

  return (policy, opts, run, map, invalid) => new APIPromise(execute(policy, opts, run, map, invalid));
}

type Params = {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
};

/**
 * The URL openapi-fetch's default serializers would build for the contract's parameters, which are
 * all primitives and every path parameter given: each path parameter and query value
 * percent-encoded (encodeURIComponent), query parameters in the order given, undefined and null
 * ones left out. (A test compares the two.)
 */
function buildUrl(baseUrl: string, path: string, params: Params | undefined): string {
  // Not path.replace with a pattern: that alone cost more than the rest of this function per call.
  let url = baseUrl + path;
  for (const name in params?.path) {
    url = url.replace(`{${name}}`, encodeURIComponent(params.path[name] as string));
  }
  let separator = "?";
  const query = params?.query;
  for (const name in query) {
    const value = query[name];
    if (value != null) {
      url += `${separator}${name}=${encodeURIComponent(value as string)}`;
      separator = "&";
    }
  }
  return url;
}

// Built only for a log line or an error: parsing the URL is measurable on a fast local call.
function labelOf(a: Attempt, withHost?: boolean): string {
  const url = new URL(a.url as string);
  return `${a.method} ${withHost ? url.origin : ""}${url.pathname}`;
}

/**
 * The headers of every request: the SDK's User-Agent, then `extra`, then the credentials, which
 * `extra` cannot replace. Built once per client (and per call only for a call's own `headers`): fetch
 * copies a Headers faster than it reads a plain object with the same entries.
 */
function buildHeaders(options: TransportOptions, extra: Record<string, string> | undefined): Headers {
  const headers = new Headers();
  try {
    // Browsers ignore a page's User-Agent or, as a non-safelisted header, make the server's CORS
    // policy allow it; every browser's own User-Agent starts with "Mozilla/", no server runtime's does.
    if (!globalThis.navigator?.userAgent?.startsWith("Mozilla/")) {
      // Headers drops the trailing space when there is no `userAgent`.
      headers.set("User-Agent", `${SDK_USER_AGENT} ${options.userAgent ?? ""}`);
    }
    // Credentials last, and Headers compares names case-insensitively: `extra` cannot replace them.
    for (const [name, value] of Object.entries({ ...extra, ...options.authHeaders }))
      headers.set(name, value);
  } catch {
    // Not the runtime's message: it quotes the offending value, which may be a secret.
    throw new TypeError(`${options.client}: headers must map header names to valid header values`);
  }
  return headers;
}
