import { createHash, hash } from "node:crypto";

/**
 * SHA-256 as lowercase hex from node:crypto: what the Node entry points give the world for API
 * token secrets, several times faster than the pure-JS default. `crypto.hash` (Node 20.12+) is the
 * one-shot form; `createHash` covers every Node 20.
 */
export const nodeSha256Hex: (text: string) => string =
  typeof hash === "function"
    ? (text) => hash("sha256", text, "hex")
    : (text) => createHash("sha256").update(text, "utf8").digest("hex");
