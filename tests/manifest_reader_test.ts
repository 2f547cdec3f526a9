// The reader of plain manifests (lib/manifest/_plain_yaml.ts) against the
// `yaml` library, text by text: wherever the small reader reads a file, the
// library must read it without an error or warning, to the same values at
// the same places with the same node count, and parseManifest() must give
// the same manifest either way. The texts: every YAML file of the
// repository, every string literal of the tests (the manifests they
// check), and thousands of generated manifests, plain and mutated.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { type Manifest, MANIFEST_LIMITS } from "../lib/manifest/mod.ts";
import { parseManifestWith } from "../lib/manifest/parse_manifest.ts";
import { plainValue, readPlainYaml } from "../lib/manifest/_plain_yaml.ts";
import { readManifestYaml } from "../lib/manifest/_yaml_reader.ts";
import {
  linePosIn,
  treeToJS,
  type TreeValue,
} from "../lib/manifest/_yaml_tree.ts";

const BOUNDS = {
  maxDepth: MANIFEST_LIMITS.maxDepth,
  maxEntries: MANIFEST_LIMITS.maxEntries,
  maxNodes: MANIFEST_LIMITS.maxNodes,
};

/** Checks that two trees hold the same values at the same offsets. */
function sameTree(plain: TreeValue, yaml: TreeValue, at: string): void {
  if (!plain || !yaml) {
    assert.equal(plain, yaml, at);
    return;
  }
  assert.equal(plain.kind, yaml.kind, `${at}: kind`);
  assert.equal(plain.offset, yaml.offset, `${at}: offset`);
  if (plain.kind === "scalar" && yaml.kind === "scalar") {
    assert.ok(
      Object.is(plain.value, yaml.value),
      `${at}: ${String(plain.value)} vs ${String(yaml.value)}`,
    );
  } else if (plain.kind === "seq" && yaml.kind === "seq") {
    assert.equal(plain.items.length, yaml.items.length, `${at}: items`);
    plain.items.forEach((item, i) =>
      sameTree(item, yaml.items[i], `${at}[${i}]`)
    );
  } else if (plain.kind === "map" && yaml.kind === "map") {
    assert.equal(plain.items.length, yaml.items.length, `${at}: entries`);
    plain.items.forEach((pair, i) => {
      const other = yaml.items[i];
      sameTree(pair.key, other.key, `${at}.key${i}`);
      sameTree(pair.value, other.value, `${at}.value${i}`);
      assert.equal(pair.valueOffset, other.valueOffset, `${at}.value${i}`);
    });
  }
}

/** Every offset in a tree. */
function offsets(node: TreeValue, out: number[] = []): number[] {
  if (!node) return out;
  out.push(node.offset);
  if (node.kind === "seq") {
    for (const item of node.items) {
      offsets(item, out);
    }
  }
  if (node.kind === "map") {
    for (const pair of node.items) {
      offsets(pair.key, out);
      offsets(pair.value, out);
    }
  }
  return out;
}

/** Whether the plain reader read `text`; throws where it reads it differently. */
function compare(text: string): boolean {
  const plain = readPlainYaml(text, BOUNDS);
  if (!plain) return false;
  const where = JSON.stringify(text);
  const yaml = readManifestYaml(
    text,
    "beeuni.yaml",
    MANIFEST_LIMITS,
    MANIFEST_LIMITS.maxNodes,
  );
  assert.deepEqual(yaml.findings, [], `read plainly, but yaml says: ${where}`);
  assert.ok("root" in yaml, where);
  sameTree(plain.root, yaml.root, where);
  assert.equal(plain.nodes, yaml.nodes, `${where}: node count`);
  assert.deepEqual(treeToJS(plain.root), treeToJS(yaml.root), where);
  for (const offset of offsets(plain.root)) {
    assert.deepEqual(
      linePosIn(plain.lineStarts, offset),
      yaml.linePos(offset),
      `${where}: place of offset ${offset}`,
    );
  }
  return true;
}

async function parsedBothWays(
  text: string,
): Promise<{ plain: Manifest; yaml: Manifest }> {
  const read = (path: string) => path === "beeuni.yaml" ? text : undefined;
  return {
    plain: await parseManifestWith("/repo", "beeuni.yaml", read, {}, true),
    yaml: await parseManifestWith("/repo", "beeuni.yaml", read, {}, false),
  };
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yamlFiles(path, out);
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The string literals of a TypeScript source, and its `[...].join("\n")` texts. */
function stringLiterals(source: string): string[] {
  const out: string[] = [];
  const unquote = (literal: string): string | undefined => {
    const body = literal.slice(1, -1);
    try {
      return JSON.parse(
        `"${
          body.replace(/\\'/g, "'").replace(/\\`/g, "`").replace(
            /(?<!\\)"/g,
            '\\"',
          )
        }"`,
      );
    } catch {
      return undefined;
    }
  };
  const literal =
    /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.|\$(?!\{))*`/g;
  for (const match of source.matchAll(literal)) {
    const text = unquote(match[0]);
    if (text !== undefined && /[:\-\[{]/.test(text)) out.push(text);
  }
  const joined =
    /\[((?:\s*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'),?)+)\s*\]\.join\("\\n"\)/g;
  for (const match of source.matchAll(joined)) {
    const lines = [
      ...match[1].matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g),
    ]
      .map((m) => unquote(m[0]));
    if (lines.every((line) => line !== undefined)) {
      out.push(lines.join("\n"), `${lines.join("\n")}\n`);
    }
  }
  return out;
}

/** Shapes written by hand, each read by one reader or the other. */
const HANDWRITTEN = [
  "a: b #c\n",
  "a: 'x' #c\n",
  'a: "x"   \n',
  "- a: 1\n  b: 2\n- c\n",
  "  a: 1\n  b: 2\n",
  "  a: 1\n b: 2\n",
  "a:\n  - x\n  - y\nb: 1\n",
  "a:\n- x\nb: 1\n",
  "a:\n- x\n  b: 1\n",
  "a:\n  b:\n    c:\n      - d\n",
  "a: [x]  \n",
  "a:    b\n",
  "'a': 1\n\"b\": 2\n",
  "a: { b: c }\nd: {e: f}\n",
  "a: [a:b, c]\n",
  "a: [a: b]\n",
  "a: {a:b}\n",
  'a: {"a": b}\n',
  "a:  # c\nb:\n",
  "a:\n\n\n  b: c\n",
  "a:\n# x\n  b: c\n",
  "a:\n  b: c\n  # x\n d: e\n",
  "a: b\n  # indented comment\nc: d\n",
  "a b: c\n",
  "a: b c d\n",
  "a: b, c\n",
  "- [a, b]\n- {c: d}\n",
  "a: - b\n",
  "a:\n  -\n    b\n",
  "a: b\n- c\n",
  "a: [b, c,]\n",
  "a: [b,, c]\n",
  "a: ''\nb: \"\"\n",
  "é: 日本\n",
  "a: b\u00a0c\n",
  "a: b\r\nc:\r\n  - d\r\n",
  "a:\r\n",
  "tools:\n  x: tools/x.ts\nagents:\n  a:\n    tools: { x: true, y: false, z: }\n",
  "agents:\n  a:\n    tools:\n      x:\n      y: true\n",
  "__proto__: 1\nconstructor: 2\n",
  "1: a\n1.0: b\n",
  "~: a\nnull: b\n",
];

/** A small seeded generator (mulberry32), so every run checks the same texts. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS = [
  "a",
  "tools/x.ts",
  "beeuni:web_search",
  "web_search",
  "C:\\x\\y.ts",
  "a b",
  "a#b",
  "a # b",
  "'q'",
  '"dq"',
  "''",
  '""',
  "'it''s'",
  '"a: b"',
  "it's",
  "1",
  "-1",
  "+1",
  "0",
  "-0",
  "007",
  "0x1F",
  "0o17",
  "1.5",
  "1.",
  ".5",
  "1e3",
  "-2.5E-3",
  ".inf",
  "-.Inf",
  "+.INF",
  ".nan",
  ".NaN",
  "NaN",
  "~",
  "null",
  "Null",
  "NULL",
  "nULL",
  "true",
  "True",
  "TRUE",
  "tRUE",
  "false",
  "yes",
  "no",
  "on",
  "1_000",
  "0b101",
  "1:2",
  "a:b",
  "http://x.y/z",
  "[a]",
  "[a, b]",
  "{a: b}",
  "[]",
  "{}",
  "[ ]",
  "{ }",
  "[a, [b, c]]",
  "{a: [b]}",
  "- a",
  "? a",
  "a,b",
  "a]",
  "a}",
  "é",
  "日本語",
  "a\u00a0b",
  "`x`",
  "@x",
  "%x",
  "&a",
  "*a",
  "!x",
  "!!str x",
  "|",
  ">",
  "-",
  "--",
  "a:",
  "a: b",
  "a #",
  "#x",
  "a\\b",
  '"a\\nb"',
  "'a\"b'",
  '"a\'b"',
  "tools/a b.ts",
  "12345678901234567890",
  "0x",
  "1e",
  "+",
  ".",
  "..",
  "a.b",
  "$x",
  "a=b",
  "(a)",
];
const KEYS = [
  "tools",
  "agents",
  "imports",
  "secrets",
  "exclude",
  "model",
  "a",
  "b_c",
  "web_search",
  "'quoted'",
  '"dq key"',
  "1",
  "true",
  "null",
  "~",
  "a b",
  "a.b",
  "a-b",
  "é",
  "<<",
  "__proto__",
  "constructor",
  "k:v",
  "x,y",
  "[k]",
  "-k",
  "?k",
  "a#b",
  "Tools",
];

const PLAIN_SCALARS = [
  "a",
  "tools/x.ts",
  "beeuni:web_search",
  "web_search",
  "all",
  "none",
  "read",
  "'tools/y.ts'",
  '"beeuni:memory"',
  "true",
  "false",
  "~",
  "1",
  "[read, grep]",
  "{ exclude: [bash] }",
  "[]",
  "{}",
  "a b",
  "x_1",
];
const PLAIN_KEYS = [
  "tools",
  "agents",
  "imports",
  "secrets",
  "a",
  "b_c",
  "web_search",
];

function generate(rand: () => number): string {
  const pick = <T>(items: readonly T[]): T =>
    items[Math.floor(rand() * items.length)];
  // Mostly ordinary values and keys, some odd ones.
  const scalar = () => pick(rand() < 0.7 ? PLAIN_SCALARS : SCALARS);
  const key = () => pick(rand() < 0.7 ? PLAIN_KEYS : KEYS);
  const step = pick([1, 2, 2, 2, 3, 4]);
  const lines: string[] = [];
  const comment = () => rand() < 0.1 ? ` # ${scalar()}` : "";
  const filler = (indent: number) => {
    const roll = rand();
    if (roll < 0.05) lines.push("");
    else if (roll < 0.08) lines.push(`${" ".repeat(indent)}# note`);
    else if (roll < 0.09) lines.push(`# col 0`);
    else if (roll < 0.1) lines.push("   ");
  };
  const flow = (depth: number): string => {
    const list = rand() < 0.6;
    const n = Math.floor(rand() * 4);
    const items = Array.from(
      { length: n },
      () =>
        depth < 2 && rand() < 0.15
          ? flow(depth + 1)
          : list
          ? scalar()
          : `${key()}: ${
            depth < 2 && rand() < 0.2 ? flow(depth + 1) : scalar()
          }`,
    );
    const [open, close] = list ? ["[", "]"] : ["{", "}"];
    return n === 0 ? `${open}${close}` : `${open} ${items.join(", ")} ${close}`;
  };
  const block = (indent: number, depth: number): void => {
    const pad = " ".repeat(indent);
    if (depth > 0 && rand() < 0.3) {
      const n = 1 + Math.floor(rand() * 4);
      const itemIndent = rand() < 0.3 ? indent - step : indent;
      for (let i = 0; i < n; i++) {
        filler(indent);
        const itemPad = " ".repeat(Math.max(itemIndent, 0));
        if (depth < 4 && rand() < 0.2) {
          lines.push(`${itemPad}- ${key()}: ${scalar()}${comment()}`);
          if (rand() < 0.5) {
            lines.push(`${itemPad}  ${key()}: ${scalar()}`);
          }
        } else {
          lines.push(
            `${itemPad}- ${rand() < 0.2 ? flow(0) : scalar()}${comment()}`,
          );
        }
      }
      return;
    }
    const n = 1 + Math.floor(rand() * 5);
    for (let i = 0; i < n; i++) {
      filler(indent);
      const name = depth === 0
        ? pick(["tools", "agents", "imports", ...KEYS])
        : key();
      const roll = rand();
      if (depth < 4 && roll < 0.35) {
        lines.push(`${pad}${name}:${comment()}`);
        block(indent + step, depth + 1);
      } else if (roll < 0.45) {
        lines.push(`${pad}${name}:${rand() < 0.5 ? "" : "   "}${comment()}`);
      } else if (roll < 0.6) {
        lines.push(`${pad}${name}: ${flow(0)}${comment()}`);
      } else {
        lines.push(`${pad}${name}: ${scalar()}${comment()}`);
      }
    }
  };
  block(0, 0);
  const text = lines.join("\n") + (rand() < 0.8 ? "\n" : "");
  return rand() < 0.1 ? text.replaceAll("\n", "\r\n") : text;
}

const MUTATIONS = " :-#[]{},'\"\n&*!|>?%@`\t~.0123456789abcxyz_/\\\r";

function mutate(text: string, rand: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * (out.length + 1));
    const char = MUTATIONS[Math.floor(rand() * MUTATIONS.length)];
    const roll = rand();
    if (roll < 0.4) out = out.slice(0, at) + char + out.slice(at);
    else if (roll < 0.7) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + char + out.slice(at + 1);
  }
  return out;
}

Deno.test("the plain reader reads the starter project and a file of the 1,000-tool benchmark as the yaml library does", () => {
  for (const file of ["beeuni.yaml", "agents.yaml"]) {
    const text = readFileSync(
      join(REPO_ROOT, "examples", "starter", file),
      "utf8",
    );
    assert.ok(compare(text), file);
  }
  const lines = ["tools:"];
  for (let t = 0; t < 50; t++) lines.push(`  tool_${t}: tools/tool_${t}.ts`);
  lines.push(
    "agents:",
    "  agent:",
    "    tools: [read, grep, web_search, tool_0, tool_1]",
    "    secrets: [KEY]",
    "  excluder:",
    "    tools: { exclude: [bash, tool_2] }",
    "",
  );
  assert.ok(compare(lines.join("\n")));
});

Deno.test("the plain reader reads every YAML file and test string it reads as the yaml library does", async () => {
  const texts = new Set<string>();
  for (const text of HANDWRITTEN) texts.add(text);
  for (const file of yamlFiles(REPO_ROOT)) {
    texts.add(readFileSync(file, "utf8"));
  }
  const tests = readdirSync(join(REPO_ROOT, "tests")).filter((name) =>
    name.endsWith(".ts")
  );
  for (const name of tests) {
    const source = readFileSync(join(REPO_ROOT, "tests", name), "utf8");
    for (const text of stringLiterals(source)) texts.add(text);
  }
  let read = 0;
  for (const text of texts) {
    if (!compare(text)) continue;
    read++;
    const { plain, yaml } = await parsedBothWays(text);
    assert.deepEqual(plain, yaml, JSON.stringify(text));
  }
  // Most test manifests are plain; far fewer would mean the reader stopped reading them.
  assert.ok(texts.size > 500, `${texts.size} texts`);
  assert.ok(read > 100, `${read} of ${texts.size} read plainly`);
});

Deno.test("the plain reader reads 5,000 generated manifests, plain and mutated, as the yaml library does, and declines the rest", async () => {
  const rand = random(20_240_613);
  let read = 0;
  let mutatedRead = 0;
  for (let i = 0; i < 5000; i++) {
    const text = generate(rand);
    if (compare(text)) {
      read++;
      if (i % 8 === 0) {
        const { plain, yaml } = await parsedBothWays(text);
        assert.deepEqual(plain, yaml, JSON.stringify(text));
      }
    }
    const mutated = mutate(text, rand);
    if (compare(mutated)) mutatedRead++;
  }
  assert.ok(read > 1000, `${read} of 5000 generated read plainly`);
  assert.ok(mutatedRead > 500, `${mutatedRead} of 5000 mutated read plainly`);
});

Deno.test("parseManifest() gives the same manifest with the plain reader or yaml alone, over imported files and at tight limits", async () => {
  const rand = random(7_031_999);
  const limitsTried = [
    {},
    { maxNodes: 12 },
    { maxNodes: 40 },
    { maxNodes: 120 },
    { maxEntries: 2 },
    { maxEntries: 3, maxNodes: 60 },
    { maxDepth: 2 },
    { maxDepth: 3 },
    { maxDepth: 4, maxEntries: 4 },
  ];
  let plainFiles = 0;
  for (let i = 0; i < 600; i++) {
    const files: Record<string, string> = {
      "beeuni.yaml": `imports: [a.yaml, b.yaml]\n${generate(rand)}`,
      "a.yaml": generate(rand),
      "b.yaml": rand() < 0.3 ? mutate(generate(rand), rand) : generate(rand),
    };
    for (const text of Object.values(files)) {
      if (readPlainYaml(text, BOUNDS)) plainFiles++;
    }
    const read = (path: string) => files[path];
    const limits = limitsTried[i % limitsTried.length];
    const plain = await parseManifestWith(
      "/repo",
      "beeuni.yaml",
      read,
      { limits },
      true,
    );
    const yaml = await parseManifestWith(
      "/repo",
      "beeuni.yaml",
      read,
      { limits },
      false,
    );
    assert.deepEqual(plain, yaml, JSON.stringify({ files, limits }));
  }
  // Most files must take the plain path, or this compares yaml with itself.
  assert.ok(plainFiles > 400, `${plainFiles} of 1800 files read plainly`);
});

Deno.test("plain scalars take YAML 1.2 core schema values", () => {
  const cases: [string, unknown][] = [
    ["~", null],
    ["Null", null],
    ["nULL", "nULL"],
    ["True", true],
    ["FALSE", false],
    ["yes", "yes"],
    ["0o17", 15],
    ["0x1F", 31],
    ["-0", -0],
    ["+12", 12],
    ["1.", 1],
    [".5", 0.5],
    ["-2.5E-3", -0.0025],
    ["-.Inf", -Infinity],
    [".NaN", NaN],
    ["1_000", "1_000"],
    ["0b101", "0b101"],
    ["beeuni:web_search", "beeuni:web_search"],
  ];
  for (const [text, value] of cases) {
    assert.ok(Object.is(plainValue(text), value), text);
  }
});

Deno.test("the plain reader declines what it does not read, leaving it to the yaml library", () => {
  for (
    const text of [
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: |\n  text\n",
      "a: b\n  c\n",
      "a:\tb\n",
      "a: b\rc\n",
      '"a\\n": b\n',
      "? a\n: b\n",
      "---\na: b\n",
      "a: b\n...\n",
      "a:\n  - \n",
      "a: b\na: c\n",
      "a: [b,\n  c]\n",
      "a: b: c\n",
      "\ufeffa: b\n",
      "x: " + "[".repeat(70) + "]".repeat(70) + "\n",
    ]
  ) {
    assert.equal(readPlainYaml(text, BOUNDS), undefined, JSON.stringify(text));
  }
});
