/**
 * `beeuni tools new <name> [--zod]`: writes a working tool in the
 * documented style to `tools/<name>.ts`, a test beside it that calls it
 * through the host as the daemon does, and declares it under `tools:`
 * with the edit `tools eject` makes.
 *
 * @module
 */

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Command, defineCommand } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { namedProject } from "./_named_project.ts";
import { errorMessage, writeFileAtomic } from "../common/mod.ts";
import {
  classifyEntry,
  editManifestTools,
  isBeeuniTool,
  type Manifest,
  manifestErrorsNote,
} from "../manifest/mod.ts";

/** The tool module `tools new` writes: JSON Schema, or a zod schema. */
export function toolSource(name: string, zod: boolean): string {
  const head = `import { defineTool } from "@beeuni/tools";\n`;
  const description =
    `Repeats a text. Say here what ${name} does, for the model.`;
  if (zod) {
    return `${head}import { z } from "zod";

export default defineTool({
  description: ${JSON.stringify(description)},
  parameters: z.object({
    text: z.string().describe("The text to repeat"),
    times: z.number().int().min(1).optional().describe(
      "How many times (1 when left out)",
    ),
  }),
  execute(args, _context) {
    return args.text.repeat(args.times ?? 1);
  },
});
`;
  }
  return `${head}
export default defineTool({
  description: ${JSON.stringify(description)},
  parameters: {
    type: "object",
    properties: {
      text: { type: "string", description: "The text to repeat" },
      times: {
        type: "integer",
        minimum: 1,
        description: "How many times (1 when left out)",
      },
    },
    required: ["text"],
  },
  execute(args, _context) {
    return args.text.repeat(args.times ?? 1);
  },
});
`;
}

/** The test `tools new` writes beside the tool: a call through the host, as the daemon makes it. */
export function testSource(name: string): string {
  return `import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createHost } from "@beeuni/tools";

test("${name} repeats its text", async () => {
  const host = await createHost({
    directory: fileURLToPath(new URL("..", import.meta.url)),
  });
  try {
    assert.deepEqual(host.loadErrors(), []);
    const outcome = await host.call({
      name: "${name}",
      args: { text: "ab", times: 2 },
      sessionId: "test",
      agent: "build",
    });
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.error);
    assert.equal(outcome.output, "abab");
  } finally {
    await host.close();
  }
});
`;
}

/** Why `name` cannot be a new tool of `manifest`, with the rule's message, or `undefined`. */
export function nameRefusal(
  name: string,
  manifest: Manifest,
): string | undefined {
  const at = { file: manifest.manifestPath, line: 1, col: 1 };
  const problem = classifyEntry({
    name,
    value: `tools/${name}.ts`,
    namePos: at,
    valuePos: at,
  }).problems[0];
  if (problem) return problem.message;
  const entry = manifest.files.flatMap((file) => file.tools).find((tool) =>
    tool.name === name
  );
  if (entry) {
    const { file, line, col } = entry.namePos;
    return `tool "${name}" is declared already, in ${file}:${line}:${col}: give the new tool another name`;
  }
  if (isBeeuniTool(name)) {
    return `"${name}" is a Beeuni tool: to change it, run beeuni tools eject ${name}; otherwise give the new tool another name`;
  }
  return undefined;
}

const OPTIONS = {
  zod: {
    type: "boolean",
    help: `write the parameters as a zod schema (zod 4.2 or later
installed in the project: npm install zod)`,
  },
  manifest: MANIFEST_OPTION,
} as const;

/** `beeuni tools new`: starts a project tool. */
export const toolsNewCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "<name> [--zod] [--manifest PATH]",
  description:
    `Writes tools/<name>.ts, a working tool written with defineTool from
"@beeuni/tools" (its arguments typed from its JSON Schema, or with --zod
from a zod schema), and tools/<name>_test.ts, a test that loads the
project's tools and calls <name> as the daemon does (node:test: run it with
deno test -A, node --test or bun test). Declares <name>: tools/<name>.ts
under tools: in the manifest file that has the key (beeuni.yaml when none
has); only that line is added.

Refuses (exit 1) a name that is not a valid tool name, a harness tool's
name, a name already declared or a Beeuni tool's, an existing
tools/<name>.ts or tools/<name>_test.ts, and a manifest with errors.`,
  options: OPTIONS,
  positionals: 1,
  async run({ values, positionals }, io) {
    const { name, project } = await namedProject(
      positionals,
      values.manifest,
      io,
      "name the new tool, e.g. lookup_order",
    );
    const zod = values.zod === true;
    const { root, manifest } = project;
    const refused = (why: string) => {
      throw new Error(`cannot create tool "${name}": ${why}`);
    };
    const refusal = nameRefusal(name, manifest);
    if (refusal) refused(refusal);
    const errors = project.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      refused(manifestErrorsNote(manifest.manifestPath, errors));
    }
    const toolFile = `tools/${name}.ts`;
    const testFile = `tools/${name}_test.ts`;
    for (const file of [toolFile, testFile]) {
      if (existsSync(join(root, file))) {
        refused(`${file} exists: give the new tool another name`);
      }
    }
    const manifestFile = manifest.files.find((file) =>
      file.path === manifest.manifestPath && file.hasToolsKey
    )?.path ?? manifest.files.find((file) =>
      file.hasToolsKey
    )?.path ??
      manifest.manifestPath;
    const manifestPath = realpathSync(join(root, manifestFile));
    const before = readFileSync(manifestPath, "utf8");
    let after: string;
    try {
      after = await editManifestTools(before, [{ name, value: toolFile }], {
        file: manifestFile,
      });
    } catch (error) {
      throw new Error(`cannot create tool "${name}": ${errorMessage(error)}`, {
        cause: error,
      });
    }
    // The module first, the manifest last: stopped half way, the manifest
    // never names a file that is missing.
    const files = { mode: 0o644, dirMode: 0o755 };
    writeFileAtomic(
      join(root, toolFile),
      toolSource(name, zod),
      files,
    );
    writeFileAtomic(join(root, testFile), testSource(name), files);
    writeFileAtomic(manifestPath, after, {
      mode: statSync(manifestPath).mode & 0o7777,
    });
    const check = io.color ? "\x1b[32m✓\x1b[0m" : "✓";
    io.stdout(
      [
        `  ${check}  Created ${name}`,
        `  wrote   ${toolFile}`,
        `  wrote   ${testFile}`,
        `  set     ${manifestFile}: tools.${name}: ${toolFile}`,
        ``,
        `Next:`,
        `  1. Edit ${toolFile}: its description, parameters and execute.`,
        `  2. beeuni validate --load`,
        `  3. deno test -A ${testFile} (or node --test, bun test)`,
        ...(zod
          ? [`  zod 4.2 or later must be installed: npm install zod`]
          : []),
        `  "@beeuni/tools" resolves for the test and the type checker from the`,
        `  project's deno.json imports or its node_modules (npm install -D @beeuni/tools)`,
        ``,
      ].join("\n"),
    );
    return 0;
  },
});
