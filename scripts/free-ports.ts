// Free loopback ports for the clusters that tests and benchmarks start.
import { createServer, type Server } from "node:net";

/**
 * `count` distinct ports the OS says are free on loopback now. Every listener stays open
 * until all are chosen, so the OS cannot hand out one port twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolvePort, reject) => {
          server.on("error", reject);
          server.listen(0, "127.0.0.1", () => {
            const address = server.address();
            resolvePort(typeof address === "object" && address ? address.port : 0);
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((r) => server.close(() => r()))));
  }
}
