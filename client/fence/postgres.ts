// The PostgreSQL fence. Tokens are numeric(20,0): a uint64 does not fit the signed bigint.
// Each row keeps the highest token of any mode and the highest exclusive one (NULL in a row
// from before the modes: then every admitted token was exclusive; 0: none yet).
// Admission is one conditional upsert whose row count says whether the token was admitted;
// it runs in the transaction that makes the guarded change, so the token record and the
// change commit together or not at all. The upsert takes the row lock, so a concurrent
// access to the same resource waits for this transaction and then sees its token. A shared
// access only reads: a write claiming shared mode is refused, and a shared access's
// transaction is made read-only after admission, so a write in its effect fails.
import type { Pool, PoolClient } from "pg";
import { FenceCounter } from "./counts.ts";
import { FenceRejectedError, SharedWriteError } from "./errors.ts";
import { checkToken, parseToken } from "./token.ts";
import {
  checkMode,
  raises,
  refuseSharedWrite,
  type FenceMode,
  type FenceOptions,
  type GuardOptions,
} from "./types.ts";

/** SQLSTATE read_only_sql_transaction: a write in a read-only transaction. */
const READ_ONLY_TRANSACTION = "25006";

export interface PgFenceOptions extends FenceOptions {
  /** Table of highest tokens, one row per resource (default "palisade_fence"). */
  table?: string;
}

export interface FenceSql {
  createTable: string;
  /** Adds the exclusive-token column to a table made before the lock modes (idempotent). */
  addExclusiveColumn: string;
  /** $1 resource, $2 token: one row affected if admitted (and recorded), none if refused. An exclusive access. */
  admit: string;
  /** The same for a shared access: admitted if not below the highest exclusive token; raises only the highest token. */
  admitShared: string;
  /** $1 resource: the highest token, with a share lock (a read when reads do not raise). */
  check: string;
  /** $1 resource: the highest exclusive token, with a share lock (a shared read when reads do not raise). */
  checkShared: string;
  /** $1 resource: the highest token. */
  highest: string;
  /** $1 resource: the highest exclusive token. */
  highestExclusive: string;
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name))
    throw new RangeError(`table name ${JSON.stringify(name)} is not a plain identifier`);
  return `"${name}"`;
}

/** The statements the fence runs, for a table of the given name. */
export function fenceSql(table = "palisade_fence"): FenceSql {
  const t = quoteIdent(table);
  const exclusiveOf = "COALESCE(f.exclusive_token, f.token)";
  return {
    createTable:
      `CREATE TABLE IF NOT EXISTS ${t} (resource text PRIMARY KEY, ` +
      `token numeric(20,0) NOT NULL CHECK (token >= 0 AND token <= 18446744073709551615), ` +
      `exclusive_token numeric(20,0) CHECK (exclusive_token >= 0 AND exclusive_token <= 18446744073709551615))`,
    addExclusiveColumn:
      `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS exclusive_token numeric(20,0) ` +
      `CHECK (exclusive_token >= 0 AND exclusive_token <= 18446744073709551615)`,
    admit:
      `INSERT INTO ${t} AS f (resource, token, exclusive_token) VALUES ($1, $2::numeric, $2::numeric) ` +
      `ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token, exclusive_token = EXCLUDED.token WHERE f.token <= EXCLUDED.token`,
    admitShared:
      `INSERT INTO ${t} AS f (resource, token, exclusive_token) VALUES ($1, $2::numeric, 0) ` +
      `ON CONFLICT (resource) DO UPDATE SET token = GREATEST(f.token, EXCLUDED.token), exclusive_token = ${exclusiveOf} ` +
      `WHERE ${exclusiveOf} <= EXCLUDED.token`,
    check: `SELECT token::text AS token FROM ${t} WHERE resource = $1 FOR SHARE`,
    checkShared: `SELECT COALESCE(f.exclusive_token, f.token)::text AS token FROM ${t} AS f WHERE resource = $1 FOR SHARE`,
    highest: `SELECT token::text AS token FROM ${t} WHERE resource = $1`,
    highestExclusive: `SELECT COALESCE(f.exclusive_token, f.token)::text AS token FROM ${t} AS f WHERE resource = $1`,
  };
}

export class PgFence {
  readonly sql: FenceSql;
  private readonly readsRaise: boolean;
  /** Accesses this fence admitted and rejected. */
  readonly counts: FenceCounter;

  constructor(
    readonly pool: Pool,
    options: PgFenceOptions = {},
  ) {
    this.sql = fenceSql(options.table);
    this.readsRaise = options.readsRaise ?? true;
    this.counts = options.counter ?? new FenceCounter();
  }

  /** Creates the token table if it does not exist, and gives a table from before the lock modes its exclusive-token column. */
  async init(): Promise<void> {
    await this.pool.query(this.sql.createTable);
    await this.pool.query(this.sql.addExclusiveColumn);
  }

  /**
   * In one transaction: admits `token` for `resource` (not lower than the highest
   * admitted), records it, runs `effect` with the transaction's client, commits. Throws
   * FenceRejectedError (nothing changed, effect not run) if a higher token was admitted.
   * Atomic only for what the effect does through the `client` it is given: a query on the
   * pool or another connection runs outside the transaction and outside the fence. A
   * shared access only reads: `access: "write"` in shared mode is refused before anything
   * runs, and a write in the effect of a shared access fails (the transaction is read-only
   * after admission) and rolls back; either way SharedWriteError.
   */
  async guard<T>(
    resource: string,
    token: bigint,
    effect: (client: PoolClient) => Promise<T>,
    options: GuardOptions = {},
  ): Promise<T> {
    checkToken(token);
    const access = options.access ?? "write";
    const mode = checkMode(options.mode);
    refuseSharedWrite(resource, token, access, mode);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      try {
        await this.admit(client, resource, token, raises(access, this.readsRaise), mode);
        // PostgreSQL lets a transaction turn read-only after its first write (never back).
        if (mode === "shared") await client.query("SET TRANSACTION READ ONLY");
        const result = await effect(client);
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken =
            rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        if (mode === "shared" && sqlStateOf(err) === READ_ONLY_TRANSACTION)
          throw new SharedWriteError(resource, token);
        throw err;
      }
    } finally {
      // A connection whose rollback failed may still be in a transaction: drop it.
      client.release(broken);
    }
  }

  /** The highest token admitted for `resource`, if any. */
  async highest(resource: string): Promise<bigint | undefined> {
    return this.highestWith(this.pool, resource, this.sql.highest);
  }

  /** The highest exclusive token admitted for `resource`, if any. */
  async highestExclusive(resource: string): Promise<bigint | undefined> {
    const mark = await this.highestWith(this.pool, resource, this.sql.highestExclusive);
    return mark === 0n ? undefined : mark;
  }

  private async admit(
    client: PoolClient,
    resource: string,
    token: bigint,
    record: boolean,
    mode: FenceMode,
  ): Promise<void> {
    try {
      await this.decide(client, resource, token, record, mode);
    } catch (err) {
      if (err instanceof FenceRejectedError) this.counts.count("rejected", resource);
      throw err;
    }
    this.counts.count("admitted", resource);
  }

  private async decide(
    client: PoolClient,
    resource: string,
    token: bigint,
    record: boolean,
    mode: FenceMode,
  ): Promise<void> {
    const shared = mode === "shared";
    if (record) {
      const admitted = await client.query(shared ? this.sql.admitShared : this.sql.admit, [
        resource,
        token.toString(),
      ]);
      if (admitted.rowCount === 1) return;
      const highest = await this.highestWith(
        client,
        resource,
        shared ? this.sql.highestExclusive : this.sql.highest,
      );
      throw new FenceRejectedError(resource, token, highest ?? 0n, mode);
    }
    const highest = await this.highestWith(
      client,
      resource,
      shared ? this.sql.checkShared : this.sql.check,
    );
    if (highest !== undefined && token < highest)
      throw new FenceRejectedError(resource, token, highest, mode);
  }

  private async highestWith(
    queryable: Pool | PoolClient,
    resource: string,
    sql: string,
  ): Promise<bigint | undefined> {
    const result = await queryable.query<{ token: string }>(sql, [resource]);
    const row = result.rows[0];
    return row ? parseToken(row.token) : undefined;
  }
}

function sqlStateOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
