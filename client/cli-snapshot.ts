// palisadectl snapshot save FILE: a consistent backup of the cluster's replicated lock state,
// taken by a node at a ReadIndex point (committed and applied), written atomically to FILE.
// Restore it into a new cluster with `palisade restore --backup FILE --config NEW.json`.
import type { Command } from "commander";

export interface SnapshotOutput {
  out(text: string): void;
}

interface SnapshotGlobals {
  endpoints: string;
  json: boolean;
  timeout: number;
  cacert?: string;
  cert?: string;
  key?: string;
}

/** Adds `snapshot save FILE` to palisadectl. Errors are thrown for the caller to report (exit 1). */
export function registerSnapshotCommands(program: Command, io: SnapshotOutput): void {
  const snapshot = program
    .command("snapshot")
    .description("backups of the replicated state (admin)");
  snapshot
    .command("save <file>")
    .description(
      "write a consistent backup of the cluster's lock state to FILE (restore with `palisade restore`)",
    )
    .action(async (file: string) => {
      const opts = program.opts<SnapshotGlobals>();
      if ((opts.cert !== undefined || opts.key !== undefined) && opts.cacert === undefined) {
        throw new Error(
          "--cert and --key need --cacert (the CA that signed the nodes' certificates)",
        );
      }
      // Loaded by this verb alone (gRPC), not by every palisadectl start.
      const [{ tlsCredentials }, { fetchBackup, writeBackupFile }] = await Promise.all([
        import("./connection.ts"),
        import("./backup.ts"),
      ]);
      const credentials =
        opts.cacert !== undefined
          ? tlsCredentials({ ca: opts.cacert, cert: opts.cert, key: opts.key })
          : undefined;
      const endpoints = opts.endpoints
        .split(",")
        .map((e) => e.trim())
        .filter((e) => e !== "");
      const backup = await fetchBackup({
        endpoints,
        ...(credentials ? { credentials } : {}),
        timeoutMs: Math.max(opts.timeout, 1_000),
      });
      writeBackupFile(file, backup);
      const m = backup.meta;
      if (opts.json) {
        io.out(
          JSON.stringify({
            file,
            clusterId: m.clusterId,
            index: String(m.index),
            term: String(m.term),
            epoch: String(m.epoch),
            bytes: m.bytes,
            sha256: m.sha256,
            endpoint: m.endpoint,
          }),
        );
      } else {
        io.out(
          `saved ${file}: cluster "${m.clusterId}", index ${m.index}, term ${m.term}, token epoch ${m.epoch}, ${m.bytes} bytes, sha256 ${m.sha256} (from ${m.endpoint})`,
        );
      }
    });
}
