/** The parsed data of a call together with its raw `Response` (body already consumed). */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: Response;
}

/**
 * What every client method returns: a Promise of the data that also offers `withResponse()`. The
 * request starts at once; the data promise is derived lazily so that a caller who only uses
 * `withResponse()` does not leave a second, unhandled rejection behind.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #inner: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  // catch() and finally() call then(); species keeps the promises they derive plain.
  static override get [Symbol.species]() {
    return Promise;
  }

  constructor(inner: Promise<WithResponse<T>>) {
    // The Promise base is only there for `instanceof Promise`; every method reads from `inner`.
    super((resolve) => resolve(undefined as T));
    this.#inner = inner;
  }

  /** Resolves to `{ data, response }`, for status and headers. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#inner.then((result) => result.data);
    return this.#data;
  }

  /**
   * As `Promise.prototype.then`. The rejection handler may declare any parameter type, as with a
   * Promise (`(e: Error) => …`): Promise types it `any`, this `never`, which every handler accepts
   * without `any` leaking into the SDK's types. What a call rejects with is an `SdkError`, a
   * `TypeError` for a bad argument, or an `AbortError` DOMException.
   */
  // biome-ignore lint/suspicious/noThenProperty: overriding Promise's own then is the point: it reads the lazy data.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: never) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected as ((reason: unknown) => R2 | PromiseLike<R2>) | null);
  }
}
