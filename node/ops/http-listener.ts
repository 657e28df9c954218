// A node's own HTTP(S) listeners (metrics, the status page's, the JSON gateway's): plain
// HTTP, or HTTPS that asks for a client certificate of the cluster CA. Closing one ends
// every connection, long-lived event streams included.
import { readFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { parseHostPort } from "../config/index.ts";

export interface HttpListener {
  /** "host:port" as configured. */
  readonly address: string;
  close(): Promise<void>;
}

export interface HttpsFiles {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  /**
   * Whether a connection without a verified client certificate fails in the handshake; if
   * not, the handler sees `socket.authorized` and answers such a caller itself.
   */
  readonly rejectUnauthorized: boolean;
}

/** scheme://host:port of a node's JSON gateway on `httpAddress`. */
export function gatewayOrigin(httpAddress: string, https: boolean): string {
  return `${https ? "https" : "http"}://${httpAddress}`;
}

/** Longest time a client may take to send a whole request (headers and body). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Serves `listener` on `address`; `what` names the listener in errors ("the status page"). */
export function listenHttp(
  address: string,
  what: string,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  tls: HttpsFiles | null,
): Promise<HttpListener> {
  const hostPort = parseHostPort(address);
  if (!hostPort) return Promise.reject(new Error(`invalid address for ${what}: ${address}`));
  let server: Server;
  if (tls) {
    const read = (path: string, file: string): Buffer => {
      try {
        return readFileSync(path);
      } catch (error) {
        throw new Error(
          `cannot read the TLS ${file} of ${what} ${path}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    };
    server = createHttpsServer(
      {
        cert: read(tls.cert, "certificate"),
        key: read(tls.key, "private key"),
        ca: read(tls.ca, "CA bundle"),
        requestCert: true,
        rejectUnauthorized: tls.rejectUnauthorized,
      },
      listener,
    );
  } else {
    server = createHttpServer(listener);
  }
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once("error", (err) =>
      reject(new Error(`cannot serve ${what} on ${address}: ${err.message}`, { cause: err })),
    );
    server.listen(hostPort.port, hostPort.host, () => {
      resolve({
        address,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
