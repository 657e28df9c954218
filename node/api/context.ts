// What the client and admin services need from the node they run on: its host (and the
// request APIs on it) and the server-side parts the host does not have (Watch streams).
import type { AdminRequests } from "../host/admin-requests.ts";
import type { LockRequests } from "../host/lock-requests.ts";
import type { NodeHost } from "../host/node-host.ts";
import type { Logger } from "../util/logger.ts";
import type { StreamOptions } from "./stream-options.ts";
import type { WatchHub } from "./watch-hub.ts";

export interface ServiceContext {
  readonly host: NodeHost;
  readonly locks: LockRequests;
  readonly admin: AdminRequests;
  readonly watch: WatchHub;
  readonly logger: Logger;
  /** The node's metrics listener (host:port), which Status reports. */
  readonly metricsAddress?: string;
  /** Limits and the request budget of Stream RPCs. */
  readonly streams?: StreamOptions;
}
