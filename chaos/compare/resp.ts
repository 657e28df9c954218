// A minimal Redis client (RESP2 over one TCP connection, one command at a time), enough
// for SET NX PX and a compare-and-delete script. No dependency, so the comparison needs
// only redis-server.
import { createConnection, type Socket } from "node:net";

export type Reply = string | number | null | Reply[];

export class RedisConnection {
  private socket: Socket | undefined;
  private buffer = "";
  private waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | undefined;

  constructor(
    readonly host: string,
    readonly port: number,
  ) {}

  private connect(timeoutMs: number): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: this.host, port: this.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`connect ${this.host}:${this.port} timed out`));
      }, timeoutMs);
      socket.setEncoding("utf8");
      socket.once("connect", () => {
        clearTimeout(timer);
        this.socket = socket;
        resolve(socket);
      });
      socket.on("data", (chunk: string) => this.onData(chunk));
      socket.on("error", (err) => {
        clearTimeout(timer);
        this.fail(err);
        reject(err);
      });
      socket.on("close", () => this.fail(new Error("connection closed")));
    });
  }

  private fail(err: Error): void {
    this.socket = undefined;
    this.buffer = "";
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(err);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    const parsed = parse(this.buffer, 0);
    if (!parsed || !this.waiting) return;
    this.buffer = this.buffer.slice(parsed.end);
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve(parsed.value);
  }

  /** One command; rejects after `timeoutMs` (and drops the connection, whose answer may still come). */
  async command(args: (string | number)[], timeoutMs = 200): Promise<Reply> {
    const socket = await this.connect(timeoutMs);
    const wire = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join("")}`;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        socket.destroy();
        reject(new Error(`redis ${this.port}: timed out`));
      }, timeoutMs);
      this.waiting = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      socket.write(wire);
    });
  }

  close(): void {
    this.socket?.destroy();
  }
}

function parse(text: string, at: number): { value: Reply; end: number } | undefined {
  const eol = text.indexOf("\r\n", at);
  if (eol < 0) return undefined;
  const head = text[at];
  const body = text.slice(at + 1, eol);
  if (head === "+") return { value: body, end: eol + 2 };
  if (head === "-") return { value: `ERR ${body}`, end: eol + 2 };
  if (head === ":") return { value: Number(body), end: eol + 2 };
  if (head === "$") {
    const len = Number(body);
    if (len < 0) return { value: null, end: eol + 2 };
    if (text.length < eol + 2 + len + 2) return undefined;
    return { value: text.slice(eol + 2, eol + 2 + len), end: eol + 2 + len + 2 };
  }
  if (head === "*") {
    const n = Number(body);
    if (n < 0) return { value: null, end: eol + 2 };
    const items: Reply[] = [];
    let end = eol + 2;
    for (let i = 0; i < n; i++) {
      const item = parse(text, end);
      if (!item) return undefined;
      items.push(item.value);
      end = item.end;
    }
    return { value: items, end };
  }
  throw new Error(`bad RESP reply: ${JSON.stringify(text.slice(at, at + 20))}`);
}
