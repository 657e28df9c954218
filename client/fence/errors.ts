// The errors a fence raises on purpose: the token is lower than one already admitted, or a
// write claims a shared grant.
import { PalisadeError } from "../errors.ts";

/** The fence refused a token lower than the highest it has admitted for the resource. */
export class FenceRejectedError extends PalisadeError {
  /** The HTTP status for this refusal (409 Conflict), for frameworks that read `statusCode`. */
  readonly statusCode = 409;

  constructor(
    readonly resource: string,
    readonly token: bigint,
    /** The highest token admitted for the resource when the access was refused (for a shared access: the highest exclusive one). */
    readonly highest: bigint,
    /** The refused access's mode. */
    readonly mode: "exclusive" | "shared" = "exclusive",
  ) {
    super(
      mode === "shared"
        ? `fencing token ${token} for ${JSON.stringify(resource)} (shared) is lower than the exclusive token ${highest}, already admitted`
        : `fencing token ${token} for ${JSON.stringify(resource)} is lower than ${highest}, already admitted`,
    );
  }
}

/**
 * A write that claims a shared grant. Shared grants only read: a shared access is admitted
 * by the highest exclusive token alone, so a write let through under that rule could come
 * from an exclusive holder whose grant ended while only readers came after it.
 */
export class SharedWriteError extends PalisadeError {
  /** The HTTP status for this refusal (403 Forbidden): no token makes the write acceptable. */
  readonly statusCode = 403;

  constructor(
    readonly resource: string,
    readonly token: bigint,
  ) {
    super(
      `fencing token ${token} for ${JSON.stringify(resource)} claims a shared grant for a write: shared grants only read, a write needs an exclusive grant`,
    );
  }
}
