// One generation of a host's tools: what one reading of the manifest
// declared, what of it loaded, and the calls running on it. A reload builds
// the next generation beside this one and swaps them once it has loaded.

import {
  agentMaySee,
  builtinToolUrl,
  type Diagnostic,
  findAgent,
  type Harness,
  isBeeuniTool,
  type Manifest,
  type ToolSet,
} from "../manifest/mod.ts";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { localFiles } from "./_module_graph.ts";
import type { LoadReport, ModuleRef } from "./_protocol.ts";
import type { Validator } from "./_schema.ts";
import type { HostedTool, LoadError } from "./types.ts";

/** A tool whose module loaded. */
export interface LoadedTool extends HostedTool {
  /** Its validator, when arguments are validated. */
  validate?: Validator;
}

/** What a project reading gives a generation. */
export interface GenerationSource {
  root: string;
  manifest: Manifest;
  toolSet: ToolSet;
  diagnostics: Diagnostic[];
}

/** One generation of a host's tools. */
export class Generation {
  /** Its number, unique within the host. */
  readonly id: number;
  /** The project root. */
  readonly root: string;
  /** The manifest it serves. */
  readonly manifest: Manifest;
  /** The tool set the manifest resolves to. */
  readonly toolSet: ToolSet;
  /** The manifest's diagnostics. */
  readonly diagnostics: Diagnostic[];
  /** Every declared tool's module, by name, in tool-set order. */
  readonly modules: Map<string, ModuleRef>;
  /**
   * Each declared tool's module version: the id of the generation that
   * imported it last. A reload of some modules only gives those a new
   * version; the runners of the others, keyed by version, keep serving.
   */
  readonly versions: Map<string, number>;
  readonly #source: GenerationSource;
  /** The tools that loaded, in the order they were reported. */
  readonly tools: Map<string, LoadedTool> = new Map();
  /** The tools that did not load, with why. */
  readonly failed: Map<string, LoadError> = new Map();
  /** Calls running on this generation. */
  inflight = 0;
  #drained?: () => void;
  #waiting = new Map<string, (() => void)[]>();
  #seen = new Map<string, boolean>();

  /** A generation for `source`, numbered `id`. */
  constructor(id: number, source: GenerationSource) {
    this.id = id;
    this.root = source.root;
    this.manifest = source.manifest;
    this.toolSet = source.toolSet;
    this.diagnostics = source.diagnostics;
    this.#source = source;
    this.modules = new Map(
      source.toolSet.tools.map((tool) => [tool.name, {
        name: tool.name,
        url: tool.kind === "beeuni" && isBeeuniTool(tool.name)
          ? builtinToolUrl(tool.name).href
          : pathToFileURL(resolve(source.root, tool.source)).href,
      }]),
    );
    this.versions = new Map(
      [...this.modules.keys()].map((name) => [name, id]),
    );
  }

  /**
   * The next generation, numbered `id`, for the same manifest with the
   * modules of `changed` to import anew: every other tool keeps its load
   * report and its version.
   */
  derive(id: number, changed: ReadonlySet<string>): Generation {
    const next = new Generation(id, this.#source);
    for (const name of this.modules.keys()) {
      if (changed.has(name)) continue;
      next.versions.set(name, this.versions.get(name)!);
      const tool = this.tools.get(name);
      const failure = this.failed.get(name);
      if (tool) next.tools.set(name, tool);
      else if (failure) next.failed.set(name, failure);
    }
    return next;
  }

  /** The manifest files this generation read: the root manifest and its imports (absolute). */
  manifestFiles(): string[] {
    const files = new Set([resolve(this.root, this.manifest.manifestPath)]);
    for (const file of this.manifest.files) {
      files.add(resolve(this.root, file.path));
      for (const entry of file.imports) {
        files.add(resolve(this.root, entry.path));
      }
    }
    return [...files];
  }

  /** The modules of the project's own tools (absolute), overridden Beeuni tools included. */
  projectModules(): string[] {
    return this.toolSet.tools
      .filter((tool) => !(tool.kind === "beeuni" && isBeeuniTool(tool.name)))
      .map((tool) => resolve(this.root, tool.source));
  }

  /**
   * The project tool modules and every local file they import, at any
   * depth (read from their sources, once); undefined when that graph is
   * over its bounds.
   */
  sources(): string[] | undefined {
    if (this.#sources === null) {
      this.#sources = localFiles(this.projectModules());
    }
    return this.#sources;
  }

  #sources: string[] | undefined | null = null;

  /** The key part of `name`'s runners: its module version and name. */
  runnerPrefix(name: string): string {
    return `${this.versions.get(name)}\0${name}\0`;
  }

  /** Records one module's load report (the first report of a name counts). */
  record(report: LoadReport, tool?: LoadedTool): void {
    if (this.tools.has(report.name) || this.failed.has(report.name)) return;
    if (!report.ok) {
      this.failed.set(report.name, {
        name: report.name,
        reason: report.reason,
        ...(report.at ? { at: report.at } : {}),
      });
    } else if (tool) this.tools.set(report.name, tool);
    for (const wake of this.#waiting.get(report.name) ?? []) wake();
    this.#waiting.delete(report.name);
  }

  /** Whether `name`'s module has been reported on. */
  settled(name: string): boolean {
    return this.tools.has(name) || this.failed.has(name);
  }

  /** Resolves once `name`'s module has been reported on. */
  whenSettled(name: string): Promise<void> {
    if (this.settled(name)) return Promise.resolve();
    return new Promise((wake) => {
      const list = this.#waiting.get(name) ?? [];
      list.push(wake);
      this.#waiting.set(name, list);
    });
  }

  /** The tools that did not load, in tool-set order. */
  loadErrors(): LoadError[] {
    return [...this.modules.keys()]
      .filter((name) => this.failed.has(name))
      .map((name) => ({ ...this.failed.get(name)! }));
  }

  /** The loaded tools, in tool-set order. */
  loaded(): LoadedTool[] {
    return [...this.modules.keys()]
      .map((name) => this.tools.get(name))
      .filter((tool): tool is LoadedTool => tool !== undefined);
  }

  /** Whether `agent` (started by `parent`) may see `tool`. */
  visible(
    tool: string,
    agent: string | undefined,
    parent: string | undefined,
    harness: Harness,
  ): boolean {
    if (agent === undefined) return true;
    const key = parent === undefined
      ? `${agent}\0${tool}`
      : `${agent}\0${tool}\0${parent}`;
    let allowed = this.#seen.get(key);
    if (allowed === undefined) {
      allowed = agentMaySee(tool, {
        agent: findAgent(this.manifest, agent),
        parent: parent === undefined
          ? undefined
          : findAgent(this.manifest, parent),
        harness,
      });
      if (this.#seen.size >= 10_000) this.#seen.clear();
      this.#seen.set(key, allowed);
    }
    return allowed;
  }

  /**
   * The secret names `agent` is granted: `"*"` for all, a sorted list,
   * or `undefined` for none. Calls of agents with the same grant share a
   * runner; others never do.
   */
  grant(agent: string): "*" | string[] | undefined {
    const entry = findAgent(this.manifest, agent);
    if (!entry) return undefined;
    if (entry.secrets === "all") return "*";
    if (entry.secrets.length === 0) return undefined;
    return [...new Set(entry.secrets.map((ref) => ref.name))].sort();
  }

  /** Counts a call in. */
  enter(): void {
    this.inflight++;
  }

  /** Counts a call out. */
  leave(): void {
    this.inflight--;
    if (this.inflight === 0) this.#drained?.();
  }

  /** Resolves once no call runs on this generation. */
  drained(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((done) => this.#drained = done);
  }

  /** What agents see of this generation, to tell whether a reload changed it. */
  fingerprint(): string {
    return JSON.stringify({
      tools: this.loaded().map((t) => [
        t.name,
        t.kind,
        t.source,
        t.description,
        t.parameters,
      ]),
      errors: this.loadErrors(),
      agents: this.manifest.files.map((f) =>
        f.agents.map((a) => [a.name, a.tools, a.secrets])
      ),
    });
  }
}
