/*
 * nfq-delay: holds every packet that iptables sends to an NFQUEUE for a while, then lets it
 * go. The packet delay of the chaos suite, for kernels built without sch_netem. Run one per
 * network namespace (queues are per namespace), before the NFQUEUE rule is added.
 *
 *   nfq-delay QUEUE DELAY_MS [JITTER_MS]
 *
 * Each packet waits DELAY_MS plus a uniform draw in [-JITTER_MS, +JITTER_MS] (never below
 * zero). Without jitter packets leave in the order they came; with it they may overtake
 * each other, which is the reordering a real network shows. SIGTERM lets every held packet
 * go before exiting, so stopping the delay never turns into loss.
 *
 * Built by chaos/fault/shims.ts: gcc -O2 -o nfq-delay nfq-delay.c -lnetfilter_queue
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

/* More held packets than this are let through at once rather than dropped. */
#define CAPACITY 65536

struct held {
  uint64_t due_us;
  uint64_t arrival; /* ties on due_us leave in arrival order */
  uint32_t id;
};

static struct held heap[CAPACITY];
static int held_count;
static uint64_t arrivals;
static long delay_ms;
static long jitter_ms;
static volatile sig_atomic_t stopping;

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int earlier(const struct held *a, const struct held *b) {
  return a->due_us != b->due_us ? a->due_us < b->due_us : a->arrival < b->arrival;
}

static void swap(int a, int b) {
  struct held t = heap[a];
  heap[a] = heap[b];
  heap[b] = t;
}

static void push(struct held h) {
  int i = held_count++;
  heap[i] = h;
  while (i > 0 && earlier(&heap[i], &heap[(i - 1) / 2])) {
    swap(i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static struct held pop(void) {
  struct held top = heap[0];
  heap[0] = heap[--held_count];
  for (int i = 0;;) {
    int least = i, l = 2 * i + 1, r = l + 1;
    if (l < held_count && earlier(&heap[l], &heap[least])) least = l;
    if (r < held_count && earlier(&heap[r], &heap[least])) least = r;
    if (least == i) break;
    swap(i, least);
    i = least;
  }
  return top;
}

static long draw_delay(void) {
  long d = delay_ms;
  if (jitter_ms > 0) d += random() % (2 * jitter_ms + 1) - jitter_ms;
  return d < 0 ? 0 : d;
}

static int on_packet(struct nfq_q_handle *queue, struct nfgenmsg *msg, struct nfq_data *data, void *unused) {
  (void)msg;
  (void)unused;
  struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(data);
  if (header == NULL) return 0;
  uint32_t id = ntohl(header->packet_id);
  if (held_count == CAPACITY) return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL);
  push((struct held){ .due_us = now_us() + (uint64_t)draw_delay() * 1000u, .arrival = arrivals++, .id = id });
  return 0;
}

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

static void release_due(struct nfq_q_handle *queue, uint64_t until_us) {
  while (held_count > 0 && heap[0].due_us <= until_us) nfq_set_verdict(queue, pop().id, NF_ACCEPT, 0, NULL);
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s QUEUE DELAY_MS [JITTER_MS]\n", argv[0]);
    return 2;
  }
  int queue_num = atoi(argv[1]);
  delay_ms = atol(argv[2]);
  jitter_ms = argc == 4 ? atol(argv[3]) : 0;
  srandom((unsigned)now_us());
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);

  struct nfq_handle *handle = nfq_open();
  if (handle == NULL) { perror("nfq-delay: nfq_open"); return 1; }
  struct nfq_q_handle *queue = nfq_create_queue(handle, (uint16_t)queue_num, on_packet, NULL);
  if (queue == NULL) { perror("nfq-delay: nfq_create_queue"); return 1; }
  /* Only the metadata comes up: the verdict needs the id, not the payload. */
  if (nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0) { perror("nfq-delay: nfq_set_mode"); return 1; }
  nfq_set_queue_maxlen(queue, CAPACITY);

  int fd = nfq_fd(handle);
  static char buffer[65536];
  fprintf(stderr, "nfq-delay: queue %d, %ld ms +-%ld ms\n", queue_num, delay_ms, jitter_ms);
  while (!stopping) {
    int timeout_ms = -1;
    if (held_count > 0) {
      uint64_t now = now_us();
      timeout_ms = heap[0].due_us > now ? (int)((heap[0].due_us - now + 999) / 1000) : 0;
    }
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int ready = poll(&p, 1, timeout_ms);
    if (ready < 0 && errno != EINTR) { perror("nfq-delay: poll"); break; }
    if (ready > 0) {
      ssize_t n = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n > 0) nfq_handle_packet(handle, buffer, (int)n);
    }
    release_due(queue, now_us());
  }
  release_due(queue, UINT64_MAX);
  nfq_destroy_queue(queue);
  nfq_close(handle);
  return 0;
}
