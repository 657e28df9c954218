// Bearer tokens: "pal_<id>_<secret>", the id 16 hex digits (it names the token in lists, logs
// and the log's entries), the secret 32 random bytes in base64url. The cluster keeps only the
// secret's SHA-256: a random 256-bit secret needs no slow hash, and a stolen table (a backup,
// a snapshot file) gives no usable token.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_FORM = /^pal_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewToken {
  readonly id: string;
  /** What the bearer sends: shown once, never stored. */
  readonly secret: string;
  /** SHA-256 of the secret part, hex: what the cluster stores. */
  readonly hash: string;
}

export function newToken(): NewToken {
  const id = randomBytes(8).toString("hex");
  const secretPart = randomBytes(32).toString("base64url");
  return { id, secret: `pal_${id}_${secretPart}`, hash: hashSecret(secretPart) };
}

function hashSecret(secretPart: string): string {
  return createHash("sha256").update(secretPart, "utf8").digest("hex");
}

/** The id and secret part of a bearer string, or null when it is not a token's form. */
export function parseToken(bearer: string): { id: string; secretPart: string } | null {
  const match = TOKEN_FORM.exec(bearer);
  return match ? { id: match[1] as string, secretPart: match[2] as string } : null;
}

/** Whether `secretPart` hashes to `hash` (compared in constant time). */
export function secretMatches(secretPart: string, hash: string): boolean {
  const got = Buffer.from(hashSecret(secretPart), "hex");
  const want = Buffer.from(hash, "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}
