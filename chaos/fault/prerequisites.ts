// What the fault kit needs from the machine, as a list of what is missing (empty: all there),
// for the chaos suite to refuse and for tests to say why they skip.
import { existsSync } from "node:fs";
import { findTool } from "./command.ts";

export const FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
const NFQUEUE_HEADER = "/usr/include/libnetfilter_queue/libnetfilter_queue.h";

export interface Needs {
  /** Packet delay (the nfq-delay program). */
  delay?: boolean;
  /** Wall-clock jumps of Node processes (libfaketime). */
  faketime?: boolean;
  /** The LD_PRELOAD shims (gcc). */
  shims?: boolean;
}

export function missingPrerequisites(needs: Needs = {}): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push("root (network namespaces and iptables)");
  for (const tool of ["ip", "iptables", "iptables-restore"])
    if (!findTool(tool))
      missing.push(`${tool} (apt-get install ${tool === "ip" ? "iproute2" : "iptables"})`);
  if ((needs.delay || needs.shims) && !findTool("gcc")) missing.push("gcc");
  if (needs.delay && !existsSync(NFQUEUE_HEADER)) missing.push("libnetfilter-queue-dev");
  if (needs.faketime && !existsSync(FAKETIME_LIB))
    missing.push(`${FAKETIME_LIB} (apt-get install libfaketime)`);
  if (missing.length > 0) missing.push("(scripts/install-test-deps.sh installs them)");
  return missing;
}
