// `palisade init` writes a cluster file for three hosts that the nodes' own loader
// accepts, development certificates naming those hosts, and the systemd unit; the unit
// example passes `systemd-analyze verify` where the machine has it.
import { spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadClusterConfig, nodeConfig } from "../../node/config/index.ts";
import { statusPagePlace } from "../../node/ops/status-page/index.ts";

const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const UNIT = join(REPO_ROOT, "cluster-config/three-host/palisade@.service");
const dirs: string[] = [];

function init(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "bin/palisade.mjs"), "init", ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function systemdAnalyze(): boolean {
  return spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" }).status === 0;
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("palisade init", () => {
  it("writes a three-host cluster file with mTLS, certificates for those hosts and the systemd unit", () => {
    const dir = mkdtempSync(join(tmpdir(), "palisade-init-"));
    dirs.push(dir);
    const out = init([
      "--dir",
      dir,
      "--hosts",
      "db1.example.com,10.0.0.12,10.0.0.13",
      "--cluster-id",
      "palisade-test",
    ]);
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const cfg = loadClusterConfig(join(dir, "palisade.json"));
    expect(cfg.clusterId).toBe("palisade-test");
    expect(cfg.nodes.map((n) => n.clientAddress)).toEqual([
      "db1.example.com:7000",
      "10.0.0.12:7000",
      "10.0.0.13:7000",
    ]);
    expect(cfg.tls?.ca).toBe(join(dir, "certs/ca.crt"));
    for (const id of [1, 2, 3]) {
      const place = statusPagePlace(cfg, nodeConfig(cfg, id).self);
      expect(place.kind).toBe("own");
      const cert = new X509Certificate(readFileSync(join(dir, `certs/node-${id}.crt`)));
      expect(cert.subject).toContain(`CN=node-${id}`);
      expect(cert.subjectAltName).toContain("DNS:db1.example.com");
      expect(cert.subjectAltName).toContain("IP Address:10.0.0.13");
      expect(
        cert.verify(new X509Certificate(readFileSync(join(dir, "certs/ca.crt"))).publicKey),
      ).toBe(true);
    }
    for (const f of ["certs/admin.crt", "certs/client.key", "palisade@.service"])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(out.stdout).toContain("systemctl enable --now palisade@N");
  });

  it("refuses to overwrite a cluster file, and refuses a host list that is not three hosts", () => {
    const dir = mkdtempSync(join(tmpdir(), "palisade-init-"));
    dirs.push(dir);
    expect(init(["--dir", dir, "--hosts", "a,b,c"]).status).toBe(0);
    const before = readFileSync(join(dir, "palisade.json"), "utf8");
    const again = init(["--dir", dir, "--hosts", "x,y,z"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/palisade\.json exists; pass --force to overwrite it/);
    expect(readFileSync(join(dir, "palisade.json"), "utf8")).toBe(before);
    const two = init(["--dir", join(dir, "other"), "--hosts", "a,b"]);
    expect(two.status).toBe(1);
    expect(two.stderr).toContain("--hosts: expected three hosts separated by commas, got 2");
    expect(existsSync(join(dir, "other"))).toBe(false);
  });
});

describe("systemd unit example", () => {
  it.runIf(systemdAnalyze())("passes systemd-analyze verify", () => {
    const dir = mkdtempSync(join(tmpdir(), "palisade-unit-"));
    dirs.push(dir);
    copyFileSync(UNIT, join(dir, "palisade@.service"));
    const r = spawnSync("systemd-analyze", ["verify", join(dir, "palisade@1.service")], {
      cwd: dir,
      encoding: "utf8",
    });
    // Unknown keys and bad values are warnings on stderr with exit status 0: neither may appear.
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.status).toBe(0);
  });

  it.skipIf(systemdAnalyze())(
    "is not verified: systemd-analyze is not installed on this machine",
    () => undefined,
  );

  it("runs the node from the package installed in /opt/palisade with the cluster file in /etc/palisade and the id as the instance", () => {
    const unit = readFileSync(UNIT, "utf8");
    expect(unit).toMatch(
      /^ExecStart=\/usr\/bin\/node \/opt\/palisade\/node_modules\/palisade\/bin\/palisade\.mjs node --config \/etc\/palisade\/palisade\.json --id %i$/m,
    );
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^StateDirectory=palisade$/m);
  });
});
