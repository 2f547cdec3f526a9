// Importing a generation's modules and taking what they report:
// each module's metadata checked (its schema compiled with Ajv), or why it
// is not a tool, with the file and position of a syntax error where the
// runner's runtime gave none.

import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage } from "../common/mod.ts";
import type { Generation, LoadedTool } from "./_generation.ts";
import { type Launcher, NO_GRANT } from "./_launcher.ts";
import { loadModules } from "./_loader.ts";
import type { LoadReport, ModuleRef } from "./_protocol.ts";
import type { SpareRunner } from "./_spare_runner.ts";

/** How a load report of a syntax error starts (see _tool_module.ts). */
const SYNTAX_ERROR = "the module has a syntax error: ";

/** What loading needs from its host. */
export interface ModuleLoadingOptions {
  /** The project folder. */
  directory: string;
  /** Whether arguments are validated: the compiled schema is kept. */
  validateArgs: boolean;
  /** How long one module's import may take. */
  loadTimeoutMs: number;
  /** Starts runner processes. */
  launcher: Launcher;
  /** The spare runner process a reload's loader may take. */
  spare: SpareRunner;
  /** Where log lines go. */
  log(line: string): void;
  /** Aborts when the host closes. */
  signal: AbortSignal;
}

/** Loads a host's modules and records what they report. */
export class ModuleLoading {
  readonly #o: ModuleLoadingOptions;
  #compile?: Promise<
    (schema: Record<string, unknown>) => LoadedTool["validate"]
  >;

  /** Loading for the host `options` describes. */
  constructor(options: ModuleLoadingOptions) {
    this.#o = options;
  }

  /**
   * `report` with the file and position of its syntax error, where the
   * runner's runtime gave none (Node.js, for a JavaScript module).
   */
  async #located(
    generation: Generation,
    report: Extract<LoadReport, { ok: false }>,
  ): Promise<LoadReport> {
    const url = generation.modules.get(report.name)?.url;
    if (
      report.at || this.#o.launcher.runtime !== "node" ||
      !report.reason.startsWith(SYNTAX_ERROR) || !url?.startsWith("file:")
    ) return report;
    const { locateSyntaxError } = await import("./_syntax_position.ts");
    const at = await locateSyntaxError(
      fileURLToPath(url),
      this.#o.launcher.execPath,
    );
    if (!at) return report;
    const shown = relative(this.#o.directory, at.file);
    return {
      ...report,
      reason: `${report.reason} (${shown}:${at.line}:${at.col})`,
      at,
    };
  }

  /** Checks a reported schema with Ajv (the validator is kept for the calls). */
  async accept(generation: Generation, report: LoadReport): Promise<void> {
    if (!report.ok) {
      generation.record(await this.#located(generation, report));
      return;
    }
    const resolved = generation.toolSet.tools.find((t) =>
      t.name === report.name
    )!;
    this.#compile ??= import("./_schema.ts").then((m) => m.schemaCompiler());
    let validate: LoadedTool["validate"];
    try {
      const compiled = (await this.#compile)(report.parameters);
      if (this.#o.validateArgs) validate = compiled;
    } catch (error) {
      generation.record({
        name: report.name,
        ok: false,
        reason: `parameters is not a valid JSON Schema: ${errorMessage(error)}`,
      });
      return;
    }
    generation.record(report, {
      name: report.name,
      description: report.description,
      parameters: report.parameters,
      kind: resolved.kind,
      source: resolved.source,
      validate,
    });
  }

  /**
   * Imports `modules` (default: all of `generation`'s) in a loader process
   * and records their reports; on reload the loader may be the spare
   * runner process.
   */
  async load(
    generation: Generation,
    modules: ModuleRef[] = [...generation.modules.values()],
    spare = false,
  ): Promise<void> {
    const accepted: Promise<void>[] = [];
    await loadModules(modules, {
      start: (events) =>
        spare
          ? this.#o.spare.take(NO_GRANT, events)
          : this.#o.launcher.start(NO_GRANT, events),
      timeoutMs: this.#o.loadTimeoutMs,
      log: this.#o.log,
      signal: this.#o.signal,
      onReport: (report) => accepted.push(this.accept(generation, report)),
    });
    await Promise.all(accepted);
  }
}
