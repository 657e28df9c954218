/*
 * restore.pml — backup and restore with the token epoch (docs/spec.md "Tokens", node/lock/
 * restore.ts, node/lock/tokens.ts).
 *
 * What it abstracts
 *  - A cluster as (epoch, applied index). Each entry either opens a session (its id is
 *    tokenFor(epoch, index)) or grants a lock (its token is tokenFor(epoch, index)); here
 *    tokenFor(e, i) = e * IDX + i.
 *  - A backup records a running cluster's (epoch, index). A restore starts a new cluster at
 *    the backup's index with chooseRestoreEpoch: the backup's epoch + 1, or --epoch N when
 *    that is higher (a lower N is refused). Every cluster, the old ones too, may go on
 *    running after a backup or a restore.
 *  - The operator follows the rule the restore prints: restoring a backup a second time, or a
 *    backup older than an epoch already used, is given --epoch above every epoch used.
 *
 * Bounds: at most 3 clusters (the first and 2 restores), 2 backups, indexes up to IDX - 1 = 3.
 *
 * Property (a flag the Monitor asserts in every state)
 *  - ids_unique: no token and no session id is issued twice, across every cluster.
 *
 * Mutant
 *  - SESSION_ID_NO_EPOCH: session ids are the bare index, without the epoch (reused after a
 *    restore; fails ids_unique).
 */

#define IDX 4
#define MAXC 3
#define MAXB 2
#define MAXE 3

byte nc = 1;                 /* clusters started */
byte epoch[MAXC];
byte index[MAXC];
byte nb = 0;                 /* backups taken */
byte b_epoch[MAXB];
byte b_index[MAXB];
bool b_restored[MAXB];
byte max_epoch = 0;          /* the highest epoch used so far */
bool tok_used[MAXE * IDX + IDX];
bool sid_used[MAXE * IDX + IDX];
bool repeat = false;

bool ids_unique = true;

active proctype Monitor() {
  atomic { repeat -> ids_unique = false; assert(ids_unique) }
}

inline issue(c) {
  index[c]++;
  if
  :: id = epoch[c] * IDX + index[c];              /* a grant's token */
     repeat = repeat || tok_used[id]; tok_used[id] = true
  :: 
#ifdef SESSION_ID_NO_EPOCH
     id = index[c];
#else
     id = epoch[c] * IDX + index[c];              /* an OpenSession's id */
#endif
     repeat = repeat || sid_used[id]; sid_used[id] = true
  fi
}

active proctype Clusters() {
  byte c, b, e, id;
  do
  /* an entry on any running cluster */
  :: atomic {
       if
       :: index[0] < IDX - 1 -> c = 0
       :: nc > 1 && index[1] < IDX - 1 -> c = 1
       :: nc > 2 && index[2] < IDX - 1 -> c = 2
       fi;
       issue(c); c = 0; id = 0
     }
  /* a backup of any cluster */
  :: atomic {
       nb < MAXB ->
       if :: c = 0 :: nc > 1 -> c = 1 :: nc > 2 -> c = 2 fi;
       b_epoch[nb] = epoch[c]; b_index[nb] = index[c]; nb++; c = 0
     }
  /* a restore of any backup into a new cluster */
  :: atomic {
       nc < MAXC && nb > 0 ->
       if :: b = 0 :: nb > 1 -> b = 1 fi;
       if
       :: !b_restored[b] && b_epoch[b] == max_epoch -> e = b_epoch[b] + 1   /* no --epoch */
       :: e = max_epoch + 1                    /* --epoch above every epoch used */
       fi;
       b_restored[b] = true;
       epoch[nc] = e; index[nc] = b_index[b];
       if :: e > max_epoch -> max_epoch = e :: else -> skip fi;
       nc++; b = 0; e = 0
     }
  od
}
