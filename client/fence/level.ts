// The LevelDB fence: a KvFence whose token records and data live in two sublevels of one
// database, so the token record and the effect's writes go in one atomic batch.
import { Level } from "level";
import { KvFence, type KvBackend, type KvOp, type KvTokenRecord } from "./kv-fence.ts";
import { parseToken } from "./token.ts";
import type { FenceOptions } from "./types.ts";

type StringLevel = Level<string, string>;

function sublevel(db: StringLevel, name: string) {
  return db.sublevel<string, string>(name, { keyEncoding: "utf8", valueEncoding: "utf8" });
}
type Sublevel = ReturnType<typeof sublevel>;

class LevelBackend implements KvBackend {
  private readonly tokens: Sublevel;
  /** The highest exclusive token per resource ("0": none yet); absent in a database from before the modes. */
  private readonly exclusiveTokens: Sublevel;
  private readonly data: Sublevel;

  constructor(
    private readonly db: StringLevel,
    private readonly sync: boolean,
  ) {
    this.tokens = sublevel(db, "fence");
    this.exclusiveTokens = sublevel(db, "fence-exclusive");
    this.data = sublevel(db, "data");
  }

  async readToken(resource: string): Promise<bigint | undefined> {
    const value = await this.tokens.get(resource);
    return value === undefined ? undefined : parseToken(value);
  }

  async readExclusiveToken(resource: string): Promise<bigint | undefined> {
    const value = await this.exclusiveTokens.get(resource);
    return value === undefined ? undefined : parseToken(value);
  }

  async read(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }

  async commit(ops: readonly KvOp[], token: KvTokenRecord | undefined): Promise<void> {
    const batch = this.db.batch();
    for (const op of ops) {
      if (op.type === "put") batch.put(op.key, op.value, { sublevel: this.data });
      else batch.del(op.key, { sublevel: this.data });
    }
    if (token) {
      batch.put(token.resource, token.token.toString(), { sublevel: this.tokens });
      batch.put(token.resource, token.exclusive.toString(), { sublevel: this.exclusiveTokens });
    }
    await batch.write({ sync: this.sync });
  }
}

export interface LevelFenceOptions extends FenceOptions {
  /** fsync each batch (default true): a token record lost in a crash would readmit a lower token. */
  sync?: boolean;
}

export class LevelFence extends KvFence {
  private constructor(
    readonly db: StringLevel,
    options: LevelFenceOptions,
  ) {
    super(new LevelBackend(db, options.sync ?? true), options);
  }

  /** Opens (or creates) the database at `location`. */
  static async open(location: string, options: LevelFenceOptions = {}): Promise<LevelFence> {
    const db = new Level<string, string>(location, { keyEncoding: "utf8", valueEncoding: "utf8" });
    await db.open();
    return new LevelFence(db, options);
  }

  /**
   * Fences an open database; its "fence", "fence-exclusive" and "data" sublevels belong to the fence. Call it
   * once per database and share the result: each LevelFence has its own mutexes, so two
   * made over the same database do not exclude each other.
   */
  static over(db: StringLevel, options: LevelFenceOptions = {}): LevelFence {
    return new LevelFence(db, options);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
