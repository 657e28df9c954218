// Fencing tokens: epoch × 2^48 + the index of the command that made the grant.
import { MAX_EPOCH, MAX_INDEX } from "./limits.ts";

export function tokenFor(epoch: number, index: number): bigint {
  if (!Number.isSafeInteger(index) || index < 1 || index > MAX_INDEX)
    throw new RangeError(`log index out of range: ${index}`);
  if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH)
    throw new RangeError(`epoch out of range: ${epoch}`);
  return (BigInt(epoch) << 48n) + BigInt(index);
}

/** The log index part of a token. */
export function tokenIndex(token: bigint): number {
  return Number(token & BigInt(MAX_INDEX));
}

export function tokenEpoch(token: bigint): number {
  return Number(token >> 48n);
}
