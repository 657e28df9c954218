/*
 * fsync-fail.so: an LD_PRELOAD shim under which fsync and fdatasync fail with EIO while a
 * trigger file exists, so a test can make a running node's disk fail on demand (touch the
 * file) and recover (remove it).
 *
 *   FSYNC_FAIL_TRIGGER  the trigger file (required: without it nothing ever fails)
 *   FSYNC_FAIL_PREFIX   fail only for files whose path starts with this (e.g. one node's
 *                       data directory); every file when unset or empty
 *
 * Built by chaos/fault/shims.ts: gcc -O2 -shared -fPIC -o fsync-fail.so fsync-fail.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*sync_fn)(int);

static int under_prefix(int fd, const char *prefix) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n < 0) return 0;
  path[n] = '\0';
  return strncmp(path, prefix, strlen(prefix)) == 0;
}

static int failing(int fd) {
  const char *trigger = getenv("FSYNC_FAIL_TRIGGER");
  if (trigger == NULL || *trigger == '\0' || access(trigger, F_OK) != 0) return 0;
  const char *prefix = getenv("FSYNC_FAIL_PREFIX");
  return prefix == NULL || *prefix == '\0' || under_prefix(fd, prefix);
}

static int call_real(const char *name, sync_fn *real, int fd) {
  if (*real == NULL) *real = (sync_fn)dlsym(RTLD_NEXT, name);
  if (*real == NULL) { errno = ENOSYS; return -1; }
  return (*real)(fd);
}

int fsync(int fd) {
  static sync_fn real;
  if (failing(fd)) { errno = EIO; return -1; }
  return call_real("fsync", &real, fd);
}

int fdatasync(int fd) {
  static sync_fn real;
  if (failing(fd)) { errno = EIO; return -1; }
  return call_real("fdatasync", &real, fd);
}
