// How a host starts its runner processes: for each grant of secrets a
// temporary folder of its own; the paths tools may read and write, minus
// what governs them and the symbolic links that would lead past a grant,
// as the runner's runtime enforces them. What governs the tools and which
// links the project holds are looked at again with every reload.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { basename, join } from "node:path";
import { errorMessage } from "../common/mod.ts";
import type { RuntimeName } from "../runtime/mod.ts";
import {
  type Confinement,
  confinement,
  linksToDeny,
  type RealGrant,
} from "./_confinement.ts";
import { governedPaths } from "./_governed.ts";
import { realPath } from "./_module_graph.ts";
import { MAY_START_PROCESSES } from "./_runner_guards.ts";
import { runnerCommand } from "./_runner_command.ts";
import type { RunnerEntry } from "./_runner_entry.ts";
import {
  type RunnerEvents,
  RunnerProcess,
  type SpawnSpec,
} from "./_runner_process.ts";
import { findLinks, type ProjectLink } from "./_symlinks.ts";

/** What a host's runners are started with. */
export interface LauncherOptions {
  /** The project folder: the runners' working folder, where tools write. */
  directory: string;
  /** The runtime runners run on, and its executable. */
  runtime: RuntimeName;
  /** The runtime's executable. */
  execPath: string;
  /** The runtime's version, where its flags depend on it. */
  version?: string;
  /** The runner program. */
  entry: RunnerEntry;
  /** The heap limit of each runner, in MB. */
  heapMb: number;
  /** Whether tools may start processes. */
  allowRun: boolean;
  /** Whether tools may listen on addresses other than loopback. */
  allowRemoteListen: boolean;
  /** The folder of the Beeuni tools' modules. */
  builtinDir: string;
  /** The folder each grant's temporary folder is made in. */
  tmpRoot: string;
  /** The host's folder of saved outputs, when runners save there. */
  outputDir?: string;
  /** More readable paths. */
  allowRead?: string[];
  /** More writable paths. */
  allowWrite?: string[];
  /** Paths never readable. */
  denyRead?: string[];
  /** Paths never writable, besides what governs the tools. */
  denyWrite?: string[];
  /** The environment runners start with. */
  env(): Record<string, string>;
  /** Where notes about the confinement go. */
  log(line: string): void;
}

/** The files that govern one reading of the project. */
export interface GovernedFiles {
  /** The manifest and every file it imports (absolute). */
  manifestFiles: string[];
  /** The project tool modules (absolute). */
  modules: string[];
  /** The local files the modules import, when known (absolute). */
  imports?: string[];
}

/** The grant of agents granted no secret, as runner keys write it. */
export const NO_GRANT = "";

/** The name of a grant's temporary folder: the grant itself is not shown. */
function grantFolder(grant: string): string {
  return `grant-${
    createHash("sha256").update(grant).digest("hex").slice(0, 12)
  }`;
}

/** The machine's addresses other than loopback, as Deno's permission flags write them. */
function remoteAddresses(): string[] {
  const out = ["0.0.0.0", "[::]"];
  try {
    for (const list of Object.values(networkInterfaces())) {
      for (const address of list ?? []) {
        if (address.internal) continue;
        if (address.family === "IPv4") out.push(address.address);
        else if (!/^fe80:/i.test(address.address)) {
          out.push(`[${address.address}]`);
        }
      }
    }
  } catch {
    // No access to the interfaces: the wildcard addresses still go.
  }
  return out;
}

/** `path` under the project's given name and its real one. */
function bothNames(path: string, directory: string, real: string): string[] {
  if (directory === real) return [path];
  if (path === real) return [path, directory];
  if (path.startsWith(real + "/")) {
    return [path, directory + path.slice(real.length)];
  }
  return [path];
}

/**
 * The runtime and executable a `--runner` value names: `deno`, `node` or
 * `bun` (found on the PATH), or a path to one of them.
 */
export function runnerProgram(
  choice: string,
): RunnerProgram {
  const name = basename(choice).replace(/\.exe$/i, "");
  const runtime = (["deno", "node", "bun"] as const).find((known) =>
    name.startsWith(known)
  );
  if (runtime === undefined) {
    throw new Error(
      `cannot run tools with "${choice}": name deno, node or bun, or the path of one of them`,
    );
  }
  return { runtime, execPath: choice, version: versionOf(runtime, choice) };
}

/** A runtime to run runners on. */
export interface RunnerProgram {
  /** Which runtime. */
  runtime: RuntimeName;
  /** Its executable. */
  execPath: string;
  /** Its version, when known. */
  version?: string;
}

/** The version `execPath` says it is (Node.js only: its flags depend on it). */
function versionOf(runtime: RuntimeName, execPath: string): string | undefined {
  if (runtime !== "node") return undefined;
  try {
    return execFileSync(execPath, ["--version"], {
      encoding: "utf8",
      timeout: 10_000,
      stdio: ["ignore", "pipe", "ignore"],
    }).trim().replace(/^v/, "");
  } catch (error) {
    throw new Error(
      `cannot run tools with "${execPath}": ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

/** Starts runner processes for one host. */
export class Launcher {
  readonly #options: LauncherOptions;
  readonly #real: string;
  #governed: string[] = [];
  #links: ProjectLink[] = [];
  /** A note on the last look for links that was cut short. */
  #incomplete?: string;
  /** What the last look found, to tell whether the next one changed it. */
  #seen = "";
  #version = 0;
  readonly #specs = new Map<string, SpawnSpec | { refused: string }>();

  /** A launcher for `options`. */
  constructor(options: LauncherOptions) {
    this.#options = options;
    this.#real = realPath(options.directory);
  }

  /** The runtime runners run on. */
  get runtime(): RuntimeName {
    return this.#options.runtime;
  }

  /** The executable runners run on. */
  get execPath(): string {
    return this.#options.execPath;
  }

  /** A number that changes whenever what confines new runners changes. */
  get version(): number {
    return this.#version;
  }

  /**
   * Looks again at what governs the tools and at the project's links;
   * runners started from now on are confined by what it finds. Resolves to
   * whether it found a path or link that runners started before do not
   * deny (they then have to go), and a note when the look for links was
   * cut short.
   */
  async refresh(
    files: GovernedFiles,
  ): Promise<{ widened: boolean; note?: string }> {
    const governed = governedPaths({
      directory: this.#options.directory,
      ...files,
      more: this.#options.denyWrite,
    });
    let links = this.#links;
    if (this.#options.runtime !== "bun") {
      const scan = await findLinks(this.#real);
      links = scan.links;
      this.#incomplete = scan.complete
        ? undefined
        : `the project has more than ${scan.entries} files and folders: symbolic links past those were not looked for`;
    }
    const known = new Set([
      ...this.#governed,
      ...this.#links.map((link) => JSON.stringify(link)),
    ]);
    const widened = governed.some((path) => !known.has(path)) ||
      links.some((link) => !known.has(JSON.stringify(link)));
    const seen = JSON.stringify([governed, links]);
    this.#governed = governed;
    this.#links = links;
    if (seen !== this.#seen) {
      this.#seen = seen;
      this.#version++;
      this.#specs.clear();
    }
    return { widened, note: this.#incomplete };
  }

  /**
   * Looks again, as {@linkcode Launcher.refresh} does, one look at a time
   * in the order asked, logging a look cut short (once) or failed;
   * resolves to whether runners started before must go.
   */
  confine(files: GovernedFiles): Promise<boolean> {
    const look = async () => {
      let note: string | undefined;
      let widened = true;
      try {
        ({ note, widened } = await this.refresh(files));
      } catch (error) {
        note = `cannot look at what governs the tools: ${errorMessage(error)}`;
      }
      if (note !== undefined && note !== this.#lastNote) {
        this.#options.log(`[tools] ${note}`);
      }
      this.#lastNote = note;
      return widened;
    };
    const next = this.#looking.then(look, look);
    this.#looking = next;
    return next;
  }

  #looking: Promise<boolean> = Promise.resolve(false);
  #lastNote?: string;

  /** The temporary folder of `grant`'s runners, made when missing. */
  #tmpFor(grant: string): string {
    const dir = join(this.#options.tmpRoot, grantFolder(grant));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Paths under both of the project's names. */
  #named(paths: string[]): string[] {
    return paths.flatMap((path) =>
      bothNames(path, this.#options.directory, this.#real)
    );
  }

  #realGrant(allowed: string[], denied: string[]): RealGrant {
    return {
      allowed: allowed.map(realPath),
      denied: denied.map(realPath),
    };
  }

  /** The paths of `grant`'s runners, with the project's links denied where they lead past them. */
  #confine(grant: string): Confinement | { refused: string } {
    const o = this.#options;
    const paths = confinement({
      directory: o.directory,
      builtinDir: o.builtinDir,
      runnerDir: o.runtime === "node" ? o.entry.codeDir : undefined,
      tmpDir: this.#tmpFor(grant),
      outputDir: o.outputDir,
      allowRead: o.allowRead,
      allowWrite: o.allowWrite,
      denyRead: o.denyRead,
      denyWrite: this.#governed,
    });
    const reads = linksToDeny(
      this.#links,
      this.#realGrant(paths.read, paths.denyRead),
    );
    if (o.runtime === "node") {
      // Node.js cannot deny a path inside a grant: a runner does not start
      // while a link leads past its grants.
      const writes = linksToDeny(
        this.#links,
        this.#realGrant(paths.write, [
          ...paths.denyRead,
          ...(o.denyWrite ?? []),
        ]),
      );
      const link = [...reads, ...writes][0];
      if (link) return { refused: this.#refusal(link) };
      return paths;
    }
    const writes = linksToDeny(
      this.#links,
      this.#realGrant(paths.write, paths.denyWrite),
    );
    return {
      ...paths,
      denyRead: [...paths.denyRead, ...this.#named(reads.map((l) => l.path))],
      denyWrite: [
        ...this.#named(paths.denyWrite),
        ...this.#named(writes.map((l) => l.path)),
      ],
    };
  }

  #refusal(link: ProjectLink): string {
    const shown = link.path.startsWith(this.#real + "/")
      ? link.path.slice(this.#real.length + 1)
      : link.path;
    const where = link.target === undefined
      ? "leads to nothing"
      : `leads to "${link.target}"`;
    return `the project's symbolic link "${shown}" ${where}, past what tools may reach, and Node.js cannot deny a path: remove the link, grant its target with --allow-read/--allow-write, or run the tools under Deno (--runner deno), which denies the link`;
  }

  #spec(grant: string): SpawnSpec | { refused: string } {
    const known = this.#specs.get(grant);
    if (known) return known;
    const o = this.#options;
    let spec: SpawnSpec | { refused: string };
    try {
      const paths = this.#confine(grant);
      spec = "refused" in paths ? paths : {
        ...runnerCommand({
          runtime: o.runtime,
          execPath: o.execPath,
          version: o.version,
          entry: {
            file: o.entry.file,
            args: [
              ...o.entry.args,
              ...(o.allowRun ? [MAY_START_PROCESSES] : []),
            ],
          },
          heapMb: o.heapMb,
          allowRun: o.allowRun,
          denyNet: o.allowRemoteListen ? [] : remoteAddresses(),
          ...paths,
        }),
        cwd: o.directory,
        env: { ...o.env(), TMPDIR: this.#tmpFor(grant) },
        killDescendants: o.allowRun || o.runtime === "bun",
      };
    } catch (error) {
      spec = {
        refused: `its temporary folder cannot be made: ${errorMessage(error)}`,
      };
    }
    this.#specs.set(grant, spec);
    return spec;
  }

  /** Starts a runner for the calls of agents granted `grant` (a runner key's grant part). */
  start(grant: string, events: RunnerEvents): RunnerProcess {
    const spec = this.#spec(grant);
    return "refused" in spec
      ? RunnerProcess.refused(spec.refused, events)
      : new RunnerProcess(spec, events);
  }
}
