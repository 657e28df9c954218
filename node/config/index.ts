// Cluster configuration: the schema of the cluster file, its defaults and its loader.
export {
  DEFAULT_DISK,
  DEFAULT_LIMITS,
  DEFAULT_RAFT,
  DEFAULT_SESSION,
  DEFAULT_STATUS_PAGE,
} from "./defaults.ts";
export { formatHostPort, parseHostPort } from "./address.ts";
export type { HostPort } from "./address.ts";
export { clusterConfigSchema } from "./schema.ts";
export type {
  ClusterConfig,
  ClusterConfigInput,
  DiskSettings,
  Limits,
  MetricsSettings,
  NodeSpec,
  RaftSettings,
  SessionSettings,
  StatusPageSettings,
  TlsFiles,
} from "./schema.ts";
export {
  ConfigError,
  formatPath,
  loadClusterConfig,
  nodeConfig,
  parseClusterConfig,
} from "./load.ts";
export type { NodeConfig } from "./load.ts";
