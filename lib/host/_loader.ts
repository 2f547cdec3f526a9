// Reading every tool module's metadata in a runner process of its
// own: the modules are imported one at a time, so a module that hangs or
// ends the process at import is known by name, left out after its timeout
// (once), and the rest load in a fresh process.

import type { LoadReport, ModuleRef, ToHost } from "./_protocol.ts";
import type { RunnerEvents, RunnerProcess } from "./_runner_process.ts";

/** What loading needs from the host. */
export interface LoaderOptions {
  /** Starts a runner process that reports to `events`. */
  start(events: RunnerEvents): RunnerProcess;
  /** Where the loader's log lines go. */
  log(line: string): void;
  /** How long one module's import may take, in milliseconds. */
  timeoutMs: number;
  /** Called with each report as it arrives. */
  onReport?(report: LoadReport): void;
  /** Stops loading: the loader process is killed and what is left is reported as not loaded. */
  signal?: AbortSignal;
}

/** Loads `modules` in one process; resolves to the reports it got and the module it was stuck on, if any. */
function loadIn(
  modules: ModuleRef[],
  options: LoaderOptions,
  reports: Map<string, LoadReport>,
): Promise<{ stuck?: string; reason?: string }> {
  return new Promise((resolve) => {
    let current: string | undefined;
    // The modules are imported, and reported, in the order they were sent.
    let next = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const finish = (result: { stuck?: string; reason?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", stop);
      runner.kill();
      resolve(result);
    };
    const stop = () => finish({ reason: "the tool host was closed" });
    // Module code runs in this process and can write to the channel: a
    // message out of turn ends it. The module importing then is left out;
    // between imports, the modules not reported yet load in a new loader.
    const outOfTurn = (what: string) =>
      finish(
        current === undefined ? {} : {
          stuck: current,
          reason:
            `the module broke the tool host's protocol while loading (${what})`,
        },
      );
    const onMessage = (message: ToHost) => {
      if (message.t === "loading") {
        if (current !== undefined || message.name !== modules[next]?.name) {
          return outOfTurn(`a report of loading "${message.name}"`);
        }
        next++;
        current = message.name;
        clearTimeout(timer);
        timer = setTimeout(() =>
          finish({
            stuck: message.name,
            reason:
              `importing the module did not finish within ${options.timeoutMs} ms`,
          }), options.timeoutMs);
      } else if (message.t === "loaded") {
        if (message.name !== current) {
          return outOfTurn(`a report of "${message.name}" having loaded`);
        }
        const { t: _, ...report } = message;
        clearTimeout(timer);
        current = undefined;
        reports.set(report.name, report);
        options.onReport?.(report);
      } else if (message.t === "load-done") {
        if (current !== undefined || next !== modules.length) {
          return outOfTurn("an early end of loading");
        }
        finish({});
      } else if (message.t !== "ready") {
        outOfTurn(`a message of type "${message.t}"`);
      }
    };
    const runner = options.start({
      message: onMessage,
      exit(reason) {
        // Ended between two imports by what an imported module left
        // running: the modules not reported yet load in a new loader.
        if (current === undefined && next > 0) return finish({});
        finish({
          stuck: current,
          reason: `the module ended the process that imported it (${reason})`,
        });
      },
      log: (line) => options.log(`[tools] ${current ?? "loader"}: ${line}`),
    });
    options.signal?.addEventListener("abort", stop, { once: true });
    if (options.signal?.aborted) stop();
    else if (runner.refusal !== undefined) finish({ reason: runner.refusal });
    else if (!runner.send({ t: "load", modules })) {
      finish({ reason: "the loader process could not be reached" });
    }
  });
}

/**
 * Imports each module once and reports its description and parameters or
 * why it is not a tool, in the order of `modules`.
 */
export async function loadModules(
  modules: ModuleRef[],
  options: LoaderOptions,
): Promise<LoadReport[]> {
  const reports = new Map<string, LoadReport>();
  let left = modules;
  while (left.length > 0) {
    const { stuck, reason } = await loadIn(left, options, reports);
    if (stuck !== undefined && reason !== undefined) {
      const report: LoadReport = { name: stuck, ok: false, reason };
      reports.set(stuck, report);
      options.onReport?.(report);
    } else if (reason !== undefined) {
      // The process never got going: every module left fails alike.
      for (const module of left) {
        if (reports.has(module.name)) continue;
        const report: LoadReport = { name: module.name, ok: false, reason };
        reports.set(module.name, report);
        options.onReport?.(report);
      }
    }
    left = left.filter((module) => !reports.has(module.name));
  }
  return modules.map((module) => reports.get(module.name)!);
}
