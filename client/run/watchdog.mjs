// The `palisadectl run` watchdog: a process of its own (plain JavaScript, no
// dependencies) that starts the command in a new process group and kills the whole group
// with SIGKILL once the lock's deadline passes. The CLI extends the deadline on each
// acknowledged keepalive; if the CLI freezes or dies, no extension comes and the group
// dies at the deadline all the same.
//
// Deadlines are absolute process.hrtime.bigint() values (CLOCK_MONOTONIC, the same clock
// in every process on the host), sent as decimal strings.
//
// Messages from the CLI (over the IPC channel):
//   { type: "start", deadline, command, args, env, cwd }
//   { type: "extend", deadline }          ignored once the current deadline has passed
//   { type: "terminate", signal, graceMs } forward a signal; SIGKILL at the end of the
//                                          grace period or at the deadline, whichever is first
//   { type: "kill" }                       the lock is lost: SIGKILL now
// Messages to the CLI:
//   { type: "started", pid }  { type: "spawnError", message }
//   { type: "exit", code, signal, killedFor }   killedFor: "deadline" | "lost" | "grace" | null
import { spawn } from "node:child_process";

const now = () => process.hrtime.bigint();

let deadline = 0n;
let child;
let killedFor = null;
let timer;
let graceTimer;
let terminating = false;

// Terminal signals belong to the CLI; the watchdog must outlive a Ctrl-C or hang-up.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.on(sig, () => {});

function send(message) {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    try {
      process.send(message, undefined, undefined, () => resolve());
    } catch {
      resolve();
    }
  });
}

function killGroup(signal) {
  if (!child || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

function killNow(reason) {
  if (killedFor === null) killedFor = reason;
  killGroup("SIGKILL");
}

function armDeadline() {
  clearTimeout(timer);
  const left = deadline - now();
  if (left <= 0n) {
    killNow("deadline");
    return;
  }
  // Timers may fire early or late by a little; re-check the clock when it fires.
  const ms = Number(left / 1_000_000n) + 1;
  timer = setTimeout(armDeadline, Math.min(ms, 2_147_000_000));
}

function start(message) {
  deadline = BigInt(message.deadline);
  if (deadline <= now()) {
    void send({
      type: "spawnError",
      lost: true,
      message: "the lock's deadline passed before the command could start",
    }).then(() => process.exit(3));
    return;
  }
  try {
    child = spawn(message.command, message.args, {
      cwd: message.cwd,
      env: message.env,
      stdio: "inherit",
      // A new session, hence a new process group whose id is the child's pid.
      detached: true,
    });
  } catch (err) {
    void send({ type: "spawnError", message: String(err?.message ?? err) }).then(() =>
      process.exit(1),
    );
    return;
  }
  child.once("error", (err) => {
    void send({ type: "spawnError", message: err.message }).then(() => process.exit(1));
  });
  child.once("spawn", () => {
    armDeadline();
    void send({ type: "started", pid: child.pid });
  });
  child.once("exit", (code, signal) => {
    // The command is done; whatever it left in its group must not outlive the lock.
    killGroup("SIGKILL");
    clearTimeout(timer);
    clearTimeout(graceTimer);
    void send({ type: "exit", code, signal, killedFor }).then(() => process.exit(0));
  });
}

process.on("message", (message) => {
  switch (message?.type) {
    case "start":
      if (!child) start(message);
      break;
    case "extend": {
      const next = BigInt(message.deadline);
      // An extension that arrives after the deadline passed must not revive anything.
      if (terminating || deadline === 0n || now() >= deadline) break;
      if (next > deadline) {
        deadline = next;
        armDeadline();
      }
      break;
    }
    case "terminate": {
      if (!child) process.exit(0);
      // From here on the deadline is frozen: the grace period ends at it at the latest.
      terminating = true;
      killGroup(message.signal ?? "SIGTERM");
      const graceMs = Math.max(0, Math.floor(message.graceMs ?? 0));
      const leftMs = Number((deadline - now()) / 1_000_000n);
      if (graceMs < leftMs) graceTimer = setTimeout(() => killNow("grace"), graceMs);
      break;
    }
    case "kill":
      if (!child) process.exit(3);
      killNow("lost");
      break;
  }
});

// The CLI is gone: no more extensions will come, and the deadline decides.
process.on("disconnect", () => {
  if (!child) process.exit(0);
});
