import { REBUILD_BODY_MAX_BYTES } from "../generated/limits.js";

/** Callback bodies above this size are refused with 413 (openapi/rebuild.yaml's `x-body-limit`, 1 MiB). */
export const MAX_BODY_BYTES = REBUILD_BODY_MAX_BYTES;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function tooLarge(): Response {
  return jsonResponse(413, { error: `request body is larger than ${MAX_BODY_BYTES} bytes` });
}

export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** The declared Content-Length when it is a plain decimal number, otherwise undefined. */
export function declaredLength(value: string | null | undefined): number | undefined {
  return value !== null && value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}
