// Before the integration tests run: kill node processes and remove cluster folders left
// by an earlier run that died (its test process is gone), and bring dist/ up to date. After
// the run: the same cleanup, for anything a crashed test worker of this run left behind.
import { ensureBuilt } from "./built.ts";
import { cleanupLeftovers } from "./pidfiles.ts";

function cleanup(when: string): void {
  const { killed, removed } = cleanupLeftovers();
  if (killed.length > 0 || removed.length > 0) {
    console.warn(`palisade integration (${when}): killed ${killed.length} leftover node(s), removed ${removed.length} stale folder(s)`);
  }
}

export default function setup(): () => void {
  cleanup("before the run");
  ensureBuilt();
  return () => cleanup("after the run");
}
