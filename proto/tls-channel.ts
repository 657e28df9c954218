// TLS credentials for gRPC channels, for clients and for nodes dialling their peers, that
// never send an IP address as the TLS server name. RFC 6066 forbids it, and Node warns
// (DEP0123) whenever grpc-js's own credentials do so for an endpoint given as an IP, which is
// how Palisade clusters are usually addressed. The server's certificate is checked against
// the address dialled (an IP SAN, or a DNS name), exactly as grpc-js checks it; a DNS name
// is still sent as the server name.
import { isIP } from "node:net";
import { checkServerIdentity, connect, createSecureContext, type SecureContext } from "node:tls";
import * as grpc from "@grpc/grpc-js";

/** PEM contents: the CA bundle that signed the servers (default: the system's roots), and for mutual TLS a certificate and its key. */
export interface TlsPem {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

type ConnectorArgs = Parameters<grpc.ChannelCredentials["_createSecureConnector"]>;
type SecureConnector = ReturnType<grpc.ChannelCredentials["_createSecureConnector"]>;

/** The host of a channel target such as dns:127.0.0.1:7001 or [::1]:7001 (no brackets). */
export function hostOfTarget(path: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(path);
  if (bracketed) return bracketed[1] as string;
  const colons = path.split(":").length - 1;
  // A bare IPv6 address has several colons and no port.
  if (colons > 1) return path;
  return path.replace(/:\d+$/, "");
}

class NoIpServerNameCredentials extends grpc.ChannelCredentials {
  constructor(
    private readonly context: SecureContext,
    private readonly callCredentials?: grpc.CallCredentials,
  ) {
    super();
  }

  override compose(call: grpc.CallCredentials): grpc.ChannelCredentials {
    return new NoIpServerNameCredentials(
      this.context,
      this.callCredentials ? this.callCredentials.compose(call) : call,
    );
  }

  override _isSecure(): boolean {
    return true;
  }

  override _equals(other: grpc.ChannelCredentials): boolean {
    return other === this;
  }

  override _createSecureConnector(...[target, options, call]: ConnectorArgs): SecureConnector {
    const host = hostOfTarget(target.path);
    const override = options["grpc.ssl_target_name_override"];
    const name = typeof override === "string" && override !== "" ? override : host;
    const callCredentials = call ?? this.callCredentials ?? grpc.credentials.createEmpty();
    const context = this.context;
    return {
      connect: (socket) =>
        new Promise((resolve, reject) => {
          const tlsSocket = connect(
            {
              socket,
              secureContext: context,
              ALPNProtocols: ["h2"],
              host,
              ...(isIP(name) === 0 ? { servername: name } : {}),
              checkServerIdentity: (_hostname, cert) => checkServerIdentity(name, cert),
            },
            () => {
              if (!tlsSocket.authorized) {
                reject(tlsSocket.authorizationError);
                return;
              }
              resolve({ socket: tlsSocket, secure: true });
            },
          );
          tlsSocket.on("error", reject);
        }),
      waitForReady: () => Promise.resolve(),
      getCallCredentials: () => callCredentials,
      destroy: () => undefined,
    };
  }
}

/** Channel credentials from PEM contents; an IP endpoint is verified by its IP SAN and sent no server name. */
export function tlsChannelCredentials(pem: TlsPem): grpc.ChannelCredentials {
  if ((pem.cert === undefined) !== (pem.key === undefined))
    throw new Error("a client certificate needs its key, and a key its certificate");
  const context = createSecureContext({
    ...(pem.ca !== undefined ? { ca: pem.ca } : {}),
    ...(pem.cert !== undefined ? { cert: pem.cert, key: pem.key } : {}),
  });
  return new NoIpServerNameCredentials(context);
}
