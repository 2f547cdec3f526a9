// Whether Node.js or Bun, running a checkout's source, finds the toolkit's
// own npm packages. Deno fetches them itself, the npm package has them
// installed beside it and the bundle carries them: only a checkout can
// lack them, until `npm install` has run in it.

/** Node.js's `process`, as far as this module reads it. */
interface NodeProcess {
  getBuiltinModule?(id: string): unknown;
}

interface NodeFs {
  existsSync(path: URL): boolean;
  readFileSync(path: URL, encoding: "utf8"): string;
}

interface NodeUrl {
  fileURLToPath(url: URL): string;
}

/** What of Bun this module uses. */
interface BunGlobal {
  file(path: URL): { size: number };
}

/** The checkout's package names, and a quick look for one in its `node_modules`. */
interface CheckoutPackages {
  names: string[];
  installed(name: string): boolean;
}

const SOURCE = "/lib/runtime/_dependencies.ts";

/** Whether the runtime resolves package `name` from here. */
function resolves(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The names of the checkout's package.json `dependencies`, and a quick
 * look for each in the checkout's `node_modules` (a look costs
 * microseconds, a resolution milliseconds). Bun's `node:fs` takes longer
 * to load than the whole check: under Bun a JSON import reads the file and
 * `Bun.file` looks.
 */
async function checkoutPackages(
  root: URL,
  process: NodeProcess | undefined,
): Promise<CheckoutPackages | undefined> {
  const file = (name: string) =>
    new URL(`node_modules/${name}/package.json`, root);
  const names = (manifest: { dependencies?: Record<string, string> }) =>
    Object.keys(manifest.dependencies ?? {});
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  try {
    if (bun !== undefined) {
      const manifest = await import("../../package.json", {
        with: { type: "json" },
      });
      return {
        names: names(manifest.default),
        installed: (name) => bun.file(file(name)).size > 0,
      };
    }
    const fs = process?.getBuiltinModule?.("node:fs") as NodeFs | undefined;
    if (fs === undefined) return undefined;
    return {
      names: names(
        JSON.parse(fs.readFileSync(new URL("package.json", root), "utf8")),
      ),
      installed: (name) => fs.existsSync(file(name)),
    };
  } catch {
    return undefined;
  }
}

/**
 * The toolkit's own packages (its package.json `dependencies`) that this
 * Node.js or Bun cannot resolve from a checkout, in the message its entry
 * points print; `undefined` when all resolve, or when this code is not a
 * checkout's source.
 */
export async function missingDependenciesProblem(): Promise<
  string | undefined
> {
  if (!import.meta.url.endsWith(SOURCE)) return undefined;
  const process = (globalThis as { process?: NodeProcess }).process;
  const root = new URL("../../", import.meta.url);
  const packages = await checkoutPackages(root, process);
  if (packages === undefined) return undefined;
  const missing = packages.names.filter((name) =>
    !packages.installed(name) && !resolves(name)
  );
  if (missing.length === 0) return undefined;
  const url = process?.getBuiltinModule?.("node:url") as NodeUrl;
  const checkout = url.fileURLToPath(root).replace(/\/$/, "");
  const quoted = missing.map((name) => `"${name}"`).join(", ");
  const noun = missing.length === 1 ? "package" : "packages";
  return `beeuni cannot find its own ${noun} ${quoted}: run \`npm install\` in ${checkout}`;
}
