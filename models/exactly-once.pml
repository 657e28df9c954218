/*
 * exactly-once.pml — writes with unknown outcomes, retried by seq (docs/spec.md "Exactly-once").
 *
 * What it abstracts
 *  - Two sessions (ids 1 and 2, opened by entries 1 and 2) and one exclusive lock "L". Each
 *    client makes NSEQ numbered writes in turn: Acquire (wait 0) when it holds nothing, else
 *    Release with its token. A write is in flight until its answer arrives; one at a time per
 *    session, so its acknowledged-up-to mark is seq - 1 and its held list is empty.
 *  - The network loses a request, duplicates it (at most 2 copies in flight per seq) and
 *    delays it past later writes (any copy may be applied at any later point). An answer is
 *    delivered or lost; a client whose answer is lost retries the same seq.
 *  - The state machine (node/lock/state-machine.ts admit/keep/numberedWrite): each applied copy
 *    is a log entry; the mark it carries raises the session's mark and drops kept answers at or
 *    below it; a seq at or below the mark is "request too old"; a kept answer answers a retry;
 *    a new seq is decided and its answer kept. A grant's token is its entry's index.
 *
 * Bounds: 2 sessions, NSEQ 3 writes each, a write sent at most MAXSENDS 2 times (first try and
 * retries), 2 copies of it in flight at once.
 *
 * Properties (one name each: a flag the Monitor asserts in every state)
 *  - mutex: at every log point the lock has at most one holder.
 *  - at_most_once: no write is decided (takes effect) more than once.
 *  - first_answer: every answer a client takes for a seq is the first answer decided for it.
 *  - no_orphan: once the clients are done and nothing is in flight, the log holds the lock for
 *    a session exactly when its client believes it does.
 *
 * Mutants
 *  - RELEASE_COUNTED: a Release whose answer did not come is counted as answered (the client
 *    moves on as if released; fails no_orphan).
 *  - NO_DEDUP: the state machine decides a retry afresh instead of answering the kept answer
 *    (fails at_most_once).
 *
 * Trace mode (for the conformance replay, scripts/model/conformance.ts): `spin -n<seed>` prints
 * one APPLY line per entry with the command and the model's abstract state after it; the replay
 * runs it with -DTRACE -DNSEQ=3 -DMAXSENDS=5 (NSEQ is at most 3; TRACE makes losses rarer).
 */

#ifndef NSEQ
#define NSEQ 3
#endif
#ifndef MAXSENDS
#define MAXSENDS 2
#endif
#define SLOT(s, k) ((s) * 4 + (k))

mtype = { ACQ, REL };
/* answer codes (ans = code * 256 + token) */
#define GRANTED 1
#define NOTACQ 2
#define RELEASED 3
#define NOT_HOLDER 4
#define STALE 5
#define TOO_OLD 6

byte idx = 2;               /* entries 1 and 2 opened the sessions */
bool h[2];                  /* the lock's holder */
byte tok = 0;               /* the current grant's token */
byte mark[2];               /* the session's mark */
byte kept[2];               /* bit k: the answer to seq k is kept */
short first[8];             /* first answer decided per (session, seq) */
byte effects[8];
byte cp[8];                 /* copies in flight */
byte sends[8];              /* copies sent (at most MAXSENDS) */
mtype op[8];
byte rtok[8];               /* the token a Release carries */
byte inflight = 0;
/* the clients */
byte cur[2];
bool answered[2];
short resp[2];
bool holding[2];
byte c_tok[2];
bool done[2];

bool mutex = true;
bool at_most_once = true;
bool first_answer = true;
bool no_orphan = true;
bool bad_answer = false;

active proctype Monitor() {
  atomic {
    if
    :: h[0] && h[1] -> mutex = false; assert(mutex)
    :: effects[SLOT(0,1)] > 1 || effects[SLOT(0,2)] > 1 || effects[SLOT(0,3)] > 1 ||
       effects[SLOT(1,1)] > 1 || effects[SLOT(1,2)] > 1 || effects[SLOT(1,3)] > 1 ->
       at_most_once = false; assert(at_most_once)
    :: bad_answer -> first_answer = false; assert(first_answer)
    :: done[0] && done[1] && inflight == 0 && (h[0] != holding[0] || h[1] != holding[1]) ->
       no_orphan = false; assert(no_orphan)
    fi
  }
}

inline decide(s, k, a) {
  effects[SLOT(s, k)]++;
  if
  :: op[SLOT(s, k)] == ACQ ->
     if
     :: h[s] -> a = GRANTED * 256 + tok            /* the holder's own grant, not a new one */
     :: !h[s] && h[1 - s] -> a = NOTACQ * 256
     :: !h[0] && !h[1] -> h[s] = true; tok = idx; a = GRANTED * 256 + tok
     fi
  :: else ->
     if
     :: !h[s] -> a = NOT_HOLDER * 256
     :: h[s] && tok != rtok[SLOT(s, k)] -> a = STALE * 256
     :: h[s] && tok == rtok[SLOT(s, k)] -> h[s] = false; tok = 0; a = RELEASED * 256
     fi
  fi;
  if :: first[SLOT(s, k)] == 0 -> first[SLOT(s, k)] = a :: else -> skip fi;
  kept[s] = kept[s] | (1 << k)
}

/* One copy of (s, k) is applied as entry idx + 1, carrying mark k - 1. */
inline apply(s, k) {
  cp[SLOT(s, k)]--; inflight--;
  idx++;
  if
  :: k - 1 > mark[s] -> mark[s] = k - 1; kept[s] = kept[s] & ~((1 << k) - 1)
  :: else -> skip
  fi;
  if
  :: k <= mark[s] -> a = TOO_OLD * 256
#ifdef NO_DEDUP
  :: else -> decide(s, k, a)
#else
  :: k > mark[s] && (kept[s] & (1 << k)) -> a = first[SLOT(s, k)]
  :: k > mark[s] && !(kept[s] & (1 << k)) -> decide(s, k, a)
#endif
  fi;
  printf("APPLY idx=%d s=%d op=%d seq=%d mark=%d rtok=%d ans=%d h=%d,%d tok=%d marks=%d,%d kept=%d,%d\n",
         idx, s + 1, op[SLOT(s, k)] == ACQ, k, k - 1, rtok[SLOT(s, k)], a, h[0], h[1], tok,
         mark[0], mark[1], kept[0], kept[1]);
  if
  :: k == cur[s] && !answered[s] ->             /* delivered */
     bad_answer = bad_answer || a != first[SLOT(s, k)];
     answered[s] = true; resp[s] = a
  :: true                                       /* lost, or for a seq the client is done with */
  fi
}

active proctype Cluster() {
  byte s, k; short a;
  do
  :: atomic {
       inflight > 0 ->
       if
       :: cp[SLOT(0,1)] > 0 -> s = 0; k = 1
       :: cp[SLOT(0,2)] > 0 -> s = 0; k = 2
       :: cp[SLOT(0,3)] > 0 -> s = 0; k = 3
       :: cp[SLOT(1,1)] > 0 -> s = 1; k = 1
       :: cp[SLOT(1,2)] > 0 -> s = 1; k = 2
       :: cp[SLOT(1,3)] > 0 -> s = 1; k = 3
       fi;
       if
       :: apply(s, k)
#ifdef TRACE
       :: apply(s, k)                           /* random runs: losses less often */
       :: apply(s, k)
#endif
       :: cp[SLOT(s, k)]--; inflight--          /* the request is lost */
       fi;
       s = 0; k = 0; a = 0
     }
  od
}

proctype Client(byte s) {
  byte k = 1;
  do
  :: k > NSEQ -> break
  :: k <= NSEQ ->
     atomic {
       if
       :: holding[s] -> op[SLOT(s, k)] = REL; rtok[SLOT(s, k)] = c_tok[s]
       :: else -> op[SLOT(s, k)] = ACQ
       fi;
       cur[s] = k; answered[s] = false; cp[SLOT(s, k)]++; sends[SLOT(s, k)]++; inflight++
     }
     do
     :: atomic { answered[s] ->
          if
          :: resp[s] / 256 == GRANTED -> holding[s] = true; c_tok[s] = resp[s] % 256
          :: resp[s] / 256 == RELEASED || resp[s] / 256 == NOT_HOLDER || resp[s] / 256 == STALE ->
             holding[s] = false; c_tok[s] = 0
          :: else -> skip
          fi;
          k++; break }
     :: atomic { !answered[s] && cp[SLOT(s, k)] < 2 && sends[SLOT(s, k)] < MAXSENDS ->
          cp[SLOT(s, k)]++; sends[SLOT(s, k)]++; inflight++ } /* retry */
#ifdef RELEASE_COUNTED
     :: atomic { !answered[s] && op[SLOT(s, k)] == REL -> holding[s] = false; c_tok[s] = 0; k++; break }
#endif
     od
  od;
  done[s] = true
}

init {
  atomic { run Client(0); run Client(1) }
}
