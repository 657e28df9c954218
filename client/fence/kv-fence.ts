// The fence for key-value stores (in memory, LevelDB): per resource, one mutex around
// reading the highest token, running the effect against a buffered transaction, and
// writing the token record together with the effect's puts and deletes in one batch.
// An effect that throws writes nothing, its token included. A shared access only reads:
// it is refused if it claims to write, and its transaction refuses puts and deletes.
//
// The mutex lives in the KvFence instance, not in the store: two instances over one store
// (two LevelFence.over(db) in one process, or two processes) do not exclude each other.
// Use one instance per store, and let a guarded effect touch only the data keys of its
// own resource: a key shared by two resources is written under two different mutexes.
import { FenceCounter } from "./counts.ts";
import { FenceRejectedError, SharedWriteError } from "./errors.ts";
import { KeyedMutex } from "./keyed-mutex.ts";
import { checkToken } from "./token.ts";
import {
  admits,
  barFor,
  checkMode,
  raisedMarks,
  raises,
  refuseSharedWrite,
  type FenceMarks,
  type FenceOptions,
  type GuardOptions,
} from "./types.ts";

/** The guarded effect's view of the store: reads see its own buffered writes. */
export interface KvTx {
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): void;
  del(key: string): void;
}

export type KvOp = { type: "put"; key: string; value: string } | { type: "del"; key: string };

/** The token records a commit writes: the highest token of any mode, and the highest exclusive one (0: none yet). */
export interface KvTokenRecord {
  resource: string;
  token: bigint;
  exclusive: bigint;
}

/** What a store must offer the fence: reads, and one atomic batch of data ops plus the token records. */
export interface KvBackend {
  /** The highest token admitted in any mode. */
  readToken(resource: string): Promise<bigint | undefined>;
  /** The highest exclusive token admitted; undefined when never recorded (a record from before the modes: then every admitted token was exclusive). */
  readExclusiveToken(resource: string): Promise<bigint | undefined>;
  read(key: string): Promise<string | undefined>;
  commit(ops: readonly KvOp[], token: KvTokenRecord | undefined): Promise<void>;
}

/** The access a shared grant made: its transaction may only read. */
interface SharedAccess {
  resource: string;
  token: bigint;
}

class BufferedTx implements KvTx {
  readonly ops: KvOp[] = [];
  private readonly pending = new Map<string, string | undefined>();
  private open = true;

  constructor(
    private readonly backend: KvBackend,
    private readonly shared: SharedAccess | undefined,
  ) {}

  async get(key: string): Promise<string | undefined> {
    this.ensureOpen();
    if (this.pending.has(key)) return this.pending.get(key);
    return this.backend.read(key);
  }

  put(key: string, value: string): void {
    this.ensureOpen();
    this.ensureWritable();
    this.ops.push({ type: "put", key, value });
    this.pending.set(key, value);
  }

  del(key: string): void {
    this.ensureOpen();
    this.ensureWritable();
    this.ops.push({ type: "del", key });
    this.pending.set(key, undefined);
  }

  close(): void {
    this.open = false;
  }

  // A transaction kept past its effect would write outside the fence.
  private ensureOpen(): void {
    if (!this.open) throw new Error("the fenced transaction has ended");
  }

  // A shared access passes by the exclusive mark alone: a write under it could come from a
  // holder whose exclusive grant ended while only readers came after it.
  private ensureWritable(): void {
    if (this.shared) throw new SharedWriteError(this.shared.resource, this.shared.token);
  }
}

export class KvFence {
  private readonly mutex = new KeyedMutex();
  private readonly readsRaise: boolean;
  /** Accesses this fence admitted and rejected. */
  readonly counts: FenceCounter;

  constructor(
    private readonly backend: KvBackend,
    options: FenceOptions = {},
  ) {
    this.readsRaise = options.readsRaise ?? true;
    this.counts = options.counter ?? new FenceCounter();
  }

  /**
   * Runs `effect` only if `token` is not lower than the highest token admitted for
   * `resource`; records the token and the effect's writes in one batch. Throws
   * FenceRejectedError (and runs nothing) otherwise. Atomic only against other guards of
   * this instance, and only for keys that belong to `resource`; the effect must use `tx`.
   * A shared access only reads: `access: "write"` in shared mode is refused before
   * anything runs, and the effect's `tx.put` or `tx.del` throws; either way
   * SharedWriteError, and nothing is stored.
   */
  async guard<T>(
    resource: string,
    token: bigint,
    effect: (tx: KvTx) => Promise<T> | T,
    options: GuardOptions = {},
  ): Promise<T> {
    checkToken(token);
    const access = options.access ?? "write";
    const mode = checkMode(options.mode);
    refuseSharedWrite(resource, token, access, mode);
    return this.mutex.run(resource, async () => {
      const marks = await this.marks(resource);
      const bar = barFor(mode, marks);
      if (!admits(bar, token)) {
        this.counts.count("rejected", resource);
        throw new FenceRejectedError(resource, token, bar ?? 0n, mode);
      }
      this.counts.count("admitted", resource);
      const tx = new BufferedTx(this.backend, mode === "shared" ? { resource, token } : undefined);
      let result: T;
      try {
        result = await effect(tx);
      } finally {
        tx.close();
      }
      const raised = raisedMarks(mode, marks, token);
      const changed =
        raised.highest !== marks.highest ||
        raised.exclusive !== marks.exclusive ||
        marks.recordedExclusive === undefined;
      const record =
        raises(access, this.readsRaise) && changed
          ? { resource, token: raised.highest ?? token, exclusive: raised.exclusive ?? 0n }
          : undefined;
      if (record || tx.ops.length > 0) await this.backend.commit(tx.ops, record);
      return result;
    });
  }

  /** A resource's marks; a record from before the modes (no exclusive mark) counts every admitted token as exclusive. */
  private async marks(
    resource: string,
  ): Promise<FenceMarks & { recordedExclusive: bigint | undefined }> {
    const highest = await this.backend.readToken(resource);
    const recordedExclusive = await this.backend.readExclusiveToken(resource);
    const exclusive =
      recordedExclusive === undefined
        ? highest
        : recordedExclusive === 0n
          ? undefined
          : recordedExclusive;
    return { highest, exclusive, recordedExclusive };
  }

  /** The highest exclusive token admitted for `resource`, if any. */
  async highestExclusive(resource: string): Promise<bigint | undefined> {
    return (await this.marks(resource)).exclusive;
  }

  /** The highest token admitted for `resource`, if any. */
  highest(resource: string): Promise<bigint | undefined> {
    return this.backend.readToken(resource);
  }

  /** Reads a key outside the fence (for inspection, not for work under a lock). */
  peek(key: string): Promise<string | undefined> {
    return this.backend.read(key);
  }

  /** How many accesses wait for `resource` behind the one in progress. */
  waiting(resource: string): number {
    return this.mutex.waiting(resource);
  }
}
