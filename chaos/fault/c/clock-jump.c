/*
 * clock-jump.so: an LD_PRELOAD shim that moves one process's wall clock by an offset read
 * from a file, which can change while the process runs: an NTP step, on demand. The
 * monotonic clocks are left alone, as a step leaves them.
 *
 *   CLOCK_JUMP_FILE     holds the offset in seconds: "+3600", "-2", "4.5", "0"
 *   CLOCK_JUMP_POLL_MS  how often the file is re-read, at most (default 2)
 *
 * Write the file atomically (a temporary file renamed over it). Faked: clock_gettime of
 * CLOCK_REALTIME, CLOCK_REALTIME_COARSE and CLOCK_TAI, gettimeofday, time.
 *
 * For Redis rather than libfaketime: Debian's redis-server links jemalloc, which reads the
 * clock while libfaketime is still initialising, and the process never starts. So this shim
 * allocates nothing and resolves no symbols: the real clocks come from the raw syscall.
 *
 * Built by chaos/fault/shims.ts: gcc -O2 -shared -fPIC -o clock-jump.so clock-jump.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_S 1000000000LL

static volatile int64_t offset_ns;
static volatile int64_t reread_at_ns;

static int real_clock(clockid_t id, struct timespec *ts) {
  return (int)syscall(SYS_clock_gettime, id, ts);
}

/* "[+-]SECONDS[.FRACTION]" to nanoseconds; anything after the number is ignored. */
static int64_t parse_seconds(const char *s, ssize_t len) {
  ssize_t i = 0;
  int negative = 0;
  int64_t whole = 0, fraction = 0, unit = NS_PER_S;
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  if (i < len && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  while (i < len && s[i] >= '0' && s[i] <= '9') whole = whole * 10 + (s[i++] - '0');
  if (i < len && s[i] == '.') {
    i++;
    while (i < len && s[i] >= '0' && s[i] <= '9' && unit > 1) {
      unit /= 10;
      fraction += (s[i++] - '0') * unit;
    }
  }
  int64_t ns = whole * NS_PER_S + fraction;
  return negative ? -ns : ns;
}

static int64_t current_offset(void) {
  struct timespec mono;
  real_clock(CLOCK_MONOTONIC, &mono);
  int64_t now = (int64_t)mono.tv_sec * NS_PER_S + mono.tv_nsec;
  if (now < reread_at_ns) return offset_ns;
  const char *poll = getenv("CLOCK_JUMP_POLL_MS");
  reread_at_ns = now + (poll != NULL ? atoll(poll) : 2) * 1000000LL;
  const char *path = getenv("CLOCK_JUMP_FILE");
  if (path == NULL) return offset_ns;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return offset_ns;
  char text[64];
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n > 0) offset_ns = parse_seconds(text, n);
  return offset_ns;
}

static void shift(struct timespec *ts) {
  int64_t t = (int64_t)ts->tv_sec * NS_PER_S + ts->tv_nsec + current_offset();
  int64_t sec = t / NS_PER_S, ns = t % NS_PER_S;
  if (ns < 0) { ns += NS_PER_S; sec -= 1; }
  ts->tv_sec = (time_t)sec;
  ts->tv_nsec = (long)ns;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  int r = real_clock(id, ts);
  if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI)) shift(ts);
  return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  (void)tz;
  struct timespec ts;
  real_clock(CLOCK_REALTIME, &ts);
  shift(&ts);
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = ts.tv_nsec / 1000;
  return 0;
}

time_t time(time_t *out) {
  struct timespec ts;
  real_clock(CLOCK_REALTIME, &ts);
  shift(&ts);
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}
