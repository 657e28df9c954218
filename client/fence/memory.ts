// The in-memory fence: a KvFence over two maps. For tests and single-process services.
import { KvFence, type KvBackend, type KvOp, type KvTokenRecord } from "./kv-fence.ts";
import type { FenceOptions } from "./types.ts";

class MemoryBackend implements KvBackend {
  readonly tokens = new Map<string, bigint>();
  readonly exclusiveTokens = new Map<string, bigint>();
  readonly data = new Map<string, string>();

  async readToken(resource: string): Promise<bigint | undefined> {
    return this.tokens.get(resource);
  }

  async readExclusiveToken(resource: string): Promise<bigint | undefined> {
    return this.exclusiveTokens.get(resource);
  }

  async read(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }

  async commit(ops: readonly KvOp[], token: KvTokenRecord | undefined): Promise<void> {
    for (const op of ops) {
      if (op.type === "put") this.data.set(op.key, op.value);
      else this.data.delete(op.key);
    }
    if (token) {
      this.tokens.set(token.resource, token.token);
      this.exclusiveTokens.set(token.resource, token.exclusive);
    }
  }
}

export class MemoryFence extends KvFence {
  constructor(options: FenceOptions = {}) {
    super(new MemoryBackend(), options);
  }
}
