// A to-do list kept in a JSON file in the project folder, so every agent of
// the session sees the same list.

import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import type { Tool, ToolContext } from "@beeuni/tools";

interface Item {
  id: number;
  text: string;
  done: boolean;
}

interface Args {
  action: "add" | "list" | "done" | "undo" | "remove" | "clear_done";
  text?: string;
  id?: number;
}

/** Where the list lives, relative to the project folder. */
const FILE = ".beeuni/todo_list.json";

async function load(path: string): Promise<Item[]> {
  try {
    const data = JSON.parse(await readFile(path, "utf8"));
    return Array.isArray(data) ? data : [];
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw new Error(`cannot read ${FILE}: ${(error as Error).message}`);
  }
}

async function save(path: string, items: Item[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(items, null, 2)}\n`);
  await rename(temp, path);
}

function find(items: Item[], id: number | undefined): Item {
  const item = items.find((entry) => entry.id === id);
  if (!item) {
    throw new Error(
      `no item with id ${id}: the ids are ${
        items.map((entry) => entry.id).join(", ") || "none yet"
      }`,
    );
  }
  return item;
}

export default {
  description:
    "Keep a shared to-do list for this project: add an item, list items, mark one done or not done, remove one, or clear the done ones.",
  parameters: {
    type: "object",
    properties: {
      action: {
        type: "string",
        enum: ["add", "list", "done", "undo", "remove", "clear_done"],
        description: "What to do",
      },
      text: { type: "string", description: "The item's text (for add)" },
      id: {
        type: "integer",
        description: "The item's id (for done, undo, remove)",
      },
    },
    required: ["action"],
  },
  async execute(args: Args, context: ToolContext) {
    const path = join(context.directory, FILE);
    const items = await load(path);
    switch (args.action) {
      case "list":
        return { items, open: items.filter((item) => !item.done).length };
      case "add": {
        const text = (args.text ?? "").trim();
        if (text === "") throw new Error("add needs a non-empty `text`");
        const id = items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
        items.push({ id, text, done: false });
        break;
      }
      case "done":
      case "undo":
        find(items, args.id).done = args.action === "done";
        break;
      case "remove":
        items.splice(items.indexOf(find(items, args.id)), 1);
        break;
      case "clear_done":
        items.splice(0, items.length, ...items.filter((item) => !item.done));
        break;
      default:
        throw new Error(
          `unknown action ${
            JSON.stringify(args.action)
          }: use add, list, done, undo, remove or clear_done`,
        );
    }
    await save(path, items);
    return { items, open: items.filter((item) => !item.done).length };
  },
} satisfies Tool;
