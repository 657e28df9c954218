// Every fence adapter counts the accesses it admitted and the ones it refused, for the
// user to export; a shared counter adds up several fences, and a listener sees each
// decision without being able to change it.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  FenceCounter,
  FenceRejectedError,
  fencedFetch,
  fencedHandler,
  LevelFence,
  MemoryFence,
} from "../../../client/fence/index.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((r) => {
          s.close(() => r());
          s.closeAllConnections();
        }),
    ),
  );
});

describe("fence counters", () => {
  it("a key-value fence counts admitted and rejected accesses", async () => {
    const fence = new MemoryFence();
    await fence.guard("r", 5n, () => "ok");
    await fence.guard("r", 6n, () => "ok", { access: "read" });
    await expect(fence.guard("r", 4n, () => "never")).rejects.toBeInstanceOf(FenceRejectedError);
    expect(fence.counts.snapshot()).toEqual({ admitted: 2, rejected: 1 });
  });

  it("an effect that throws after admission still counts as admitted", async () => {
    const fence = new MemoryFence();
    await expect(fence.guard("r", 1n, () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(fence.counts.snapshot()).toEqual({ admitted: 1, rejected: 0 });
  });

  it("a shared counter adds up several fences, and a listener sees each decision with its resource", async () => {
    const counter = new FenceCounter();
    const seen: string[] = [];
    const stop = counter.onDecision((decision, resource) => seen.push(`${decision} ${resource}`));
    counter.onDecision(() => {
      throw new Error("a broken exporter");
    });
    const dir = mkdtempSync(join(tmpdir(), "fence-counts-"));
    const level = await LevelFence.open(dir, { counter, sync: false });
    try {
      const memory = new MemoryFence({ counter });
      await memory.guard("a", 2n, () => undefined);
      await level.guard("b", 9n, () => undefined);
      await expect(level.guard("b", 8n, () => undefined)).rejects.toBeInstanceOf(
        FenceRejectedError,
      );
      stop();
      await memory.guard("a", 3n, () => undefined);
    } finally {
      await level.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(counter.snapshot()).toEqual({ admitted: 3, rejected: 1 });
    expect(seen).toEqual(["admitted a", "admitted b", "rejected b"]);
  });

  it("the HTTP fence counts admitted requests and those refused with 409", async () => {
    const handler = fencedHandler({}, (_req, res) => void res.end("done"));
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders/1`;
    expect((await fencedFetch(10n, url, { method: "PUT" })).status).toBe(200);
    expect((await fencedFetch(9n, url, { method: "PUT" })).status).toBe(409);
    expect((await fencedFetch(10n, url)).status).toBe(200);
    expect(handler.counts.snapshot()).toEqual({ admitted: 2, rejected: 1 });
  });
});
