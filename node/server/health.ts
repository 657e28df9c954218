// The standard gRPC health service (grpc.health.v1.Health) on a node's client port.
// "" (the whole server) is SERVING while the node runs; "palisade.v1.LockService" is
// SERVING only while this node knows a leader, so a load balancer or probe can tell a
// node that can answer lock requests from one that cannot yet.
import type * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";

export const LOCK_SERVICE_NAME = "palisade.v1.LockService";
export const ADMIN_SERVICE_NAME = "palisade.v1.AdminService";

export class NodeHealth {
  private readonly impl = new HealthImplementation({
    "": "NOT_SERVING",
    [LOCK_SERVICE_NAME]: "NOT_SERVING",
    [ADMIN_SERVICE_NAME]: "NOT_SERVING",
  });

  addTo(server: grpc.Server): void {
    this.impl.addToServer(server);
  }

  /** The node is listening. */
  serving(): void {
    this.impl.setStatus("", "SERVING");
    this.impl.setStatus(ADMIN_SERVICE_NAME, "SERVING");
  }

  /** Whether a leader is known (lock requests can be answered or redirected). */
  leaderKnown(known: boolean): void {
    this.impl.setStatus(LOCK_SERVICE_NAME, known ? "SERVING" : "NOT_SERVING");
  }

  /** The node is stopping: every service reports NOT_SERVING. */
  stopping(): void {
    for (const name of ["", LOCK_SERVICE_NAME, ADMIN_SERVICE_NAME]) this.impl.setStatus(name, "NOT_SERVING");
  }
}
