// The engine benchmark's load on the leader's driver: batches of real lock commands, each
// batch one driver.propose call, `inflight` batches outstanding at all times. Each slot of
// the pipeline owns its locks and sessions and alternates a batch of Acquires (one per
// lock, waitMs 0, each granted) with a batch of Releases of those grants, so every command
// does the state machine's full work and the state stays small. Commands are encoded as a
// node logs a client's write (encodeEntry), numbered and acknowledged as a client does.
import type { Driver } from "../node/host/driver.ts";
import {
  DEFAULT_TTL_MS,
  encodeEntry,
  type Answer,
  type ApplyOutcome,
  type Command,
} from "../node/lock/index.ts";

/** Commands of one session per batch: its kept answers stay under maxInFlightPerSession (64). */
const PER_SESSION = 32;

export interface LoadOptions {
  readonly batch: number;
  readonly inflight: number;
  readonly warmupMs: number;
  readonly measureMs: number;
}

/** What the measured window gave (warm-up excluded): batches that completed in it. */
export interface LoadFigures {
  readonly commands: number;
  readonly batches: number;
  readonly windowMs: number;
  /** Proposal to the last command of the batch applied on the leader, per batch. */
  readonly batchMs: readonly number[];
  /** Process CPU (user + system, every thread) over the window, in microseconds. */
  readonly cpuMicros: number;
}

type EngineDriver = Driver<ApplyOutcome | null>;

/** A client session as the client keeps it: its id, last seq sent, and answers held up to. */
interface Client {
  readonly id: bigint;
  seq: number;
  acked: number;
}

/** One pipeline slot: its locks, lock j held by session ⌊j / PER_SESSION⌋. */
interface Slot {
  readonly locks: readonly string[];
  readonly clients: readonly Client[];
}

/** Proposes one batch and waits for every command of it to apply on this node. */
async function proposeAll(driver: EngineDriver, data: readonly Uint8Array[]): Promise<Answer[]> {
  const done = await Promise.all(driver.propose(data));
  return done.map(({ index, result }) => {
    if (result === null) throw new Error(`entry ${index} carried no command`);
    return result.result;
  });
}

function unexpected(answer: Answer, expected: Answer["kind"]): Error {
  const why = answer.kind === "error" ? `: ${answer.reason} ${answer.message}` : "";
  return new Error(`expected ${expected}, the state machine answered ${answer.kind}${why}`);
}

function tokenOf(answer: Answer): bigint {
  if (answer.kind === "granted") return answer.token;
  throw unexpected(answer, "granted");
}

async function openSlots(driver: EngineDriver, batch: number, inflight: number): Promise<Slot[]> {
  const perSlot = Math.ceil(batch / PER_SESSION);
  const open: Command = {
    type: "openSession",
    requestId: "",
    ttlMs: DEFAULT_TTL_MS,
    clientName: "engine-bench",
    wallMs: Date.now(),
  };
  const answers = await proposeAll(
    driver,
    Array.from({ length: perSlot * inflight }, () => encodeEntry(open)),
  );
  const ids = answers.map((a) => {
    if (a.kind !== "sessionOpened") throw unexpected(a, "sessionOpened");
    return a.sessionId;
  });
  return Array.from({ length: inflight }, (_, s) => ({
    locks: Array.from({ length: batch }, (_, j) => `engine/slot-${s}/lock-${j}`),
    clients: ids.slice(s * perSlot, (s + 1) * perSlot).map((id) => ({ id, seq: 0, acked: 0 })),
  }));
}

/** The next numbered write of `client`, acknowledging every answer it holds. */
function numbered(client: Client): { sessionId: bigint; seq: number; ackedUpTo: number; held: [] } {
  return { sessionId: client.id, seq: ++client.seq, ackedUpTo: client.acked, held: [] };
}

function acquires(slot: Slot, wallMs: number): Uint8Array[] {
  return slot.locks.map((lock, j) =>
    encodeEntry({
      type: "acquire",
      ...numbered(slot.clients[Math.floor(j / PER_SESSION)]!),
      lock,
      waitMs: 0,
      wallMs,
    }),
  );
}

function releases(slot: Slot, tokens: readonly bigint[], wallMs: number): Uint8Array[] {
  return slot.locks.map((lock, j) =>
    encodeEntry({
      type: "release",
      ...numbered(slot.clients[Math.floor(j / PER_SESSION)]!),
      lock,
      token: tokens[j]!,
      wallMs,
    }),
  );
}

/** Every answer of the batch arrived: the clients hold them all. */
function acknowledge(slot: Slot): void {
  for (const c of slot.clients) c.acked = c.seq;
}

/**
 * Opens the sessions, then runs the pipeline for the warm-up and the measured window.
 * Fails on the first proposal that fails or answer that is not the one expected.
 */
export async function runLoad(driver: EngineDriver, opts: LoadOptions): Promise<LoadFigures> {
  const slots = await openSlots(driver, opts.batch, opts.inflight);
  let phase: "warmup" | "measure" | "done" = "warmup";
  const batchMs: number[] = [];
  let commands = 0;
  let failure: unknown = null;
  let failed!: () => void;
  const failedSignal = new Promise<void>((resolve) => (failed = resolve));

  const timed = async (data: readonly Uint8Array[]): Promise<Answer[]> => {
    const started = performance.now();
    const answers = await proposeAll(driver, data);
    if (phase === "measure") {
      batchMs.push(performance.now() - started);
      commands += data.length;
    }
    return answers;
  };
  const cycle = async (slot: Slot): Promise<void> => {
    while (phase !== "done") {
      const tokens = (await timed(acquires(slot, Date.now()))).map(tokenOf);
      acknowledge(slot);
      const released = await timed(releases(slot, tokens, Date.now()));
      acknowledge(slot);
      for (const a of released) if (a.kind !== "released") throw unexpected(a, "released");
    }
  };
  const loops = slots.map((slot) =>
    cycle(slot).catch((error: unknown) => {
      failure ??= error;
      phase = "done";
      failed();
    }),
  );
  await Promise.race([sleep(opts.warmupMs), failedSignal]);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  if (phase === "warmup") phase = "measure";
  await Promise.race([sleep(opts.measureMs), failedSignal]);
  phase = "done";
  const windowMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(loops);
  if (failure !== null) throw failure;
  return {
    commands,
    batches: batchMs.length,
    windowMs,
    batchMs,
    cpuMicros: cpu.user + cpu.system,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
