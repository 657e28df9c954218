// Whether a module is the script node was started with (so it may run its own main()).
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Pass `import.meta.url`; true when that module is process.argv[1] (links resolved). */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}
