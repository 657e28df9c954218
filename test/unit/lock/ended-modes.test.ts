// The mode of each grant an entry ends, beside its end events (what metrics label ends by).
import { describe, expect, it } from "vitest";
import { Client, setup, tokenOf } from "./kit.ts";

describe("ended modes", () => {
  it("an entry that ends grants reports each one's mode in the order of its end events", () => {
    const runner = setup();
    const a = new Client(runner, "a");
    const b = new Client(runner, "b");
    const shared = tokenOf(a.shared("r").result);
    b.shared("r");
    const exclusive = tokenOf(a.exclusive("x").result);
    expect(a.exclusive("y").endedModes).toBeUndefined();
    expect(a.release("r", shared).endedModes).toEqual(["shared"]);
    expect(a.release("x", exclusive).endedModes).toEqual(["exclusive"]);
    const out = b.close();
    expect(out.events.map((e) => e.type)).toEqual(["sessionClosed"]);
    expect(out.endedModes).toEqual(["shared"]);
    const closed = a.close();
    expect(closed.events.map((e) => [e.type, e.lock])).toEqual([["sessionClosed", "y"]]);
    expect(closed.endedModes).toEqual(["exclusive"]);
  });
});
