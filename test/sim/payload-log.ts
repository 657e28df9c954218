// The state machine of the Raft-level runs: it remembers the payloads it applied, with
// their index and term, and can snapshot and restore that list.
import type { Entry, Snapshot } from "../../node/raft/types.ts";
import type { Applier } from "../../node/host/driver.ts";

export interface AppliedPayload {
  readonly index: number;
  readonly term: number;
  readonly payload: string;
}

export class PayloadLog implements Applier<string> {
  entries: AppliedPayload[] = [];

  constructor(snapshot: Snapshot | null = null) {
    if (snapshot) this.restore(snapshot);
  }

  get applied(): string[] {
    return this.entries.map((e) => e.payload);
  }

  apply(entry: Entry): string {
    const payload = new TextDecoder().decode(entry.data);
    if (entry.kind === "normal")
      this.entries.push({ index: entry.index, term: entry.term, payload });
    return payload;
  }

  snapshot(): Uint8Array {
    return new TextEncoder().encode(JSON.stringify(this.entries));
  }

  restore(s: Snapshot): void {
    this.entries = PayloadLog.decode(s);
  }

  static decode(s: Snapshot): AppliedPayload[] {
    return JSON.parse(new TextDecoder().decode(s.data)) as AppliedPayload[];
  }
}
