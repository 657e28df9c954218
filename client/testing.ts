// The seams of the Palisade client library (palisade-lock/client/testing), for simulators and
// tests rather than applications: PalisadeClient's wiring (a LockApi in place of gRPC, a
// clock, request ids), the Connection that runs calls with their failover rules, and the
// clock interface with the system's clock.
export type { ClientWiring } from "./client.ts";
export { Connection } from "./connection.ts";
export type { ConnectionWiring } from "./connection.ts";
export { isAnswer } from "./lock-api.ts";
export type { AcquireAnswer, AcquireKinds, CallOptions, LockApi, WriteAcks } from "./lock-api.ts";
export { systemClock } from "./clock.ts";
export type { ClientClock, Timer } from "./clock.ts";
