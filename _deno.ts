// The one module that touches `Deno.*`, used by `cli.ts` and `daemon.ts`.
// Everything in `lib/` and `mod.ts` stays runtime-neutral.

import type { CommandIo } from "./lib/command.ts";

const encoder = new TextEncoder();

/** The real standard streams, environment and directory of this process. */
export function denoIo(): CommandIo {
  const noColor = (Deno.env.get("NO_COLOR") ?? "") !== "";
  return {
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    color: !noColor && Deno.stdout.isTerminal(),
  };
}

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string) {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

/** Ends the process with `code`. */
export function exit(code: number): never {
  Deno.exit(code);
}

/** The command-line arguments. */
export function args(): string[] {
  return [...Deno.args];
}
