// `palisade init`: writes what a three-host cluster needs to start with mutual TLS: the
// cluster file, development certificates for those hosts (scripts/dev-certs.sh) and the
// systemd unit, into one folder to copy to /etc/palisade on each host. The file is
// checked by the same loader the nodes use before anything is written.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command } from "commander";
import {
  ConfigError,
  formatHostPort,
  parseClusterConfig,
  type ClusterConfigInput,
} from "../config/index.ts";
import { isEntryPoint } from "../util/entry-point.ts";
import { PACKAGE_ROOT } from "../util/package-root.ts";

// The same from this source, from its build in dist/node/cli/ and from an installed package.
const REPO_ROOT = PACKAGE_ROOT;
const UNIT = join(REPO_ROOT, "cluster-config/three-host/palisade@.service");

interface Options {
  dir: string;
  hosts: string;
  clusterId: string;
  dataDir: string;
  force?: boolean;
}

/** The cluster file for `hosts` (one node each, ids from 1), its certificates beside it in certs/. */
export function threeHostConfig(
  hosts: readonly string[],
  clusterId: string,
  dataDir: string,
): ClusterConfigInput {
  const at = (host: string, port: number): string => formatHostPort({ host, port });
  return {
    clusterId,
    nodes: hosts.map((host, i) => ({
      id: i + 1,
      peerAddress: at(host, 7100),
      clientAddress: at(host, 7000),
      metricsAddress: at(host, 7200),
      statusAddress: at(host, 7300),
      httpAddress: at(host, 7400),
      dataDir,
    })),
    tls: { ca: "certs/ca.crt", cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" },
    // Under mTLS the status page has a listener of its own, HTTPS with the node's certificate.
    statusPage: { tls: { cert: "certs/node-{id}.crt", key: "certs/node-{id}.key" } },
  };
}

function parseArgs(argv: readonly string[]): Options {
  return new Command("palisade init")
    .description(
      "Write a three-host cluster file with development certificates and the systemd unit.",
    )
    .option("-d, --dir <dir>", "folder to write into", "palisade-cluster")
    .option(
      "--hosts <a,b,c>",
      "the three hosts (names or IP addresses) the nodes are reached at",
      "10.0.0.11,10.0.0.12,10.0.0.13",
    )
    .option("--cluster-id <id>", "cluster id", "palisade-prod")
    .option("--data-dir <dir>", "each node's data folder", "/var/lib/palisade")
    .option("--force", "overwrite a cluster file already in the folder")
    .addHelpText(
      "after",
      "\nExample:\n  palisade init --dir /tmp/palisade --hosts 10.0.0.11,10.0.0.12,10.0.0.13\n",
    )
    .allowExcessArguments(false)
    .parse([...argv], { from: "user" })
    .opts<Options>();
}

function fail(message: string): never {
  process.stderr.write(`palisade init: ${message}\n`);
  process.exit(1);
}

/** `palisade init ...` with `argv` (the options after `init`); exits 1 on bad input. */
export function initMain(argv: readonly string[]): void {
  const opts = parseArgs(argv);
  const hosts = opts.hosts
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  if (hosts.length !== 3)
    fail(`--hosts: expected three hosts separated by commas, got ${hosts.length}`);
  if (new Set(hosts.map((h) => h.toLowerCase())).size !== hosts.length)
    fail("--hosts: the three hosts must differ");
  const dir = resolve(opts.dir);
  const file = join(dir, "palisade.json");
  if (existsSync(file) && !opts.force) fail(`${file} exists; pass --force to overwrite it`);

  const input = threeHostConfig(hosts, opts.clusterId, opts.dataDir);
  try {
    parseClusterConfig(input, file, dir);
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("bash", [join(REPO_ROOT, "scripts/dev-certs.sh"), join(dir, "certs"), "3"], {
      env: { ...process.env, PALISADE_CERT_HOSTS: hosts.join(",") },
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (error) {
    fail(
      `making the certificates failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || String(error)}`,
    );
  }
  writeFileSync(file, `${JSON.stringify(input, null, 2)}\n`);
  copyFileSync(UNIT, join(dir, "palisade@.service"));

  process.stdout.write(
    [
      `wrote ${file}`,
      `      ${join(dir, "certs")}/ (development CA; node-1..3 for ${hosts.join(", ")}; admin; client)`,
      `      ${join(dir, "palisade@.service")}`,
      "",
      "On each host (node N is the Nth of --hosts):",
      `  copy ${dir}/palisade.json to /etc/palisade/ and ${dir}/certs/{ca.crt,node-N.crt,node-N.key} to /etc/palisade/certs/`,
      "  copy palisade@.service to /etc/systemd/system/, then: systemctl daemon-reload && systemctl enable --now palisade@N",
      "Then: palisadectl --endpoints " +
        hosts.map((h) => formatHostPort({ host: h, port: 7000 })).join(",") +
        ` --cacert ${dir}/certs/ca.crt --cert ${dir}/certs/admin.crt --key ${dir}/certs/admin.key status`,
      `Status pages: ${hosts.map((h) => `https://${formatHostPort({ host: h, port: 7300 })}/ui`).join(", ")} (a browser needs certs/client.crt; these keys are for development only)`,
      "",
    ].join("\n"),
  );
}

if (isEntryPoint(import.meta.url)) initMain(process.argv.slice(2));
