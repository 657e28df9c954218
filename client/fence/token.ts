// Fencing tokens on the wire: a uint64 as a decimal string (the `Fencing-Token` HTTP
// header, a PostgreSQL numeric, a LevelDB value) and a bigint in TypeScript.

/** The HTTP header that carries a fencing token. */
export const FENCING_TOKEN_HEADER = "Fencing-Token";

/** The HTTP header that says the token's grant is shared ("shared"; absent or "exclusive": exclusive). */
export const FENCING_MODE_HEADER = "Fencing-Mode";

/** The largest token: tokens are uint64. */
export const MAX_TOKEN = (1n << 64n) - 1n;

/** Throws unless `token` is a uint64. */
export function checkToken(token: bigint): bigint {
  if (token < 0n || token > MAX_TOKEN)
    throw new RangeError(`fencing token ${token} is not a uint64`);
  return token;
}

/** Parses a decimal uint64 (no sign, no leading zeros beyond "0", at most 20 digits). */
export function parseToken(text: string): bigint {
  const trimmed = text.trim();
  if (!/^(0|[1-9][0-9]{0,19})$/.test(trimmed))
    throw new RangeError(`fencing token ${JSON.stringify(text)} is not a decimal uint64`);
  return checkToken(BigInt(trimmed));
}
