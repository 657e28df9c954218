// The gRPC clients of one node each, and the bearer token they present: with a token, every
// call made on such a client, unary or streaming, carries `authorization: Bearer <token>`
// metadata. It is added per call by an interceptor, not as call credentials, which grpc-js
// refuses on plaintext channels: a cluster without TLS may still identify its callers by
// token.
import * as grpc from "@grpc/grpc-js";
import { InvalidArgumentError } from "./errors.ts";

/** The metadata key a node reads a bearer token from. */
export const AUTHORIZATION_METADATA_KEY = "authorization";

/**
 * `token` if it can travel as metadata (printable ASCII, no spaces), else an
 * InvalidArgumentError that does not repeat the token (it is a secret).
 */
export function checkBearerToken(token: string): string {
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new InvalidArgumentError(
      "token: expected a bearer token such as pal_<id>_<secret> (printable ASCII without spaces)",
    );
  return token;
}

/** Sets `authorization: Bearer <token>` on the metadata of each call it sees start. */
export function bearerInterceptor(token: string): grpc.Interceptor {
  const value = `Bearer ${checkBearerToken(token)}`;
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set(AUTHORIZATION_METADATA_KEY, value);
        next(metadata, listener);
      },
    });
}

/** How a client reaches a node: channel credentials (plaintext when absent) and a bearer token. */
export interface NodeAccess {
  readonly credentials?: grpc.ChannelCredentials;
  readonly token?: string;
}

/** A gRPC client of `endpoint` whose every call presents `access.token`, if given. */
export function nodeClient(
  endpoint: string,
  access: NodeAccess,
  options: grpc.ChannelOptions = {},
): grpc.Client {
  return new grpc.Client(endpoint, access.credentials ?? grpc.credentials.createInsecure(), {
    ...options,
    ...(access.token !== undefined ? { interceptors: [bearerInterceptor(access.token)] } : {}),
  });
}
