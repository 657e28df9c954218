// Who sent a request, as the node that took it established it, and its form in a log
// entry's envelope. The node that takes a request authenticates it (a verified certificate,
// a bearer token it checks against the replicated token table); every replica then decides
// the request's permissions and quotas from the caller the entry names, at apply time.
//
// Envelope forms: "" anonymous (a cluster without TLS, no token), "c:NAME" a client
// certificate, "a:NAME" an admin (an admin certificate, or an identity the cluster file names
// as an admin), "t:TOKEN_ID:NAME" a bearer token (its identity and roles are the token's, as
// the log has them when the entry applies: a revoked token's requests are refused there).

export type CallerKind = "anonymous" | "certificate" | "admin" | "token";

export interface Caller {
  readonly kind: CallerKind;
  /** The identity: a certificate's configured field, or a token's identity; "" anonymous. */
  readonly name: string;
  /** The token's id, for a token caller; "" otherwise. */
  readonly tokenId: string;
}

export const ANONYMOUS: Caller = Object.freeze({ kind: "anonymous", name: "", tokenId: "" });

const PREFIX: Readonly<Record<Exclude<CallerKind, "anonymous">, string>> = {
  certificate: "c",
  admin: "a",
  token: "t",
};

export function encodeCaller(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return "";
    case "token":
      return `t:${caller.tokenId}:${caller.name}`;
    default:
      return `${PREFIX[caller.kind]}:${caller.name}`;
  }
}

/** The caller an envelope names; an unknown form is anonymous (it has no rights under a policy). */
export function decodeCaller(text: string): Caller {
  if (text === "") return ANONYMOUS;
  const kind = text.slice(0, 2);
  const rest = text.slice(2);
  if (kind === "c:") return { kind: "certificate", name: rest, tokenId: "" };
  if (kind === "a:") return { kind: "admin", name: rest, tokenId: "" };
  if (kind === "t:") {
    const colon = rest.indexOf(":");
    if (colon > 0)
      return { kind: "token", tokenId: rest.slice(0, colon), name: rest.slice(colon + 1) };
  }
  return ANONYMOUS;
}

/** How a caller is named in logs and answers. */
export function describeCaller(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return "an anonymous caller";
    case "token":
      return `identity ${caller.name} (token ${caller.tokenId})`;
    default:
      return `identity ${caller.name}`;
  }
}
