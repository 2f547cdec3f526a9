// A daemon under load while its tools are edited: 20,000 calls, 64 in
// flight, a reload every second, and not one call fails (D5, H1).

import assert from "node:assert/strict";
import { join } from "node:path";
import { tempRepo } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";

const CALLS = 20_000;
const IN_FLIGHT = 64;

function echo(version: number): string {
  return `export default {
  description: "Echo, version ${version}",
  parameters: { type: "object", properties: { n: { type: "number" } } },
  execute: (args) => "v${version}:" + args.n,
};
`;
}

Deno.test("20,000 calls at 64 in flight with a reload every second: none fails (D5)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
    "tools/echo.ts": echo(0),
  });
  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
  });
  let next = 0;
  let done = 0;
  const failures: string[] = [];
  const versions = new Set<string>();
  const client = async () => {
    while (next < CALLS) {
      const n = next++;
      const { status, body } = await daemon.call("echo", {
        args: { n },
        sessionId: `s${n % 16}`,
        agent: "beeuni",
      });
      const output = String(body.output ?? "");
      if (status !== 200 || !output.endsWith(`:${n}`)) {
        failures.push(`${n}: ${status} ${JSON.stringify(body)}`);
      } else versions.add(output.split(":")[0]);
      done++;
    }
  };
  let version = 0;
  let editing = true;
  const editor = (async () => {
    while (editing) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (!editing) break;
      await Deno.writeTextFile(
        join(repo.dir, "tools/echo.ts"),
        echo(++version),
      );
    }
  })();
  await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  editing = false;
  await editor;
  assert.equal(done, CALLS);
  assert.deepEqual(failures.slice(0, 5), []);
  const reloads = daemon.stderr().match(/\[daemon\] reloaded after a change/g);
  assert.ok((reloads?.length ?? 0) >= 2, daemon.stderr().slice(-2000));
  assert.ok(versions.size >= 2, [...versions].join(", "));
});
