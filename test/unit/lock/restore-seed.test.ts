import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  BackupFileError,
  readBackupFile,
  writeBackupFile,
  type Backup,
} from "../../../proto/backup-format.ts";
import { LockStateMachine } from "../../../node/lock/state-machine.ts";
import { restoreCluster, RestoreError } from "../../../node/cli/restore.ts";
import { IdentityMismatchError } from "../../../node/storage/errors.ts";
import { tokenFor } from "../../../node/lock/tokens.ts";
import { LevelStorage } from "../../../node/storage/level-storage.ts";

const dir = mkdtempSync(join(tmpdir(), "palisade-restore-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function backupOf(epoch: number): Backup {
  const machine = new LockStateMachine({}, { epoch });
  machine.apply(1, {
    type: "openSession",
    requestId: "r",
    ttlMs: 10_000,
    clientName: "c",
    wallMs: 0,
  });
  machine.apply(2, {
    type: "acquire",
    sessionId: tokenFor(epoch, 1),
    seq: 1,
    ackedUpTo: 0,
    held: [],
    lock: "x",
    waitMs: 0,
    wallMs: 0,
  });
  machine.skip(3);
  const data = machine.snapshot();
  return {
    meta: {
      clusterId: "old",
      index: 3n,
      term: 2n,
      epoch: BigInt(epoch),
      bytes: data.byteLength,
      sha256: "",
      savedAt: "",
      endpoint: "test",
    },
    data,
  };
}

function writeBackup(name: string, epoch: number): string {
  const path = join(dir, name);
  const backup = backupOf(epoch);
  writeBackupFile(path, {
    ...backup,
    meta: { ...backup.meta, sha256: createHash("sha256").update(backup.data).digest("hex") },
  });
  return path;
}

function clusterFile(name: string, clusterId: string): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      clusterId,
      nodes: [1, 2, 3].map((id) => ({
        id,
        peerAddress: `127.0.0.1:${100 + id}`,
        clientAddress: `127.0.0.1:${200 + id}`,
        dataDir: `${name}/node-${id}`,
      })),
    }),
  );
  return path;
}

describe("backup files", () => {
  it("round-trips and detects corruption and truncation", () => {
    const path = writeBackup("a.backup", 0);
    const read = readBackupFile(path);
    expect(read.meta).toMatchObject({ clusterId: "old", index: 3n, term: 2n, epoch: 0n });
    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 10] = (flipped[flipped.length - 10] as number) ^ 1;
    writeFileSync(join(dir, "flipped"), flipped);
    expect(() => readBackupFile(join(dir, "flipped"))).toThrow(/SHA-256 does not match/);
    writeFileSync(join(dir, "short"), bytes.subarray(0, bytes.length - 3));
    expect(() => readBackupFile(join(dir, "short"))).toThrow(/truncated/);
    writeFileSync(join(dir, "other"), "hello\n{}\n");
    expect(() => readBackupFile(join(dir, "other"))).toThrow(BackupFileError);
  });
});

describe("restoreCluster", () => {
  it("seeds every node's store with the transformed snapshot, commit at the backup's index and the new members", async () => {
    const backup = writeBackup("b.backup", 2);
    const config = clusterFile("new", "new-cluster");
    const result = await restoreCluster({ backup, config, wallMs: 5 });
    expect(result).toMatchObject({
      fromClusterId: "old",
      clusterId: "new-cluster",
      index: 3,
      term: 2,
      backupEpoch: 2,
      epoch: 3,
      droppedSessions: 1,
      endedGrants: 1,
    });
    expect(result.seeded.map((s) => s.id)).toEqual([1, 2, 3]);
    for (const id of [1, 2, 3]) {
      const storage = await LevelStorage.open({
        dir: join(dir, `new/node-${id}`),
        clusterId: "new-cluster",
        nodeId: id,
        reserveBytes: 0,
      });
      const state = await storage.load();
      await storage.close();
      expect(state.hardState).toEqual({ term: 2, vote: 0, commit: 3 });
      expect(state.snapshot?.meta).toMatchObject({
        index: 3,
        term: 2,
        membership: { voters: [1, 2, 3], learners: [] },
      });
      const machine = LockStateMachine.restore(state.snapshot?.data ?? new Uint8Array());
      expect(machine.epoch).toBe(3);
      expect(machine.sessionIds()).toEqual([]);
      expect(machine.history("x")[0]?.reason).toBe("sessionExpired");
    }
    // The old cluster's id does not open the seeded stores.
    await expect(
      LevelStorage.open({
        dir: join(dir, "new/node-1"),
        clusterId: "old",
        nodeId: 1,
        reserveBytes: 0,
      }),
    ).rejects.toThrow(IdentityMismatchError);
    // Seeding again over them is refused.
    await expect(restoreCluster({ backup, config })).rejects.toThrow(/is not empty/);
  });

  it("refuses the backup's own cluster id and an epoch not above the backup's, writing nothing", async () => {
    const backup = writeBackup("c.backup", 2);
    await expect(restoreCluster({ backup, config: clusterFile("same", "old") })).rejects.toThrow(
      /needs a new cluster id/,
    );
    await expect(
      restoreCluster({ backup, config: clusterFile("low", "low-cluster"), epoch: 2 }),
    ).rejects.toThrow(RestoreError);
    await expect(
      restoreCluster({ backup, config: clusterFile("low", "low-cluster"), epoch: 2 }),
    ).rejects.toThrow(/must be at least 3/);
    const high = await restoreCluster({
      backup,
      config: clusterFile("high", "high-cluster"),
      epoch: 9,
      id: 2,
    });
    expect(high.epoch).toBe(9);
    expect(high.seeded).toEqual([{ id: 2, dataDir: join(dir, "high/node-2") }]);
  });
});
