/** The parsed data of a call together with its raw `Response` (body already consumed). */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: Response;
}

/**
 * What every client method returns: a Promise of the data that also offers `withResponse()`. The
 * request starts at once. then(), catch() and finally() derive plain promises.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below only retypes Promise's `then`, which every instance has.
export class APIPromise<T> extends Promise<T> {
  readonly #withResponse: Promise<WithResponse<T>>;

  /** A promise of `withResponse`'s data; the clients make these, a test may too (to stand for a call). */
  constructor(withResponse: Promise<WithResponse<T>>) {
    super((resolve, reject) => {
      withResponse.then((result) => resolve(result.data), reject);
    });
    this.#withResponse = withResponse;
  }

  /** `Promise`: what then(), catch() and finally() derive is a plain promise, not an APIPromise. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Resolves to `{ data, response }`, for status and headers. */
  withResponse(): Promise<WithResponse<T>> {
    // A caller who only uses this one sees the rejection here: the data promise's is handled.
    this.catch(() => {});
    return this.#withResponse;
  }
}

/**
 * `then` as `Promise.prototype.then`, typed without `any`: a rejection handler that declares no
 * parameter type gets `unknown` (so `e instanceof NotFoundError` narrows it, and using it unchecked
 * is a compile error), and one that declares a type (`(e: Error) => …`) is taken as with a Promise,
 * by the second signature. What a call rejects with is an `SdkError`, a `TypeError` for a bad
 * argument, or an `AbortError` DOMException.
 */
export interface APIPromise<T> extends Promise<T> {
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2>;
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: never) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2>;
}
