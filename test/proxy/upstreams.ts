// Test upstreams for the proxy: a scripted HTTP server, and raw TCP servers that answer what no
// HTTP server would. Each is closed after the test.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Socket } from "node:net";
import { afterEach } from "vitest";

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** An HTTP server answering each request with `answer`; `origin` is `http://127.0.0.1:<port>`. */
export async function httpUpstream(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  origin: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"] }[];
}> {
  const requests: { method: string; url: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createHttpServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A TCP server that does `onConnection` with every socket (garbage, silence, …). */
export async function tcpUpstream(
  onConnection: (socket: Socket) => void,
): Promise<{ origin: string; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

/** A port nothing listens on (bound, then closed). */
export async function closedPortOrigin(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
