// The engine benchmark's network: the Raft messages of nodes in one process, handed from
// one driver to another with no encoding and no sockets. A send only queues; what was
// queued is delivered on a later turn of the event loop (setImmediate), all at once, in
// the order sent, so a driver is never re-entered from its own send and storage
// completions and timers get their turn between deliveries, as with a real network.
import type { Message, NodeId } from "../node/raft/types.ts";
import type { Transport } from "../node/transport/transport.ts";

/** Messages queued for one node before further ones are dropped (Raft sends them again). */
const MAX_QUEUED_PER_NODE = 65_536;

export class InProcessNetwork {
  private readonly handlers = new Map<NodeId, (message: Message) => void>();
  private queue: Message[] = [];
  private readonly queued = new Map<NodeId, number>();
  private scheduled = false;
  /** Messages dropped because their node's queue was full, or it had no handler. */
  dropped = 0;
  delivered = 0;

  /** The transport of node `id`: what it sends reaches the node each message names. */
  transport(id: NodeId): Transport {
    return {
      send: (messages) => this.post(messages),
      onMessage: (handler) => {
        this.handlers.set(id, handler);
      },
      close: async () => {
        this.handlers.delete(id);
      },
    };
  }

  private post(messages: readonly Message[]): void {
    for (const m of messages) {
      const count = this.queued.get(m.to) ?? 0;
      if (count >= MAX_QUEUED_PER_NODE) {
        this.dropped++;
        continue;
      }
      this.queued.set(m.to, count + 1);
      this.queue.push(m);
    }
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    this.queued.clear();
    for (const m of batch) {
      const handler = this.handlers.get(m.to);
      if (handler === undefined) this.dropped++;
      else {
        this.delivered++;
        handler(m);
      }
    }
  }
}
