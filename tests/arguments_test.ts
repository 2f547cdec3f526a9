// What a tool's arguments go through before `execute`: the schema's
// defaults filled in (top level and nested) on every transport, validation
// under the JSON Schema draft the schema declares, and a draft the host does
// not validate refused at load. One fixture project, served by a real
// daemon (HTTP and MCP), `beeuni mcp` over stdio, `beeuni tools call` and
// the library's host.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createHost } from "../mod.ts";
import { beeuni, REPO_ROOT } from "./_helpers.ts";
import { mcpDaemon, RawMcp, StdioServer, tempProject } from "./_mcp.ts";

const SOURCE = join(REPO_ROOT, "tests/fixtures/arguments");
const CALL = { sessionId: "s1", agent: "beeuni" };

/** What `search` receives for `{ query: "q" }`: every default filled in. */
const SEARCH_FILLED = {
  query: "q",
  scope: "all",
  options: { limit: 5, sort: "relevance" },
};

const OLD_DRAFT =
  `parameters declares "$schema": "http://json-schema.org/draft-04/schema#", a JSON Schema draft the host does not validate: declare "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema" or "https://json-schema.org/draft/2020-12/schema", or leave "$schema" out for draft-07`;

const BAD_POINT =
  `invalid arguments for tool "point": field "point.0" must be string; field "point.1" must be number; field "point" must NOT have more than 2 items`;

Deno.test("the HTTP tool route fills in top-level and nested defaults with validation off, and a wrong 2020-12 tuple reaches the tool (T2)", async () => {
  await using daemon = await mcpDaemon({ source: SOURCE });
  assert.deepEqual(
    (await daemon.call("multiply", { args: { a: 4 }, ...CALL })).body,
    { output: "8" },
  );
  assert.deepEqual(
    (await daemon.call("multiply", { args: { a: 4, b: 5 }, ...CALL })).body,
    { output: "20" },
  );
  const search = await daemon.call("search", { args: { query: "q" }, ...CALL });
  assert.deepEqual(JSON.parse(String(search.body.output)), {
    received: SEARCH_FILLED,
  });
  // A nested object given in part keeps what it has and gets the rest.
  const partial = await daemon.call("search", {
    args: { query: "q", scope: "docs", options: { limit: 1 } },
    ...CALL,
  });
  assert.deepEqual(JSON.parse(String(partial.body.output)), {
    received: {
      query: "q",
      scope: "docs",
      options: { limit: 1, sort: "relevance" },
    },
  });
  // Validation is off: the tool gets what was sent (T2).
  assert.deepEqual(
    (await daemon.call("point", { args: { point: ["x", 3, 9] }, ...CALL }))
      .body,
    { output: "x=3" },
  );
});

Deno.test("with --validate the HTTP tool route refuses a wrong 2020-12 tuple, naming each item, and a draft-04 schema is a load error saying what to declare (T2, T8)", async () => {
  await using daemon = await mcpDaemon({
    source: SOURCE,
    args: ["--validate"],
  });
  const bad = await daemon.call("point", {
    args: { point: [1, "x", 3] },
    ...CALL,
  });
  assert.equal(bad.body.error, BAD_POINT);
  assert.deepEqual(
    (await daemon.call("point", { args: { point: ["x", 3] }, ...CALL })).body,
    { output: "x=3" },
  );
  // Defaults are filled in before the check.
  assert.deepEqual(
    (await daemon.call("multiply", { args: { a: 4 }, ...CALL })).body,
    { output: "8" },
  );
  assert.deepEqual(
    (await daemon.call("multiply", { args: { a: 4, c: 1 }, ...CALL })).body
      .error,
    `invalid arguments for tool "multiply": unknown field "c"`,
  );
  const old = await daemon.call("old_draft", { args: {}, ...CALL });
  assert.equal(old.status, 404);
  assert.equal(old.body.loadError, OLD_DRAFT);
});

Deno.test("MCP over HTTP fills in defaults and, with --validate, answers a wrong 2020-12 tuple with isError (C1, T2)", async () => {
  await using daemon = await mcpDaemon({
    source: SOURCE,
    args: ["--validate"],
  });
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();
  const call = async (name: string, args: unknown) =>
    (await mcp.request("tools/call", { name, arguments: args })).result;
  assert.deepEqual(await call("multiply", { a: 4 }), {
    content: [{ type: "text", text: "8" }],
  });
  assert.deepEqual(
    (await call("search", { query: "q" })).structuredContent,
    { received: SEARCH_FILLED },
  );
  assert.deepEqual(await call("point", { point: [1, "x", 3] }), {
    content: [{ type: "text", text: BAD_POINT }],
    isError: true,
  });
  const names = (await mcp.request("tools/list")).result.tools.map((
    t: { name: string },
  ) => t.name);
  assert.deepEqual(names, ["multiply", "search", "point"]);
});

Deno.test("beeuni mcp over stdio fills in defaults and, with --validate, refuses a wrong 2020-12 tuple (C4, T2)", async () => {
  await using project = await tempProject(SOURCE);
  const server = new StdioServer(project.dir, ["--validate", "--no-watch"]);
  try {
    await server.initialize();
    const calls: [string, unknown][] = [
      ["multiply", { a: 4 }],
      ["search", { query: "q" }],
      ["point", { point: [1, "x", 3] }],
    ];
    for (const [i, [name, args]] of calls.entries()) {
      await server.send({
        jsonrpc: "2.0",
        id: 10 + i,
        method: "tools/call",
        params: { name, arguments: args },
      });
    }
    assert.deepEqual((await server.response(10)).result, {
      content: [{ type: "text", text: "8" }],
    });
    assert.deepEqual((await server.response(11)).result.structuredContent, {
      received: SEARCH_FILLED,
    });
    assert.deepEqual((await server.response(12)).result, {
      content: [{ type: "text", text: BAD_POINT }],
      isError: true,
    });
  } finally {
    assert.equal(await server.end(), 0, server.stderr);
  }
});

Deno.test("tools call fills in defaults (a tool migrated from zod .default(2) prints 8, not NaN), --validate refuses a wrong 2020-12 tuple, and validate --load names a draft-04 schema (T2, T8)", async () => {
  await using project = await tempProject(SOURCE);
  const env = { XDG_STATE_HOME: join(project.dir, ".state") };
  const call = (name: string, args: string, ...flags: string[]) =>
    beeuni(project.dir, ["tools", "call", name, ...flags, "--args", args], {
      env,
    });
  const multiplied = await call("multiply", '{"a":4}');
  assert.equal(multiplied.code, 0, multiplied.stderr);
  assert.equal(multiplied.stdout, "8\n");
  const searched = await call("search", '{"query":"q"}');
  assert.equal(searched.code, 0, searched.stderr);
  assert.deepEqual(JSON.parse(searched.stdout), { received: SEARCH_FILLED });
  const bad = await call("point", '{"point":[1,"x",3]}', "--validate");
  assert.equal(bad.code, 1);
  assert.equal(bad.stdout, "");
  assert.equal(bad.stderr, `${BAD_POINT}\n`);
  const old = await call("old_draft", "{}");
  assert.equal(old.code, 1);
  assert.ok(
    old.stderr.startsWith(`tool "old_draft" did not load: ${OLD_DRAFT}\n`),
    old.stderr,
  );
  const validated = await beeuni(project.dir, ["validate", "--load"], { env });
  assert.equal(validated.code, 1);
  assert.ok(
    validated.stdout.includes(
      `beeuni.yaml:7:14: error: tool "old_draft" did not load: ${OLD_DRAFT}\n`,
    ),
    validated.stdout + validated.stderr,
  );
});

Deno.test("the host fills defaults into a copy: the caller's arguments object is left as it was (T2)", async () => {
  await using project = await tempProject(SOURCE);
  const host = await createHost({
    directory: project.dir,
    tmpDir: join(project.dir, ".tool-output"),
    log: () => {},
  });
  try {
    const args = { query: "q", options: { limit: 1 } };
    const outcome = await host.call({ name: "search", args, ...CALL });
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.structured, {
      received: {
        query: "q",
        scope: "all",
        options: { limit: 1, sort: "relevance" },
      },
    });
    assert.deepEqual(args, { query: "q", options: { limit: 1 } });
  } finally {
    await host.close();
  }
});
