// The worker side of loadProjectIsolated(): loads the project named in
// workerData and posts the result back. Runs in its own isolate, so a
// manifest that exhausts this worker's heap ends the worker only.

import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../common/mod.ts";
import { loadProject, type LoadProjectOptions } from "./load_project.ts";

try {
  const project = await loadProject(workerData as LoadProjectOptions);
  parentPort?.postMessage({ ok: true, project });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: errorMessage(error) });
}
