import type { Socket } from "node:net";
import { validationFailed } from "../domain/errors.js";
import { errorResponse } from "./error-response.js";

/**
 * Answers what node's HTTP parser refused before any request existed (node:http's `clientError`):
 * a malformed request line or header is a JSON 400 in the error envelope, like every other refusal;
 * too large a header block (431) and a request that took too long (408) keep node's own answers.
 * The connection is closed either way, and nothing is thrown.
 */
export function answerClientError(
  error: NodeJS.ErrnoException & { bytesParsed?: number },
  socket: Socket,
): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  if (error.code === "HPE_HEADER_OVERFLOW") {
    socket.end("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n");
    return;
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    return;
  }
  const { status, body } = errorResponse(
    validationFailed(
      [
        {
          type: "invalid_format",
          path: "",
          message: `must be valid HTTP/1.1 (${error.code ?? "parse error"})`,
        },
      ],
      "request",
    ),
  );
  const payload = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}
