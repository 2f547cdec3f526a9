// The worker side of the isolated loader: loads each project it is asked
// for and posts the result back. Runs in its own isolate, so a manifest
// that exhausts this worker's heap ends the worker only.

import { parentPort } from "node:worker_threads";
import { errorMessage } from "../common/mod.ts";
import { loadProject, type LoadProjectOptions } from "./load_project.ts";

parentPort?.on(
  "message",
  async (request: { id: number; options: LoadProjectOptions }) => {
    try {
      const project = await loadProject(request.options);
      parentPort?.postMessage({ id: request.id, ok: true, project });
    } catch (error) {
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        message: errorMessage(error),
      });
    }
  },
);
