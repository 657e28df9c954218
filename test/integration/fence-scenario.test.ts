// The paused-client scenario end to end on real processes (three Palisade nodes, the
// fenced-store service, two workers), with the fence on and, to show the test can tell,
// off.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../examples/fenced-store/scenario.ts";
import { clusterForTests, type Cluster } from "./harness.ts";

let cluster: Cluster;
/** The workers' session TTL: only worker-1's pause outlasts it, not a loaded machine's own stalls of a worker. */
const TTL_MS = 5_000;

clusterForTests({}, (started) => {
  cluster = started;
});

describe("fenced store with a worker paused past its session TTL", () => {
  it("refuses the paused worker's write with the fence on: no lost update", async () => {
    const result = await runScenario({
      endpoints: cluster.endpoints,
      fenced: true,
      lock: "fenced-store/on",
      ttlMs: TTL_MS,
    });
    console.log(result.transcript.join("\n"));
    expect(result.heldAtStop).toBe(true);
    expect(result.token2).toBeGreaterThan(result.token1);
    expect(result.grant1Ended).toBe("sessionExpired");
    expect(result.write2Status).toBe(204);
    expect(result.lateWriteStatus).toBe(409);
    expect(result.contents).toEqual(["worker-2"]);
  });

  it("loses worker-2's update with the fence off", async () => {
    const result = await runScenario({
      endpoints: cluster.endpoints,
      fenced: false,
      lock: "fenced-store/off",
      ttlMs: TTL_MS,
    });
    console.log(result.transcript.join("\n"));
    expect(result.heldAtStop).toBe(true);
    expect(result.token2).toBeGreaterThan(result.token1);
    expect(result.grant1Ended).toBe("sessionExpired");
    expect(result.write2Status).toBe(204);
    expect(result.lateWriteStatus).toBe(204);
    expect(result.contents).toEqual(["worker-1"]);
  });
});
