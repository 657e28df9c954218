// The YAML parse of a policy's text on a worker thread: a policy of a thousand roles takes
// a good part of a second to parse, which the event loop of the node that takes
// ApplyPolicy must not spend (heartbeats and keepalives wait behind it). The worker only
// reads the text into plain values; the node checks them (fast), and only a text with
// errors is parsed again on the event loop, to name every error's line.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Run as CommonJS in the worker: the YAML package is loaded from the path the node resolved. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const YAML = require(workerData.yaml);
let answer;
try {
  const doc = YAML.parseDocument(workerData.text, { uniqueKeys: true, prettyErrors: false });
  answer = doc.errors.length > 0 ? { kind: "errors" } : { kind: "value", value: doc.toJS() };
} catch (error) {
  answer = { kind: "errors" };
}
parentPort.postMessage(answer);
`;

export type OffThreadYaml = { kind: "value"; value: unknown } | { kind: "errors" };

let yamlPath: string | null = null;

/**
 * The plain value of a YAML text, read on a worker thread; `errors` when the text does not
 * parse (the caller parses it again, on its own thread, to report the errors by line).
 */
export function parseYamlOffThread(text: string): Promise<OffThreadYaml> {
  yamlPath ??= createRequire(import.meta.url).resolve("yaml");
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { yaml: yamlPath, text },
    });
    worker.once("message", (answer: OffThreadYaml) => {
      resolve(answer);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the policy parser's thread exited with code ${code}`));
    });
  });
}
