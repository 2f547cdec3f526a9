/**
 * `@beeuni/tools/web`: the web UI's routes, served beside the daemon's
 * handler from `@beeuni/tools/http`: a page under a secret path, opened
 * with a one-time code, that lists the tools each agent sees, calls them
 * with a form and shows every call as it happens.
 *
 * @example Serve the UI beside the daemon's routes
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "@beeuni/tools";
 * import { createHandler } from "@beeuni/tools/http";
 * import { createWebHandler, webMounts, webScope } from "@beeuni/tools/web";
 *
 * const host = await createHost({ directory: "/workspace" });
 * const web = createWebHandler({ host });
 * const handler = createHandler({
 *   host,
 *   token: "a long random token",
 *   mounts: webMounts(web),
 *   scope: webScope(web),
 * });
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, handler);
 * console.log(`web ui: ${web.address("http://127.0.0.1:8787")}`);
 * ```
 *
 * @module
 */

export {
  CONTENT_SECURITY_POLICY,
  createWebHandler,
  UI_HEADERS,
  type WebHandler,
  type WebHost,
  webMounts,
  type WebOptions,
  webScope,
} from "./lib/web/mod.ts";
