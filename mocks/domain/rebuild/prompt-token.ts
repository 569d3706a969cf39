const PREFIX = "rebuildId=";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The project id a magic link's `promptToken` carries (Base64, standard alphabet with padding, of
 * the UTF-8 text `rebuildId=<project_id>`), given raw or percent-encoded. Undefined for anything
 * malformed: the service then ignores the token and the customer signs in normally.
 */
export function projectIdFromPromptToken(token: string): string | undefined {
  let base64 = token;
  // Base64 never contains "%", so its presence can only mean percent-encoding.
  if (base64.includes("%")) {
    try {
      base64 = decodeURIComponent(base64);
    } catch {
      return undefined;
    }
  }
  if (base64 === "" || !BASE64.test(base64)) return undefined;
  const binary = atob(base64);
  // atob ignores stray bits in the last character; a non-canonical token is not one the SDK builds.
  if (btoa(binary) !== base64) return undefined;
  let text: string;
  try {
    text = decoder.decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
  if (!text.startsWith(PREFIX) || text.length === PREFIX.length) return undefined;
  return text.slice(PREFIX.length);
}
