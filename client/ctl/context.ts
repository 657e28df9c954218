// What every palisadectl verb shares: exit codes, output, the global options, the way to the
// cluster (endpoints, TLS, bearer token, the client), the signals that stop a verb and the
// help examples.
// The client library is imported only when a verb connects, so `--help` does not load gRPC.
import type { ChannelCredentials } from "@grpc/grpc-js";
import type { Command } from "commander";
import type { PalisadeClient } from "../client.ts";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_NOT_ACQUIRED = 2;
export const EXIT_LOST = 3;
/** Interrupted while waiting (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

export const DEFAULT_ENDPOINTS = "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003";

/** The options every verb takes (before or after the verb). */
export interface GlobalOptions {
  endpoints: string;
  json: boolean;
  timeout: number;
  cacert?: string;
  cert?: string;
  key?: string;
  /** --auth-token or $PALISADE_AUTH_TOKEN: the bearer token every call presents. */
  authToken?: string;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** The standard input, which `acquire --hold` reads commands from; absent: none is read. */
  input?(): NodeJS.ReadableStream & { readonly isTTY?: boolean };
}

export const stdio: Output = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  input: () => process.stdin,
};

/** The signals that end a verb: Ctrl-C, a service manager's stop, a closed terminal. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Calls `handler` once on the first stop signal; the returned function removes it. */
export function onStopSignal(handler: () => void): () => void {
  let fired = false;
  const once = (): void => {
    if (fired) return;
    fired = true;
    off();
    handler();
  };
  const off = (): void => {
    for (const s of STOP_SIGNALS) process.off(s, once);
  };
  for (const s of STOP_SIGNALS) process.on(s, once);
  return off;
}

/**
 * The endpoints of --endpoints: host:port, or etcd's http://host:port and https://host:port
 * forms (https needs --cacert, since TLS is set up by the certificate options).
 */
export function endpointsFrom(text: string, tls: boolean): string[] {
  return text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map((e) => {
      const url = /^(https?):\/\/([^/]+)\/?$/.exec(e);
      if (url === null) {
        if (e.includes("://"))
          throw new Error(`endpoint ${e}: expected host:port or http(s)://host:port`);
        return e;
      }
      if (url[1] === "https" && !tls)
        throw new Error(
          `endpoint ${e} asks for TLS: give --cacert (and --cert, --key for mutual TLS)`,
        );
      if (url[1] === "http" && tls)
        throw new Error(`endpoint ${e} asks for plaintext, but --cacert is given`);
      return url[2]!;
    });
}

/** Where and how to reach the cluster, from the global options. */
export interface ClusterAccess {
  endpoints: string[];
  credentials?: ChannelCredentials;
  /** The bearer token of --auth-token, if one was given (an empty one is none). */
  token?: string;
  /** --timeout: how long a request keeps retrying through failovers. */
  timeoutMs: number;
}

/** The program, its output, and the way a verb reaches the cluster and sets the exit code. */
export interface Ctl {
  readonly program: Command;
  readonly io: Output;
  /** The arguments as given: commander drops `--`, which says where a verb's command begins. */
  readonly argv: readonly string[];
  /** The global options as parsed. */
  options(): GlobalOptions;
  /** Endpoints, TLS credentials and bearer token from the global options; throws naming a bad one. */
  access(): Promise<ClusterAccess>;
  /** Runs `fn` with a client of the cluster, closed afterwards; its answer is the exit code. */
  withClient(fn: (client: PalisadeClient, opts: GlobalOptions) => Promise<number>): Promise<void>;
}

export function ctlContext(
  program: Command,
  io: Output,
  argv: readonly string[],
  setExit: (code: number) => void,
): Ctl {
  const options = (): GlobalOptions => program.opts<GlobalOptions>();
  const access = async (): Promise<ClusterAccess> => {
    const opts = options();
    if ((opts.cert !== undefined || opts.key !== undefined) && opts.cacert === undefined)
      throw new Error(
        "--cert and --key need --cacert (the CA that signed the nodes' certificates)",
      );
    const endpoints = endpointsFrom(opts.endpoints, opts.cacert !== undefined);
    const token = opts.authToken?.trim();
    const common = {
      endpoints,
      timeoutMs: opts.timeout,
      ...(token !== undefined && token !== "" ? { token } : {}),
    };
    if (opts.cacert === undefined) return common;
    const { tlsCredentials } = await import("../connection.ts");
    const credentials = tlsCredentials({ ca: opts.cacert, cert: opts.cert, key: opts.key });
    return { ...common, credentials };
  };
  return {
    program,
    io,
    argv,
    options,
    access,
    async withClient(fn) {
      const { endpoints, credentials, token, timeoutMs } = await access();
      const { PalisadeClient } = await import("../client.ts");
      const client = new PalisadeClient({
        ...(credentials ? { credentials } : {}),
        ...(token !== undefined ? { token } : {}),
        endpoints,
        clientName: "palisadectl",
        retryBudgetMs: timeoutMs,
        callTimeoutMs: Math.min(3_000, Math.max(timeoutMs, 1)),
      });
      try {
        setExit(await fn(client, options()));
      } finally {
        await client.close();
      }
    },
  };
}

/** Adds an "Examples:" section to a verb's help. */
function withExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText(
    "after",
    ["", "Examples:", ...examples.map((e) => `  $ palisadectl ${e}`)].join("\n"),
  );
}

/** Adds examples to verbs by their path ("status", "semaphore acquire"); a path not found throws. */
export function addExamples(program: Command, byVerb: Record<string, readonly string[]>): void {
  for (const [path, examples] of Object.entries(byVerb)) {
    let command: Command | undefined = program;
    for (const name of path.split(" "))
      command = command?.commands.find((c: Command) => c.name() === name);
    if (command === undefined) throw new Error(`palisadectl has no verb ${path}`);
    withExamples(command, examples);
  }
}
