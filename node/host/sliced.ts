// Runs long, pure work (a generator that yields between small steps) a slice of at most
// `sliceMs` at a time, with the event loop free between slices: network I/O, ticks and
// keepalives go on while, for example, a large snapshot is encoded.

export function runSliced<T>(
  steps: Generator<void, T, void>,
  sliceMs: number,
  now: () => number,
  defer: (next: () => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const slice = (): void => {
      const until = now() + sliceMs;
      try {
        for (;;) {
          const step = steps.next();
          if (step.done) {
            resolve(step.value);
            return;
          }
          if (now() >= until) break;
        }
      } catch (error) {
        reject(error);
        return;
      }
      defer(slice);
    };
    slice();
  });
}
