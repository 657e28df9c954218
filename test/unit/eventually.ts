// Waits in unit tests for a state that real sockets, timers and storage bring about. What
// they await has no time bound of its own: on a loaded machine a loopback connection and a
// few messages take seconds, not the one second vi.waitFor waits by default. The wait ends
// as soon as the state is reached; only a state that never comes costs the whole minute.
import { vi } from "vitest";

/** `intervalMs`: how often to look (a check that must catch a state before it passes looks every turn). */
export function eventually<T>(check: () => T | Promise<T>, intervalMs = 10): Promise<T> {
  return vi.waitFor(check, { timeout: 60_000, interval: intervalMs });
}
