/** The parsed data of a call together with its raw `Response` (body already consumed). */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: Response;
}

// Where an APIPromise keeps the promise of its data with the Response.
const INNER = Symbol();

/**
 * What every client method returns: a Promise of the data that also offers `withResponse()`. The
 * request starts at once.
 *
 * An APIPromise is the native promise of the data, given this class's prototype (which inherits
 * Promise's): building an instance of a Promise subclass cost a few µs per call, more than the rest
 * of the SDK's own work. `constructor` is Promise's, so then(), catch() and finally() derive plain
 * promises and `await` adopts an APIPromise as it is.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below adds Promise's members, which every instance has (its prototype chain is Promise's).
export class APIPromise<T> {
  constructor(inner: Promise<WithResponse<T>>) {
    const data = inner.then((result) => result.data) as APIPromise<T> & { [INNER]: typeof inner };
    data[INNER] = inner;
    // biome-ignore lint/correctness/noConstructorReturn: the instance is the native promise of the data (see above).
    return Object.setPrototypeOf(data, APIPromise.prototype);
  }

  /** Resolves to `{ data, response }`, for status and headers. */
  withResponse(): Promise<WithResponse<T>> {
    // A caller who only uses this one sees the rejection here: the data promise's is handled.
    this.catch(() => {});
    return (this as unknown as { [INNER]: Promise<WithResponse<T>> })[INNER];
  }
}

/**
 * Promise's members, and `then` as `Promise.prototype.then`, but the rejection handler may declare any
 * parameter type, as with a Promise (`(e: Error) => …`): Promise types it `any`, this `never`, which
 * every handler accepts without `any` leaking into the SDK's types. What a call rejects with is an
 * `SdkError`, a `TypeError` for a bad argument, or an `AbortError` DOMException.
 */
export interface APIPromise<T> extends Promise<T> {
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: never) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2>;
}

Object.setPrototypeOf(APIPromise.prototype, Promise.prototype).constructor = Promise;
