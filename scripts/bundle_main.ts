// The entry of the single-file build (`deno task build:bundle`): the CLI,
// the host's tool runner and the five Beeuni tools in one JavaScript file
// that Deno, Node.js and Bun run from any folder.
//
// The host starts its runners on this same file with a marker as the first
// argument, which runCli() checks before anything else. The Beeuni
// tools travel as their source text: the first command that needs one
// writes all five, byte for byte, to
// `$XDG_CACHE_HOME/beeuni/builtin_tools/<hash>/` (the toolkit's cache), and
// the host runs, and `beeuni tools eject` copies, those files. The web UI's
// files travel as text too, served from memory.

import process from "node:process";
import { RUNNER_MARKER } from "../lib/common/mod.ts";

// A runner is given the Beeuni tools' files by the host: it needs no copy.
if (!process.argv.includes(RUNNER_MARKER)) {
  const { useEmbeddedBuiltinTools } = await import("./_embedded_tools.ts");
  useEmbeddedBuiltinTools();
  const { setWebFiles } = await import("../lib/web/web_files.ts");
  setWebFiles(async () => (await import("./_embedded_web.ts")).WEB_FILES);
}
const { runCli } = await import("../lib/cli/run.ts");
await runCli();
