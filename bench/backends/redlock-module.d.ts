// Types of the part of the redlock package used here. Its own declarations sit outside
// its package.json "exports", where NodeNext resolution does not look for them.
declare module "redlock" {
  import type { EventEmitter } from "node:events";
  import type { Redis } from "ioredis";

  export interface ExecutionStats {
    readonly membershipSize: number;
    readonly quorumSize: number;
    readonly votesFor: Set<Redis>;
    readonly votesAgainst: Map<Redis, Error>;
  }

  export interface Settings {
    readonly driftFactor: number;
    readonly retryCount: number;
    readonly retryDelay: number;
    readonly retryJitter: number;
    readonly automaticExtensionThreshold: number;
  }

  export class ResourceLockedError extends Error {}

  export class ExecutionError extends Error {
    readonly attempts: ReadonlyArray<Promise<ExecutionStats>>;
  }

  export class Lock {
    readonly resources: string[];
    release(): Promise<{ attempts: ReadonlyArray<Promise<ExecutionStats>> }>;
  }

  export default class Redlock extends EventEmitter {
    constructor(clients: Iterable<Redis>, settings?: Partial<Settings>);
    acquire(resources: string[], duration: number): Promise<Lock>;
  }
}
