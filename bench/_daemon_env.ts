// What a benchmark's daemon runs with: its state and config kept in the
// benchmark's temp folder, and a token known to the calls.

import { join } from "node:path";

/** The token every benchmark's daemon is given and every call carries. */
export const TOKEN = "bench-token-" + "0123456789abcdef".repeat(2);

/** This process's environment, with the daemon's state and config in `root` and TOKEN as its token. */
export function daemonEnv(root: string): Record<string, string> {
  return {
    ...Deno.env.toObject(),
    XDG_STATE_HOME: join(root, "state"),
    XDG_CONFIG_HOME: join(root, "config"),
    BEEUNI_DAEMON_TOKEN: TOKEN,
  };
}

/**
 * POSTs a call with `{ text }` as agent `agent` to `url` (a daemon's
 * `…/beeuni/tools/<name>`, or a baseline server), with TOKEN; resolves to
 * the answer's status and its JSON body. Rejects when nothing answers.
 */
export async function callTool(
  url: string,
  text: string,
  agent = "bench",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "authorization": `Bearer ${TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ args: { text }, sessionId: "bench", agent }),
  });
  return { status: response.status, body: await response.json() };
}
