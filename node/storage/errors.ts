// Errors raised by the durable store. The driver tells them apart by class:
// FatalStorageError and CorruptStoreError stop the node, DiskReserveError only pauses writes.

/** Base class: the store refused an operation (identity mismatch, invalid batch, closed store). */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The data directory belongs to another cluster or node, or has another on-disk format. */
export class IdentityMismatchError extends StorageError {}

/**
 * What is on disk fails verification (checksum, gap in indexes, commit past the last entry,
 * missing or damaged snapshot file). The node must not run on it.
 */
export class CorruptStoreError extends StorageError {}

/**
 * A durable write (LevelDB write or sync, snapshot file write, fsync or rename) failed. Whether
 * it took effect is unknown, so the store accepts no more writes; the process must exit and
 * recover from disk.
 */
export class FatalStorageError extends StorageError {}

/**
 * Free space is below the reserve, so the write was not attempted (nothing changed). Not fatal:
 * retry once space returns. Raised only when the store is opened with `whenLow: "reject"`.
 */
export class DiskReserveError extends StorageError {
  constructor(
    readonly freeBytes: number,
    readonly reserveBytes: number,
  ) {
    super(
      `free disk space ${freeBytes} bytes is below the reserve of ${reserveBytes} bytes; write refused`,
    );
  }
}
