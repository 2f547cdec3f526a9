// The page's static files: our own from `assets/`, and the two libraries it
// uses (marked, DOMPurify) from where the runtime resolved their npm
// packages, or all of them from the texts a one-file build carries
// (web_files.ts). Every file is read once and kept.

import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  ASSET_NAMES,
  embeddedWebFiles,
  VENDOR,
  type WebFileName,
  type WebFiles,
} from "./web_files.ts";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

const ASSETS = new URL("./assets/", import.meta.url);

/** A static file: its bytes and content type. */
export interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

async function readUrl(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  if (url.protocol === "file:") return new Uint8Array(await readFile(url));
  // Loaded from a registry over https: the assets sit beside the module.
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot read ${url.href}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** The root folder of npm package `pkg` as the runtime resolves it from here. */
function packageRoot(pkg: string): string {
  const entry = createRequire(import.meta.url).resolve(pkg);
  let dir = dirname(entry);
  while (true) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = JSON.parse(readFileSync(manifest, "utf8")).name;
      if (name === pkg) return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the folder of package "${pkg}"`);
    }
    dir = parent;
  }
}

function typeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf(".") + 1)] ??
    "application/octet-stream";
}

/** Loads and keeps the page's files. */
export class Assets {
  #cache = new Map<string, Promise<Asset | undefined>>();
  #embedded: Promise<WebFiles> | undefined;

  /** The file served as `name` (`app.js`, `vendor/marked.js`), or `undefined` when there is none. */
  get(name: string): Promise<Asset | undefined> {
    let asset = this.#cache.get(name);
    if (asset === undefined) {
      asset = this.#load(name);
      this.#cache.set(name, asset);
    }
    return asset;
  }

  async #load(name: string): Promise<Asset | undefined> {
    const load = embeddedWebFiles();
    if (load !== undefined) {
      const files = await (this.#embedded ??= load());
      if (!Object.hasOwn(files, name)) return undefined;
      return {
        body: new TextEncoder().encode(files[name as WebFileName]),
        type: typeOf(name),
      };
    }
    if ((ASSET_NAMES as readonly string[]).includes(name)) {
      return {
        body: await readUrl(new URL(name, ASSETS)),
        type: typeOf(name),
      };
    }
    const file = name.startsWith("vendor/") ? name.slice("vendor/".length) : "";
    if (!Object.hasOwn(VENDOR, file)) return undefined;
    const vendor = VENDOR[file as keyof typeof VENDOR];
    try {
      const path = join(packageRoot(vendor.pkg), vendor.file);
      return {
        body: new Uint8Array(await readFile(path)),
        type: typeOf(name),
      };
    } catch {
      // Not installed where this runtime looks: the page renders Markdown
      // as plain text then.
      return undefined;
    }
  }
}
