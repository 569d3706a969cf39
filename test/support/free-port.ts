import { once } from "node:events";
import { createServer } from "node:net";

/** A port on 127.0.0.1 that nothing listens on now: bound once by the OS, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}
