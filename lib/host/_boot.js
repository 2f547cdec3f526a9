// Entry point of the tool host's workers. Plain JavaScript that imports the
// worker's code through a computed URL, so that runs with type checking on
// (`deno test`, `deno run --check`) do not type-check every worker at start.
const main = new URL("./_worker.ts", import.meta.url).href;
await import(main);
