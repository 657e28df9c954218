// The time base of every history record: CLOCK_MONOTONIC in microseconds, shared by all
// processes on the host (wall-clock jumps on the nodes do not move it).
export function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
