// The mock's control API (`/__mock`): how the examples do what only the real service's operators or
// customers could (change a partner's settings, move time on, open a magic link). It is not part of
// the SDK and does not exist outside the mock.

const origin = process.env.MOCK_ORIGIN ?? "http://127.0.0.1:4010";

/** Calls `/__mock<path>` with a JSON body and returns the JSON answer; any non-2xx throws. */
export async function mockControl(method: "POST" | "PUT", path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${origin}/__mock${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${method} /__mock${path} answered ${response.status}: ${await response.text()}`);
  }
  return response.json();
}
