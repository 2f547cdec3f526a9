// The entry of the single-file build (`deno task build:bundle`): the CLI,
// the host's worker and the five Beeuni tools in one JavaScript file that
// Deno, Node.js and Bun run from any folder.
//
// The host starts its workers on this same file with a marker in
// `workerData`, so the marker is checked before anything else. The Beeuni
// tools travel as their source text: the first command that needs one
// writes all five, byte for byte, to
// `$XDG_CACHE_HOME/beeuni/builtin_tools/<hash>/` (the toolkit's cache), and
// the host runs, and `beeuni tools eject` copies, those files.

import { isWorkerRun, runWorker } from "../lib/host/worker_entry.ts";

if (isWorkerRun()) {
  await runWorker();
} else {
  const { useEmbeddedBuiltinTools } = await import("./_embedded_tools.ts");
  useEmbeddedBuiltinTools();
  const { runCli } = await import("../lib/cli/run.ts");
  await runCli();
}
