/*
 * fence.pml — a fenced resource's read-modify-write in exclusive, shared and upgradeable modes
 * (docs/fencing.md, client/fence/http.ts and kv-fence.ts).
 *
 * What it abstracts
 *  - The lock service as a grant order: each grant takes the next token; an exclusive grant
 *    is made only while nobody holds, a shared one while no exclusive holder, an upgradeable
 *    one while no exclusive or upgradeable holder; an upgrade is a new (exclusive) grant once
 *    the other readers are gone. Any grant may end at any moment (its session expired): its
 *    client does not know and, paused, goes on with its token.
 *  - The resource: a counter under the HTTP fence (fenceMiddleware): admission compares the
 *    token with two marks (highest token of any mode, highest exclusive token), records it,
 *    and holds the resource's key until the handler ends; a handler reads, then writes
 *    read + 1. A write that claims shared mode is refused whatever its token. The KV and SQL
 *    fences make the same comparison in one atomic step with the effect.
 *  - Clients, one round each: two exclusive writers (W1, W2: acquire, read-modify-write,
 *    release), a reader R (acquire shared, read, release) and an upgradeable client U
 *    (acquire upgradeable, read as shared, upgrade, read-modify-write, release). A client may
 *    disconnect while its handler runs; a stale exclusive writer may label its write shared.
 *
 * Bounds: four clients, one round each; tokens up to 6.
 *
 * Properties (one name each: a flag the Monitor asserts in every state)
 *  - no_lost_write: a write never overwrites a value other than the one its handler read (no
 *    acknowledged fenced write is lost).
 *  - fence_order: no access is admitted after an access of a later grant that it conflicts with
 *    (a read after a later exclusive access, a write after any later access); computed from
 *    the grants, not from the fence's marks.
 *
 * Mutants
 *  - HTTP_FREE_ON_DISCONNECT: the HTTP fence frees the key when the client disconnects, not when
 *    the handler ends (fails no_lost_write).
 *  - SHARED_AFTER_EXCL: a shared read is admitted although a higher exclusive token was
 *    admitted (the shared check ignores the exclusive mark; fails fence_order).
 *  - TRUST_MODE: the fence trusts the caller's mode: a write labelled shared meets only the
 *    exclusive mark (fails fence_order).
 */

mtype = { SHARED, EXCL };

byte idx = 0;             /* grant order: the last token given */
byte ex_holder = 0;       /* client holding exclusive (0 none) */
byte upg_holder = 0;      /* client holding upgradeable */
byte nshared = 0;         /* shared holders (upgradeable counts as one) */
/* the resource and its fence */
byte val = 0;
byte hi_any = 0;
byte hi_ex = 0;
bool busy = false;        /* the HTTP fence holds the key for a handler */
/* ghosts: the highest tokens admitted, from the grants */
byte g_any = 0;
byte g_ex = 0;
bool lost = false;
bool misordered = false;

bool no_lost_write = true;
bool fence_order = true;

active proctype Monitor() {
  atomic {
    if
    :: lost -> no_lost_write = false; assert(no_lost_write)
    :: misordered -> fence_order = false; assert(fence_order)
    fi
  }
}

/* Admission by the fence, atomic with recording the token. ok: admitted. */
inline admit(t, m, write, ok) {
  if
  :: write && m == SHARED ->
#ifdef TRUST_MODE
     ok = (t >= hi_ex)
#else
     ok = false                  /* a write claiming shared: 403 */
#endif
  :: !(write && m == SHARED) && m == SHARED ->
#ifdef SHARED_AFTER_EXCL
     ok = true
#else
     ok = (t >= hi_ex)
#endif
  :: m == EXCL -> ok = (t >= hi_any)
  fi;
  if
  :: ok ->
     misordered = misordered || (write && t < g_any) || (t < g_ex);
     if :: t > hi_any -> hi_any = t :: else -> skip fi;
     if :: m == EXCL && t > hi_ex -> hi_ex = t :: else -> skip fi;
     if :: t > g_any -> g_any = t :: else -> skip fi;
     if :: (m == EXCL || write) && t > g_ex -> g_ex = t :: else -> skip fi
  :: else -> skip
  fi
}

/* A read-modify-write through the HTTP fence with token t, claiming mode m. */
inline rmw(t, m) {
  atomic { !busy -> admit(t, m, true, ok); if :: ok -> busy = true :: else -> skip fi }
  if
  :: ok ->
     freed = false;
#ifdef HTTP_FREE_ON_DISCONNECT
     if :: atomic { busy = false; freed = true } :: skip fi;   /* the client disconnected */
#endif
     seen = val;                                              /* the handler reads */
     atomic { lost = lost || val != seen; val = seen + 1; if :: !freed -> busy = false :: else -> skip fi }
  :: else -> skip
  fi
}

/* A read through the HTTP fence (ok: the caller's local). */
inline fenced_read(t, m) {
  atomic { !busy -> admit(t, m, false, ok) }
}

proctype Writer(byte me) {
  byte t, seen; bool ok, freed;
  atomic { ex_holder == 0 && upg_holder == 0 && nshared == 0 -> idx++; t = idx; ex_holder = me }
  if :: atomic { ex_holder == me -> ex_holder = 0 } :: skip fi;   /* the grant may end, unseen */
#ifdef TRUST_MODE
  if :: rmw(t, EXCL) :: rmw(t, SHARED) fi                        /* a stale writer's label */
#else
  rmw(t, EXCL);
#endif
  atomic { if :: ex_holder == me -> ex_holder = 0 :: else -> skip fi }
}

proctype Reader(byte me) {
  byte t, seen; bool ok, freed, held = true;
  atomic { ex_holder == 0 -> idx++; t = idx; nshared++ }
  if :: atomic { held = false; nshared-- } :: skip fi;
  fenced_read(t, SHARED);
  atomic { if :: held -> nshared-- :: else -> skip fi }
}

proctype Upgrader(byte me) {
  byte t, seen; bool ok, freed, held = true;
  atomic { ex_holder == 0 && upg_holder == 0 -> idx++; t = idx; upg_holder = me; nshared++ }
  if :: atomic { held = false; upg_holder = 0; nshared-- } :: skip fi;
  fenced_read(t, SHARED);
  if
  :: atomic { held && nshared == 1 -> idx++; t = idx; nshared--; upg_holder = 0; ex_holder = me }
     if :: atomic { ex_holder == me -> ex_holder = 0 } :: skip fi;
     rmw(t, EXCL);
     atomic { if :: ex_holder == me -> ex_holder = 0 :: else -> skip fi }
  :: atomic { !held -> skip }   /* lost before upgrading: nothing to write with */
  :: atomic { held -> held = false; upg_holder = 0; nshared-- } /* gives up */
  fi
}

init {
  atomic { run Writer(1); run Writer(2); run Reader(3); run Upgrader(4) }
}
