// palisadectl's admin verbs (an admin certificate where the cluster uses mutual TLS): revoke
// a grant, hand over leadership, change membership, save a backup.
import type { MemberInfo } from "../types.ts";
import { addExamples, EXIT_OK, type Ctl, type GlobalOptions } from "./context.ts";
import { parseCount, parseUint64, table, toJson } from "./format.ts";

/** Adds the admin verbs to palisadectl. */
export function registerAdminVerbs(ctl: Ctl): void {
  const { program, io, withClient } = ctl;

  program
    .command("revoke")
    .description(
      "end the grant with this token, whoever holds it (admin; its history says revoked; retrying is safe)",
    )
    .argument("<name>", "the lock")
    .argument("<token>", "the grant's token (`palisadectl lock NAME` shows it)", parseUint64)
    .action((lock: string, token: bigint) =>
      withClient(async (client, opts) => {
        const index = await client.admin.revokeLock(lock, token);
        if (opts.json) io.out(toJson({ lock, token, revokedAtIndex: index }));
        else io.out(`revoked ${lock} token ${token} at index ${index}`);
        return EXIT_OK;
      }),
    );

  const leader = program.command("leader").description("leadership (admin): transfer");
  leader
    .command("transfer")
    .description("hand leadership to another node, as before maintenance of the leader's host")
    .option("--to <id>", "target node id (default: the most caught-up voter)", parseCount, 0)
    .action((cmd: { to: number }) =>
      withClient(async (client, opts) => {
        const answer = await client.admin.transferLeader(cmd.to);
        if (opts.json) io.out(toJson(answer));
        else io.out(`leader is node ${answer.leaderId} in term ${answer.term}`);
        return EXIT_OK;
      }),
    );

  /** Prints the members; answers the exit code. */
  const printMembers = (members: MemberInfo[], opts: GlobalOptions): number => {
    if (opts.json) io.out(toJson(members));
    else
      io.out(
        table(
          ["ID", "PEER ADDRESS", "CLIENT ADDRESS", "KIND", "REACHABLE", "MATCH INDEX"],
          members.map((m) => [
            String(m.nodeId),
            m.address,
            m.clientAddress || "-",
            m.kind,
            m.reachable ? "yes" : "no",
            String(m.matchIndex),
          ]),
        ),
      );
    return EXIT_OK;
  };

  const member = program
    .command("member")
    .description("cluster membership (admin): list, add, promote, remove");
  member
    .command("list")
    .description("members as the leader sees them: kind, reachable, match index")
    .action(() =>
      withClient(async (client, opts) => printMembers(await client.admin.memberList(), opts)),
    );
  member
    .command("add")
    .description("add a node (started with --join) as a learner")
    .argument("<id>", "the new node's id", parseCount)
    .argument("<peer-address>", "its host:port for peers")
    .argument("<client-address>", "its host:port for clients")
    .action((id: number, peer: string, clientAddress: string) =>
      withClient(async (client, opts) =>
        printMembers(await client.admin.memberAdd(id, peer, clientAddress), opts),
      ),
    );
  member
    .command("promote")
    .description("make a caught-up learner a voter")
    .argument("<id>", "the learner's node id", parseCount)
    .action((id: number) =>
      withClient(async (client, opts) => printMembers(await client.admin.memberPromote(id), opts)),
    );
  member
    .command("remove")
    .description("remove a member (a leader that removes itself steps down)")
    .argument("<id>", "the member's node id", parseCount)
    .action((id: number) =>
      withClient(async (client, opts) => printMembers(await client.admin.memberRemove(id), opts)),
    );

  const snapshot = program
    .command("snapshot")
    .description("backups of the replicated state (admin)");
  snapshot
    .command("save <file>")
    .description(
      "write a consistent backup of the cluster's lock state to FILE (restore with `palisade restore`)",
    )
    .action(async (file: string) => {
      const { endpoints, credentials, token, timeoutMs } = await ctl.access();
      // Loaded by this verb alone, not by every palisadectl start.
      const { fetchBackup, writeBackupFile } = await import("../backup.ts");
      const backup = await fetchBackup({
        endpoints,
        ...(credentials ? { credentials } : {}),
        ...(token !== undefined ? { token } : {}),
        timeoutMs: Math.max(timeoutMs, 1_000),
      });
      writeBackupFile(file, backup);
      const m = backup.meta;
      if (ctl.options().json) {
        io.out(
          toJson({
            file,
            clusterId: m.clusterId,
            index: m.index,
            term: m.term,
            epoch: m.epoch,
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

  addExamples(program, {
    revoke: ["revoke orders/42 1234"],
    "leader transfer": ["leader transfer", "leader transfer --to 2"],
    "member list": ["member list", "--endpoints 10.0.0.12:7001 member list --json"],
    "member add": ["member add 4 10.0.0.14:7101 10.0.0.14:7001"],
    "member promote": ["member promote 4"],
    "member remove": ["member remove 1"],
    "snapshot save": ["snapshot save backup.palisade"],
  });
}
