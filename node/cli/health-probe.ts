// A gRPC health probe for one node: asks grpc.health.v1.Health/Check and exits 0 when the
// service is SERVING, 1 otherwise (for systemd, load balancers and scripts).
//
//   npx tsx node/cli/health-probe.ts 127.0.0.1:7001 [--service palisade.v1.LockService]
//     [--cacert ca.crt --cert client.crt --key client.key]
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { Command } from "commander";
import { tlsChannelCredentials } from "../../proto/tls-channel.ts";

const STATUS_NAMES = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"];

interface Options {
  service: string;
  timeout: string;
  cacert?: string;
  cert?: string;
  key?: string;
}

function credentials(opts: Options): grpc.ChannelCredentials {
  if (opts.cacert === undefined) return grpc.credentials.createInsecure();
  const ca = readFileSync(opts.cacert);
  if (opts.cert === undefined || opts.key === undefined) return tlsChannelCredentials({ ca });
  return tlsChannelCredentials({ ca, key: readFileSync(opts.key), cert: readFileSync(opts.cert) });
}

/** HealthCheckRequest { string service = 1 } and HealthCheckResponse { ServingStatus status = 1 }, by hand. */
function encodeRequest(service: string): Buffer {
  const name = Buffer.from(service, "utf8");
  return name.length === 0
    ? Buffer.alloc(0)
    : Buffer.concat([Buffer.from([0x0a, name.length]), name]);
}

function decodeStatus(bytes: Buffer): number {
  return bytes.length >= 2 && bytes[0] === 0x08 ? bytes[1] : 0;
}

async function main(): Promise<number> {
  const program = new Command("health-probe")
    .argument("<address>", "host:port of a node's client address")
    .option("--service <name>", 'service to check ("" is the whole node)', "")
    .option("--timeout <ms>", "deadline of the check", "2000")
    .option("--cacert <file>", "PEM CA bundle: connect with TLS")
    .option("--cert <file>", "PEM certificate for mutual TLS")
    .option("--key <file>", "PEM private key of --cert")
    .parse();
  const [address] = program.args;
  const opts = program.opts<Options>();
  const client = new grpc.Client(address, credentials(opts));
  const answer = await new Promise<{ status: number } | { error: string }>((done) => {
    client.makeUnaryRequest<Buffer, Buffer>(
      "/grpc.health.v1.Health/Check",
      (b) => b,
      (b) => b,
      encodeRequest(opts.service),
      new grpc.Metadata(),
      { deadline: Date.now() + Number(opts.timeout) },
      (err, res) =>
        done(
          err
            ? { error: `${grpc.status[err.code]}: ${err.details}` }
            : { status: decodeStatus(res ?? Buffer.alloc(0)) },
        ),
    );
  });
  client.close();
  const name = opts.service === "" ? address : `${address} ${opts.service}`;
  if ("error" in answer) {
    process.stdout.write(`${name}: ${answer.error}\n`);
    return 1;
  }
  process.stdout.write(`${name}: ${STATUS_NAMES[answer.status] ?? answer.status}\n`);
  return answer.status === 1 ? 0 : 1;
}

process.exitCode = await main();
