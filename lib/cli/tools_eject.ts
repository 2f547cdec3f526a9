/**
 * `beeuni tools eject <name> [--force]`: copies a Beeuni tool's
 * source into the project as `tools/<name>.ts` and points the manifest
 * entry at it.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  chmod,
  lstat,
  mkdir,
  realpath,
  rename,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import { ejectOutput, planEject, readBuiltinSource } from "../eject/mod.ts";
import { loadProject } from "../project/mod.ts";
import {
  errorMessage,
  removeStaleTemps,
  tempPrefix,
  testPause,
} from "../common/mod.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A temporary file beside `path`, holding `data`, with `mode` when given. */
async function writeTemp(
  path: string,
  data: string | Uint8Array,
  mode?: number,
): Promise<string> {
  const temp = join(
    dirname(path),
    `${tempPrefix(path)}${randomBytes(8).toString("hex")}.tmp`,
  );
  await writeFile(temp, data, { flag: "wx" });
  if (mode !== undefined) await chmod(temp, mode & 0o7777);
  return temp;
}

/**
 * Removes the temporary files an earlier, killed eject left beside the tool
 * file and the project's manifest files (inside the checkout, where
 * `git add -A` would commit them); only those over a minute old.
 */
function removeEjectLeftovers(
  root: string,
  name: string,
  manifestFiles: string[],
): void {
  removeStaleTemps(join(root, "tools"), { names: [`${name}.ts`] });
  for (const file of manifestFiles) {
    let real: string;
    try {
      real = realpathSync(join(root, file));
    } catch {
      continue;
    }
    removeStaleTemps(dirname(real), { names: [basename(real)] });
  }
}

/** `beeuni tools eject`: makes a Beeuni tool the project's own. */
export const toolsEjectCommand: Command = {
  name: "tools eject",
  summary:
    "Copy a Beeuni tool into tools/<name>.ts and point beeuni.yaml at it",
  usage: `Usage: beeuni tools eject <name> [--force] [--manifest PATH]

Writes the Beeuni tool <name> (web_search, image_search, scrape_webpage,
memory or show), byte for byte as the daemon runs it, to tools/<name>.ts,
and sets <name>: tools/<name>.ts in the manifest file that declares the
entry (beeuni.yaml or an imported file). Only that line changes; it ends
with "# ejected from beeuni:<name>". With no tools: key anywhere, a tools:
key is added to beeuni.yaml listing the other four Beeuni tools as
beeuni:<name>, so ejecting removes nothing.

Refuses (exit 1) a name that is not a Beeuni tool, a manifest with errors,
an existing tools/<name>.ts, and an entry that points at another module.

To go back: set the line to <name>: beeuni:<name> and delete the file.

Options:
  --force          overwrite tools/<name>.ts and replace another module path
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      force: { type: "boolean" },
      manifest: { type: "string" },
    });
    if (positionals.length === 0) {
      throw new UsageError("name the Beeuni tool to eject, e.g. web_search");
    }
    if (positionals.length > 1) {
      throw new UsageError(`unexpected argument "${positionals[1]}"`);
    }
    const manifestOption = values.manifest as string | undefined;
    if (manifestOption === "") throw new UsageError("--manifest needs a path");
    const [name] = positionals;
    const project = await loadProject({
      cwd: io.cwd,
      manifest: manifestOption,
    });
    const { root } = project;
    removeEjectLeftovers(
      root,
      name,
      project.manifest.files.map((file) => file.path),
    );
    const plan = await planEject({
      name,
      manifest: project.manifest,
      diagnostics: project.diagnostics,
      read: (path) => readFileSync(join(root, path), "utf8"),
      toolFileExists: await exists(join(root, "tools", `${name}.ts`)),
      force: values.force === true,
    });
    const source = await readBuiltinSource(plan.name);

    const toolPath = join(root, plan.toolFile);
    const manifestPath = await realpath(join(root, plan.manifestFile));
    const mode = (await stat(manifestPath)).mode;
    try {
      await mkdir(dirname(toolPath), { recursive: true });
    } catch (error) {
      throw new Error(
        `cannot write ${plan.toolFile}: ${errorMessage(error)}`,
      );
    }
    // Both files are written beside their targets first, then renamed into
    // place: an interrupted eject leaves each file old or new, never half.
    // The manifest goes first: stopped between the two renames, the entry
    // points at a missing tools/<name>.ts (validate says so, and running
    // eject again writes it), never a tool file the manifest ignores.
    const temps: string[] = [];
    try {
      const toolTemp = await writeTemp(toolPath, source);
      temps.push(toolTemp);
      const manifestTemp = plan.after === plan.before
        ? undefined
        : await writeTemp(manifestPath, plan.after, mode);
      if (manifestTemp) {
        temps.push(manifestTemp);
        await rename(manifestTemp, manifestPath);
        temps.pop();
      }
      testPause(io.env, "eject-between-renames");
      try {
        await rename(toolTemp, toolPath);
      } catch (error) {
        // The manifest changed but the tool file did not: put it back.
        if (manifestTemp) {
          const restore = await writeTemp(manifestPath, plan.before, mode);
          temps.push(restore);
          await rename(restore, manifestPath);
          temps.pop();
        }
        throw error;
      }
      temps.shift();
    } finally {
      for (const temp of temps) await unlink(temp).catch(() => {});
    }
    io.stdout(ejectOutput(plan, io.color ? "\x1b[32m✓\x1b[0m" : "✓"));
    return 0;
  },
};
