// The glibc malloc settings every launcher Palisade ships gives the node process (the
// systemd unit, `npm start`, the benchmark's clusters); docs/operations/running.md#memory
// says why. A value already in the environment is kept.

/** At most two arenas, and blocks of 32 KiB and more mapped on their own (returned when freed). */
export const NODE_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "32768",
};

/** The malloc settings for a node process started from `env`: its own values win. */
export function nodeMallocEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(NODE_MALLOC_ENV)) out[name] = env[name] ?? value;
  return out;
}
