/*
 * handoff.pml — ownership handoff in elections: Resign with a named successor, and withdrawing a
 * candidacy with CancelWait (docs/elections.md, client/elections.ts, node/lock/state-machine.ts).
 *
 * What it abstracts
 *  - One election; three sessions A (1), B (2), C (3). Entries are applied in log order; each
 *    changes the election in one step: Campaign (elected at once if nobody leads, else a FIFO
 *    wait), Resign (to a named successor that is waiting: it leads in the same entry with that
 *    entry's index as token; a successor not waiting is refused and nothing changes; plain:
 *    the next waiter leads), CancelWait (answers "cancelled", "already granted" or "not
 *    acquired"; or is refused by a limit, RESOURCE_EXHAUSTED, which changes nothing).
 *  - The client library: A campaigns and, once leading, aborts its signal before it sends the
 *    Resign (it stops acting first); B and C campaign and may withdraw. A withdrawal retries its
 *    CancelWait until it gets a final answer; a grant that reaches a client after it gave up is
 *    released at once. Answers may be lost (the request is retried; the state machine answers
 *    a retry with the first answer).
 *
 * Bounds: 3 sessions, one campaign each, up to 2 refusals by the limit.
 *
 * Properties (one name each: a flag the Monitor asserts in every state)
 *  - mutex: at every log point the election has at most one leader, and each new leader's
 *    token is above the last.
 *  - no_stale_act: no client acts as leader unless the log says it leads with its token.
 *  - no_orphan: once the clients are done, nobody leads in the log that its client does not
 *    know of (a leader no process acts for, holding the election for as long as its session
 *    lives).
 *
 * Mutant
 *  - CANCEL_REFUSED_FINAL: a CancelWait refused by a limit is taken as final (the candidacy is
 *    taken as withdrawn; fails no_orphan).
 */

#define N 3
#define NONE 255

byte idx = 3;                /* entries 1..3 opened the sessions */
byte leader = NONE;          /* session index leading, NONE: nobody */
byte ltoken = 0;
byte last_token = 0;
byte queue[N];               /* FIFO of waiting sessions */
byte qlen = 0;
byte refusals = 0;
/* the clients */
bool acting[N];              /* the client acts as leader */
byte c_token[N];
bool c_done[N];
bool two_leaders = false;
bool stale = false;

bool mutex = true;
bool no_stale_act = true;
bool no_orphan = true;

active proctype Monitor() {
  atomic {
    if
    :: two_leaders -> mutex = false; assert(mutex)
    :: stale -> no_stale_act = false; assert(no_stale_act)
    :: c_done[0] && c_done[1] && c_done[2] && leader != NONE && !acting[leader] ->
       no_orphan = false; assert(no_orphan)
    fi
  }
}

inline lead(s) {
  two_leaders = two_leaders || idx <= last_token;
  leader = s; ltoken = idx; last_token = idx
}

inline dequeue(s) {
  i = 0; found = false;
  do
  :: i < qlen && queue[i] == s -> found = true; break
  :: i < qlen && queue[i] != s -> i++
  :: i >= qlen -> break
  od;
  if
  :: found ->
     do :: i + 1 < qlen -> queue[i] = queue[i + 1]; i++ :: else -> break od;
     qlen--
  :: else -> skip
  fi
}

#define acts_stale(s) (acting[s] && !(leader == s && ltoken == c_token[s]))
inline check_stale() {
  stale = stale || acts_stale(0) || acts_stale(1) || acts_stale(2)
}

/* Entries, applied in log order (atomic: one entry at a time). */
inline campaign(s) {
  idx++;
  if
  :: leader == NONE -> lead(s)
  :: else -> queue[qlen] = s; qlen++
  fi
}

inline resign(s, to, ok) {
  idx++;
  ok = false;
  if
  :: leader == s && to != NONE ->
     dequeue(to);
     if :: found -> lead(to); ok = true :: else -> skip fi   /* not waiting: nothing changes */
  :: leader == s && to == NONE ->
     ok = true;
     if
     :: qlen > 0 -> t = queue[0]; dequeue(t); lead(t)
     :: else -> leader = NONE
     fi
  :: else -> ok = true     /* a retry after it applied: the first answer */
  fi
}

/* CancelWait: 0 cancelled, 1 already granted, 2 refused by the limit */
inline cancel(s, ans) {
  if
  :: refusals < 2 -> refusals++; ans = 2
  :: true ->
     dequeue(s);
     if :: found -> ans = 0 :: else -> ans = 1 fi
  fi
}

proctype Holder() {
  byte i, t, to; bool found, ok;
  atomic { campaign(0); check_stale() }
  atomic { leader == 0 -> acting[0] = true; c_token[0] = ltoken; check_stale() }
  /* the signal aborts before the Resign is sent */
  atomic { acting[0] = false }
  if :: to = 1 :: to = 2 :: to = NONE fi;
  do
  :: atomic { resign(0, to, ok); check_stale() }
     if
     :: ok -> break
     :: !ok -> to = NONE    /* the successor was not waiting: resign plainly */
     fi
  od;
  c_done[0] = true
}

proctype Candidate(byte s) {
  byte i, t, ans; bool found, ok;
  atomic { campaign(s); check_stale() }
  if
  :: atomic { leader == s && ltoken > c_token[s] -> acting[s] = true; c_token[s] = ltoken; check_stale() }
     /* it leads until the end of the run */
  :: /* withdraw */
     do
     :: atomic { cancel(s, ans) }
        if
        :: ans == 0 -> break
        :: ans == 1 ->
           if
           :: atomic { leader == s -> acting[s] = true; c_token[s] = ltoken; check_stale() }
              /* released at once: the caller gave up */
              atomic { acting[s] = false; resign(s, NONE, ok) }
           :: atomic { leader != s -> skip }  /* granted and already ended */
           fi;
           break
        :: ans == 2 ->
#ifdef CANCEL_REFUSED_FINAL
           break
#else
           skip   /* retried */
#endif
        fi
     od
  fi;
  c_done[s] = true
}

init {
  atomic { run Holder(); run Candidate(1); run Candidate(2) }
}
