// palisadectl: the command line over the client library.
// Exit codes: 0 ok, 1 error, 2 not acquired (or not elected, or `can` denied), 3 lock, lead
// or session lost, 130 interrupted while waiting; `run` and `elect … -- CMD` return the
// command's exit code, or 3 if it was killed because the grant was lost; `check perf` exits 1
// when a check fails. The verbs live by family in read-verbs.ts, lock-verbs.ts,
// election-verbs.ts, admin-verbs.ts, access-verbs.ts and check-verbs.ts. The client library (gRPC, protobuf) and the command supervisor are
// imported only by the verbs that use them, so `--help` and a mistyped verb answer without
// them.
import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { registerAccessVerbs } from "./access-verbs.ts";
import { registerAdminVerbs } from "./admin-verbs.ts";
import { registerCheckVerbs } from "./check-verbs.ts";
import {
  ctlContext,
  DEFAULT_ENDPOINTS,
  EXIT_ERROR,
  EXIT_NOT_ACQUIRED,
  EXIT_OK,
  stdio,
  type Output,
} from "./context.ts";
import { registerElectionVerbs } from "./election-verbs.ts";
import { parseDuration } from "./format.ts";
import { registerLockVerbs } from "./lock-verbs.ts";
import { registerReadVerbs } from "./read-verbs.ts";

export { EXIT_ERROR, EXIT_INTERRUPTED, EXIT_LOST, EXIT_NOT_ACQUIRED, EXIT_OK } from "./context.ts";
export type { Output } from "./context.ts";

/** The version of the package this file is part of (its package.json, found upwards). */
function packageVersion(): string {
  for (let dir = new URL(".", import.meta.url); ; dir = new URL("..", dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "palisade-lock" && pkg.version !== undefined) return pkg.version;
    } catch {
      // No package.json here: look further up.
    }
    if (dir.pathname === "/") return "unknown";
  }
}

/** Runs palisadectl with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: string[], io: Output = stdio): Promise<number> {
  let exitCode = EXIT_OK;
  /** Commander printed an error of its own (a bad option or argument) before throwing. */
  let commanderSaid = false;
  const program = new Command("palisadectl")
    .description("Command line for a Palisade lock cluster")
    .addOption(
      new Option("--endpoints <list>", "comma-separated host:port client addresses")
        .env("PALISADE_ENDPOINTS")
        .default(DEFAULT_ENDPOINTS),
    )
    .option("--json", "print JSON (uint64 values as decimal strings)", false)
    .addOption(
      new Option("--timeout <duration>", "how long a request keeps retrying through failovers")
        .argParser(parseDuration)
        .default(10_000, "10s"),
    )
    .option(
      "--cacert <file>",
      "PEM CA bundle of the cluster: connect with TLS (default $PALISADE_CACERT)",
      process.env.PALISADE_CACERT,
    )
    .option(
      "--cert <file>",
      "PEM client or admin certificate for mutual TLS (default $PALISADE_CERT)",
      process.env.PALISADE_CERT,
    )
    .option(
      "--key <file>",
      "PEM private key of --cert (default $PALISADE_KEY)",
      process.env.PALISADE_KEY,
    )
    .addOption(
      new Option(
        "--auth-token <token>",
        "bearer token (pal_…) to act as its identity (prefer the variable: arguments are visible to other users)",
      ).env("PALISADE_AUTH_TOKEN"),
    )
    .version(packageVersion(), "--version", "print palisadectl's version")
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.out(t.trimEnd()),
      writeErr: (t) => {
        commanderSaid = true;
        io.err(t.trimEnd());
      },
    });

  const ctl = ctlContext(program, io, argv, (code) => (exitCode = code));
  registerReadVerbs(ctl);
  registerLockVerbs(ctl);
  registerElectionVerbs(ctl);
  registerAdminVerbs(ctl);
  registerAccessVerbs(ctl);
  registerCheckVerbs(ctl);

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("commander.")) {
      if (
        code === "commander.helpDisplayed" ||
        code === "commander.version" ||
        code === "commander.help"
      )
        return EXIT_OK;
      // Thrown by an action, not by commander's own parsing: nothing was printed yet.
      if (!commanderSaid) io.err(`error: ${(err as Error).message}`);
      return EXIT_ERROR;
    }
    const { LockNotAcquiredError, PalisadeError } = await import("../errors.ts");
    if (err instanceof LockNotAcquiredError) {
      io.err(`not acquired: ${err.message}`);
      return EXIT_NOT_ACQUIRED;
    }
    const name = err instanceof PalisadeError ? `${err.name}: ` : "";
    io.err(`error: ${name}${(err as Error).message}`);
    return EXIT_ERROR;
  }
  return exitCode;
}
