/*
 * session.pml — sessions and keepalives across leader changes (docs/spec.md "Sessions").
 *
 * What it abstracts
 *  - One session S1 of client C1 that holds one lock from time 0; its expiry, once committed,
 *    grants the lock to a waiting session S2 at the expiry's index ("the cluster could have
 *    granted the lock to another" = the expiry entry is committed).
 *  - Raft as a sequence of leaders (terms). A new leader's log holds every committed entry and
 *    maybe the old leader's uncommitted expiry; its applied state may lag its log (apply lag)
 *    until an entry of its own term commits (then it has applied everything before it). The
 *    quorum round of a keepalive is atomic with its answer: a deposed leader answers nothing.
 *  - Discrete real time `now`, one unit = the client's deadline tick. Clock rates are bounded
 *    by rho = RHO_P/RHO_Q. The leader may expire a TTL it started at real time s anywhere in
 *    [s + LEADER_MIN, s + LEADER_MAX] (its clock runs fast or slow); the client believes it
 *    holds until CLIENT_MAX after it *sent* the last acknowledged keepalive (its deadline
 *    budget TTL - margin, margin = 2 rho TTL + tick, read on a slow clock and checked once a
 *    tick). Both bounds are rounded outward (the leader earlier, the client later).
 *  - Client pauses: the client may stop being scheduled at any point; its deadline check
 *    (client/stall-watch.ts) counts a pause as elapsed time, so its belief is judged on `now`.
 *  - Keepalives and answers cross a network that delays (leaves them queued), loses and
 *    duplicates them; keepalives that arrived at the leader are processed before its expiry
 *    check (node/lock/lease-keeper.ts, due() after inbound messages).
 *  - Leader event-loop stalls (at most MAXSTALLS): keepalives wait, and at the stall's end the
 *    lease keeper shifts every deadline by the stall's length (LeaseKeeper.stalled).
 *
 * Time is kept as ages (ticks since an event, saturating where larger ones no longer differ), so
 * the state space is finite without a bound on time: the run covers every length of run.
 * Bounds: TTL 10 units, rho 1/4, at most 3 leaders, 1 stall of at most 3 units, one keepalive
 * in flight per hop (network, leader's inbox, answer), one duplicated keepalive.
 *
 * Trace mode (-DTRACE, random runs only, replayed on the code by the conformance scripts):
 * both clocks exact, TTL 12 and rho 1/8 (so the client's keepalive period is whole ticks and
 * below its budget), and the client is the shipped Session's loop: one KeepAlive call at a
 * time, the next due at the next multiple of TTL/3, an answer to an earlier call dropped.
 * Nothing of it is compiled in the exhaustive runs.
 *
 * Properties (one name each: a flag the Monitor asserts in every state)
 *  - no_stale_act: C1 never believes it holds (its deadline says so) once the cluster could
 *    have granted the lock to another.
 *  - ka_after_end: no keepalive is acknowledged after the log committed the session's end
 *    (to acknowledge it would extend a lease the log has ended; node/host/lock-requests.ts).
 *  - release_bound: a leader proposes the expiry no later than LEADER_MAX after it became
 *    leader or last processed a keepalive, plus the stalls since (spec G6).
 *
 * Mutants
 *  - KA_EARLY: a new leader acknowledges a keepalive before an entry of its own term is
 *    applied (fails ka_after_end).
 *  - STALL_RESTART: after a stall the leader restarts every TTL in full instead of shifting it
 *    by the stall (fails release_bound: repeated stalls keep a dead session alive).
 *  - NO_DRIFT_MARGIN: the client's margin is one tick, without 2 rho TTL (fails no_stale_act).
 */

#ifdef TRACE
/* random runs replayed on the client Session: a TTL whose third (its keepalive period) is
 * whole ticks, and a rho that leaves the client's budget (8) above that period (4) */
#define TTL 12
#define RHO_Q 8
#else
#define TTL 10
#define RHO_Q 4
#endif
#define TICK 1
#define RHO_P 1
/* margin = ceil(2 rho TTL) + tick */
#ifdef NO_DRIFT_MARGIN
#define MARGIN TICK
#else
#define MARGIN ((2 * TTL * RHO_P + RHO_Q - 1) / RHO_Q + TICK)
#endif
/* floor(TTL / (1 + rho)) and ceil(TTL / (1 - rho)): the leader's real-time window */
#ifdef TRACE
/* random runs replayed on the lease keeper: the leader's clock is exact */
#define LEADER_MIN TTL
#define LEADER_MAX TTL
#else
#define LEADER_MIN ((TTL * RHO_Q) / (RHO_Q + RHO_P))
#define LEADER_MAX ((TTL * RHO_Q + RHO_Q - RHO_P - 1) / (RHO_Q - RHO_P))
#endif
#ifdef TRACE
/* the client's clock is exact too: it believes while at most TTL - margin passed since the send */
#define CLIENT_MAX (TTL - MARGIN)
#else
/* ceil((TTL - margin + tick) / (1 - rho)): the latest the client may still believe */
#define CLIENT_MAX (((TTL - MARGIN + TICK) * RHO_Q + RHO_Q - RHO_P - 1) / (RHO_Q - RHO_P))
#endif
#define MAXTERM 3
#define MAXSTALLS 1
#define MAXSTALL 3
#define AGE_CAP (CLIENT_MAX + 1)

mtype = { OK, GONE };

/* One keepalive per hop, as its age (ticks since the client sent it). */
#ifdef TRACE
bool net_has = true;    byte net_age;    /* the Session's first keepalive leaves as it is made */
#else
bool net_has = false;   byte net_age;    /* in the network */
#endif
bool in_has = false;    byte in_age;     /* arrived at the leader, not processed yet */
bool rep_has = false;   byte rep_age;  mtype rep_kind; /* an answer in the network */

/* the log */
bool exp_in_log = false;     /* an expiry of S1 is in the current leader's log, uncommitted */
bool exp_committed = false;  /* S1's end is committed: the lock may be granted to S2 */
/* the leader */
byte term = 1;
bool own_applied = true;     /* an entry of this leader's term is applied */
bool knows_end = false;      /* its applied state has S1 ended */
bool proposed = false;       /* this leader proposed the expiry (answers GONE from then) */
byte ttl_age = 0;            /* ticks of S1's TTL on this leader's session clock */
byte bound_age = 0;          /* the same, as the contract allows it (release_bound) */
bool stalled = false;
byte stall_len = 0;
byte stalls = 0;
bool deferred = false;       /* a keepalive answer waiting for the own-term entry */
byte deferred_age = 0;
/* the client: OpenSession sent at 0 */
byte c_left = CLIENT_MAX;    /* ticks until its deadline */
bool c_lost = false;
bool c_alive = true;         /* still sending keepalives */
#ifdef TRACE
bool c_sent = true;
#else
bool c_sent = false;         /* sent one this tick: at most one a tick */
#endif
bool dup_used = false;
/* ghosts */
bool bad_ack = false;

#define believes (!c_lost)
#define tracks (!knows_end && !proposed)
#define late (!stalled && tracks && bound_age > LEADER_MAX)
/* Trace mode: one line per leader-side event, with the lease state after it (live, and the
 * deadline in real time), replayed on LeaseKeeper by scripts/model/lease-conformance.ts.
 * Events: 0 tick, 1 keepalive processed (arg 1: the session tracked), 2 expiry proposed,
 * 3 the session's end applied, 4 a stall ended (arg: its length), 5 a new leader. */
#ifdef TRACE
int now_t = 0;
#define trace(ev, arg) printf("LEASE ev=%d t=%d arg=%d live=%d deadline=%d\n", ev, now_t, arg, tracks, (tracks -> now_t + TTL - ttl_age : 0))
/* Trace mode, client side: the client is the Session's keepalive loop (client/session.ts),
 * one KeepAlive call at a time, the first made with the session, each next one due at the
 * next multiple of PERIOD after the previous call's start and made as soon as that call was
 * answered; the sender may resend a call (an attempt with the call's age: the Session credits
 * the call's start), and an answer to an earlier call is dropped. One CLIENT line per client
 * event with the client's state after it (believes, and its deadline: the end of its budget),
 * replayed on Session by scripts/model/session-conformance.ts. Events: 0 tick (the deadline
 * check), 1 a keepalive call made, 2 a call acknowledged, 3 a call answered GONE, 4 the
 * client paused for good (sends nothing more). */
#define PERIOD (TTL / 3)
bool c_call = true;          /* a call is outstanding */
byte c_call_age = 0;         /* ticks since that call was made */
int c_next = PERIOD;         /* when the next call is due */
#define ctrace(ev) printf("CLIENT ev=%d t=%d live=%d deadline=%d\n", ev, now_t, !c_lost, now_t + c_left)
inline call_if_due() {
  if
  :: c_alive && !c_lost && !c_call && now_t >= c_next ->
     c_call = true; c_call_age = 0; c_next = (now_t / PERIOD) * PERIOD + PERIOD;
     if :: !net_has -> net_has = true; net_age = 0; c_sent = true :: else -> skip fi;
     ctrace(1)
  :: else -> skip
  fi
}
#else
#define trace(ev, arg) skip
#endif
#define inc(a, cap) if :: a < cap -> a++ :: else -> skip fi
#define TTL_CAP (LEADER_MAX + 1)

/* The properties: each a flag the monitor clears, and asserts, when its state is reached. */
bool no_stale_act = true;
bool ka_after_end = true;
bool release_bound = true;

active proctype Monitor() {
  atomic {
    if
    :: exp_committed && believes -> no_stale_act = false; assert(no_stale_act)
    :: bad_ack -> ka_after_end = false; assert(ka_after_end)
    :: late -> release_bound = false; assert(release_bound)
    fi
  }
}

inline answer(a) {
  if
  :: knows_end || proposed -> rep_kind = GONE
  :: else -> bad_ack = bad_ack || exp_committed; rep_kind = OK
  fi;
  rep_has = true; rep_age = a
}

active proctype Time() {
  do
  :: atomic {
       (stalled || !in_has) &&
       /* urgent: the leader proposes by its latest deadline */
       (stalled || !tracks || ttl_age < LEADER_MAX) &&
       (!stalled || stall_len < MAXSTALL) ->
       if :: c_left == 0 -> c_lost = true :: else -> c_left-- fi;
       c_sent = false;
       inc(net_age, AGE_CAP); inc(in_age, AGE_CAP); inc(rep_age, AGE_CAP); inc(deferred_age, AGE_CAP);
       if
       :: stalled -> stall_len++
       :: else -> inc(ttl_age, TTL_CAP); inc(bound_age, TTL_CAP)
       fi;
#ifdef TRACE
       now_t++;
       inc(c_call_age, AGE_CAP);
#endif
       if :: stalled -> skip :: else -> trace(0, 0) fi
#ifdef TRACE
       ;
       ctrace(0);
       call_if_due()
#endif
     }
  od
}

active proctype Leader() {
  do
  /* a keepalive arrived: its TTL restarts at arrival; answered after the quorum round */
  :: atomic {
       !stalled && in_has && !rep_has -> in_has = false;
       if :: tracks -> ttl_age = 0; bound_age = 0; trace(1, 1) :: else -> trace(1, 0) fi;
#ifdef KA_EARLY
       answer(in_age)
#else
       if
       :: own_applied -> answer(in_age)
       :: !own_applied && !deferred -> deferred = true; deferred_age = in_age
       :: !own_applied && deferred -> skip /* the request fails; the client retries */
       fi
#endif
     }
  /* the expiry check, after inbound keepalives were processed */
  :: atomic { !stalled && !in_has && tracks && ttl_age >= LEADER_MIN ->
       proposed = true; exp_in_log = true; trace(2, 0) }
  /* the own-term entry (or the expiry) commits: everything before it is applied */
  :: atomic { !stalled && (!own_applied || exp_in_log) ->
       own_applied = true;
       if :: exp_in_log -> exp_committed = true; exp_in_log = false :: else -> skip fi;
       if :: !knows_end && exp_committed -> knows_end = true; trace(3, 0) :: else -> skip fi;
       if
       :: deferred && !rep_has -> deferred = false; answer(deferred_age)
       :: else -> skip
       fi
     }
  /* an event-loop stall; at its end the session clock moves back by its length */
  :: atomic { !stalled && stalls < MAXSTALLS -> stalled = true; stall_len = 0; stalls++ }
  :: atomic { stalled && stall_len > 0 ->
       stalled = false;
#ifdef STALL_RESTART
       ttl_age = 0; /* the TTL afresh */
#else
       skip;        /* shifted: the TTL did not run during the stall */
#endif
       trace(4, stall_len)
     }
  /* a leader change: a keepalive at the old leader is lost with it */
  :: atomic { term < MAXTERM ->
       term++;
       in_has = false;
       deferred = false;
       stalled = false;
       if
       :: exp_in_log -> skip              /* replicated, commits with the new leader's entry */
       :: exp_in_log -> exp_in_log = false /* lost with the old leader */
       :: else -> skip
       fi;
       own_applied = false;
       proposed = false;
       if
       :: knows_end = exp_committed
       :: knows_end = false               /* apply lag */
       fi;
       ttl_age = 0; bound_age = 0;
       trace(5, 0)
     }
  od
}

active proctype Network() {
  do
  :: atomic { net_has && !in_has -> net_has = false; in_has = true; in_age = net_age }
  :: atomic { net_has -> net_has = false }                          /* lost */
  :: atomic { net_has && !in_has && !dup_used -> in_has = true; in_age = net_age; dup_used = true }
  :: atomic { rep_has -> rep_has = false }                          /* an answer lost */
  od
}

#ifdef TRACE
/* a run pauses the client at one of a few times (random runs would otherwise pause it at once) */
int c_pause_at;
active proctype Client() {
  if
  :: c_pause_at = 8
  :: c_pause_at = 24
  :: c_pause_at = 48
  :: c_pause_at = 10000
  fi;
  do
  /* the sender resends the outstanding call */
  :: atomic { c_alive && !c_lost && c_call && !net_has && !c_sent ->
       net_has = true; net_age = c_call_age; c_sent = true }
  :: atomic { c_alive && now_t >= c_pause_at -> c_alive = false; ctrace(4) }
  :: atomic { rep_has -> rep_has = false;
       if
       :: !c_call || rep_age != c_call_age -> skip  /* an earlier call's: its request is over */
       :: else ->
          c_call = false;
          if
          :: c_lost -> skip
          :: rep_kind == GONE -> c_lost = true
          :: rep_kind == OK && rep_age <= CLIENT_MAX && CLIENT_MAX - rep_age > c_left ->
             c_left = CLIENT_MAX - rep_age
          :: else -> skip
          fi;
          if :: rep_kind == OK -> ctrace(2) :: else -> ctrace(3) fi;
          call_if_due()
       fi
     }
  od
}
#else
active proctype Client() {
  do
  :: atomic { c_alive && !c_lost && !net_has && !c_sent -> net_has = true; net_age = 0; c_sent = true }
  :: atomic { c_alive -> c_alive = false }   /* the process dies, or pauses for good */
  :: atomic { rep_has -> rep_has = false;
       if
       :: c_lost -> skip                       /* a lost session is not revived */
       :: rep_kind == GONE -> c_lost = true
       :: rep_kind == OK && rep_age <= CLIENT_MAX && CLIENT_MAX - rep_age > c_left ->
          c_left = CLIENT_MAX - rep_age
       :: else -> skip
       fi
     }
  od
}
#endif
