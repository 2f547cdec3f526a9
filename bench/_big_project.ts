// The project the validate benchmarks check: a git repository whose
// `beeuni.yaml` imports 20 files of 50 project tools each (1,000 tool
// modules, all tracked), plus the five Beeuni tools and 40 agents.

import { join } from "node:path";
import { gitCommitAll } from "./_git.ts";
import { write } from "./_write.ts";

const FILES = 20;
const TOOLS_PER_FILE = 50;

/** Writes the project into the empty folder `dir` and commits it. */
export function generateBigProject(dir: string): void {
  const imports: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const lines = ["tools:"];
    for (let t = 0; t < TOOLS_PER_FILE; t++) {
      const name = `tool_${f}_${t}`;
      lines.push(`  ${name}: tools/group_${f}/${name}.ts`);
      write(
        join(dir, `tools/group_${f}/${name}.ts`),
        `export default {\n  description: "Tool ${name}.",\n  parameters: { type: "object", properties: {} },\n  execute() {\n    return "${name}";\n  },\n};\n`,
      );
    }
    lines.push(
      "agents:",
      `  agent_${f}:`,
      `    tools: [read, grep, web_search, tool_${f}_0, tool_${f}_1]`,
      `    secrets: [KEY_${f}]`,
      `  excluder_${f}:`,
      `    tools: { exclude: [bash, tool_${f}_2] }`,
    );
    const path = `config/tools_${String(f).padStart(2, "0")}.yaml`;
    write(join(dir, path), `${lines.join("\n")}\n`);
    imports.push(`  - ${path}`);
  }
  write(
    join(dir, "beeuni.yaml"),
    [
      "imports:",
      ...imports,
      "tools:",
      "  web_search: beeuni:web_search",
      "  image_search: beeuni:image_search",
      "  scrape_webpage: beeuni:scrape_webpage",
      "  memory: beeuni:memory",
      "  show: beeuni:show",
      "",
    ].join("\n"),
  );
  gitCommitAll(dir);
}
