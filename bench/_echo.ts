// An echo that answers each message it gets, as whichever kind of isolate
// started it: a node:worker_threads worker, a web Worker, or a child process
// with an IPC channel. Used by bench/runners.ts.

import process from "node:process";
import { isMainThread, parentPort } from "node:worker_threads";

const global = globalThis as unknown as {
  postMessage?: (message: unknown) => void;
  onmessage?: ((event: { data: unknown }) => void) | null;
  WorkerGlobalScope?: unknown;
};

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on("message", (message) => port.postMessage(message));
  port.postMessage("ready");
} else if (global.WorkerGlobalScope !== undefined && global.postMessage) {
  const post = global.postMessage.bind(globalThis);
  global.onmessage = (event) => post(event.data);
  post("ready");
} else if (process.send) {
  const send = process.send.bind(process);
  process.on("message", (message) => send(message));
  send("ready");
}
