// Elections through PalisadeClient.elections: campaign for a name and get a Leadership (a
// fencing token, a signal that aborts when the lead can no longer be trusted, proclaim,
// resign, hand over), read the leader, and observe the changes. A lead is a grant of the
// election's name held by the client's session, so it is lost exactly as a lock is: the
// session's deadline passes (a pause, a partition) or the session ends.
import type { LeaderInfo } from "../proto/lock-values.ts";
import type { LockHandle } from "./lock-handle.ts";
import type { ObserveOptions, ObservedEvent } from "./observe.ts";
import type { Session } from "./session.ts";

export type { ElectionEvent, LeaderInfo, Leadership as LeaderValue } from "../proto/lock-values.ts";
export type { ObserveOptions, ObservedEvent } from "./observe.ts";

/** The most one Campaign waits; a campaign without a wait of its own campaigns again after it. */
export const CAMPAIGN_WAIT_MS = 3_600_000;

export interface CampaignOptions {
  /**
   * How long to wait among the candidates: absent, until elected (or aborted); 0, not at all.
   * When the wait ends unelected the campaign rejects with LockNotAcquiredError.
   */
  waitMs?: number;
  /** Aborting withdraws the candidacy (CancelWait; a lead that arrives anyway is resigned). */
  signal?: AbortSignal;
}

/** This client's lead of an election: hold it while `signal` has not aborted. */
export class Leadership {
  private current: string;

  constructor(
    private readonly handle: LockHandle,
    private readonly session: Session,
    value: string,
  ) {
    this.current = value;
  }

  get election(): string {
    return this.handle.lock;
  }

  /** The fencing token: the log index (with the epoch) of the entry that made this leader. */
  get token(): bigint {
    return this.handle.token;
  }

  get sessionId(): bigint {
    return this.handle.sessionId;
  }

  /** The value as last proclaimed (or campaigned with). */
  get value(): string {
    return this.current;
  }

  /** Aborts when the lead ends for this holder: lost (a SessionLostError), resigned or handed over. */
  get signal(): AbortSignal {
    return this.handle.signal;
  }

  /** Whether this client still leads, by the session's deadline now. */
  get held(): boolean {
    return this.handle.held;
  }

  /** A new value, accepted only while this token leads (StaleTokenError or NotHolderError otherwise). */
  async proclaim(value: string): Promise<void> {
    await this.session.proclaim(this.election, this.token, value);
    this.current = value;
  }

  /**
   * Steps down; with `to`, hands the lead to that waiting candidate (a session id) in one
   * log entry, with a new token and no moment without a leader. A candidate that is not
   * waiting is refused (FailedPreconditionError, ERROR_REASON_SUCCESSOR_NOT_WAITING): the
   * cluster still has this client as leader, but `signal` aborted before the request went
   * out (the work stops before the lead can pass), so resign again.
   */
  async resign(options: { to?: bigint } = {}): Promise<void> {
    await this.handle.release(options.to !== undefined ? { successor: options.to } : {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.resign();
  }
}

/** What PalisadeClient gives Elections. */
export interface ElectionsBackend {
  campaign(election: string, value: string, options: CampaignOptions): Promise<Leadership>;
  leader(election: string): Promise<LeaderInfo>;
  observe(election: string, options: ObserveOptions): AsyncGenerator<ObservedEvent>;
  /** The session campaigns run on (the one lock() uses), so a successor can be named by its id. */
  sessionId(): Promise<bigint>;
}

export class Elections {
  constructor(private readonly backend: ElectionsBackend) {}

  /**
   * Waits among the candidates of `election` (FIFO) and resolves once this client leads.
   * A client campaigns at most once per name at a time (LockBusyError otherwise).
   */
  campaign(election: string, value = "", options: CampaignOptions = {}): Promise<Leadership> {
    return this.backend.campaign(election, value, options);
  }

  /** The leader (null: none) and the number of candidates waiting: a linearizable read. */
  leader(election: string): Promise<LeaderInfo> {
    return this.backend.leader(election);
  }

  /** The election's changes in log order (see observeElection); end with the signal or by leaving the loop. */
  observe(election: string, options: ObserveOptions = {}): AsyncGenerator<ObservedEvent> {
    return this.backend.observe(election, options);
  }

  /** The id of the session this client campaigns with: what a leader names to hand over to it. */
  sessionId(): Promise<bigint> {
    return this.backend.sessionId();
  }
}
