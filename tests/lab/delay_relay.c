/* delay_relay IFACE_A IFACE_B DELAY_MS: network delay without netem.
 *
 * Run in the lab's router namespace (ip_forward off, no addresses on the two
 * interfaces). It reads every frame arriving on IFACE_A (AF_PACKET), holds it
 * for DELAY_MS and writes it unchanged out of IFACE_B, and the same from B to
 * A: a delaying Ethernet bridge. ARP goes through it too, so the end hosts
 * see each other's MACs and nothing is rewritten. Because the frames are
 * delayed in the network, every stack gets real path delay, TCP's ACKs
 * included (a user-space delay in a TCP endpoint would not delay those).
 *
 * Loss stays in nftables: AF_PACKET sends go through dev_queue_xmit, so a
 * netdev egress hook on the output interface drops the relay's copy after
 * the sender's capture saw the frame.
 *
 * Each direction is a FIFO of fixed delay. On SIGINT/SIGTERM it prints one
 * JSON line: frames relayed per direction, frames still held (never sent;
 * all, and the IPv4 ones),
 * frames dropped because the queue was full or too big, send errors.
 * Exit status 2 on bad arguments, 1 on a socket error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 8192
#define FRAME_MAX 2048

struct slot {
  int64_t due_ns;
  uint16_t len;
  unsigned char data[FRAME_MAX];
};

struct way {
  int in, out;         /* sockets: read from in, write to out */
  struct slot* q;      /* ring */
  unsigned head, tail; /* head: next to send; tail: next free */
  uint64_t relayed, overflow, too_big, send_errors;
};

static volatile sig_atomic_t stop;
static void on_signal(int sig) { stop = sig; }

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int open_iface(const char* name) {
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
  if (fd < 0) return -1;
  struct sockaddr_ll a = {0};
  a.sll_family = AF_PACKET;
  a.sll_protocol = htons(ETH_P_ALL);
  a.sll_ifindex = (int)if_nametoindex(name);
  if (!a.sll_ifindex || bind(fd, (struct sockaddr*)&a, sizeof a)) return -1;
  int one = 1, buf = 8 << 20;
  /* Our own sends would come back as PACKET_OUTGOING copies otherwise. */
  if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one)) return -1;
  struct packet_mreq m = {.mr_ifindex = a.sll_ifindex, .mr_type = PACKET_MR_PROMISC};
  setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &m, sizeof m);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf);
  setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof buf);
  return fd;
}

/* Everything waiting on w->in, queued with its due time. */
static void drain_input(struct way* w, int64_t delay_ns) {
  unsigned char buf[65536];
  for (;;) {
    ssize_t n = recv(w->in, buf, sizeof buf, 0);
    if (n < 0) return; /* EAGAIN (or an error we cannot act on) */
    int64_t t = now_ns();
    if (n > FRAME_MAX) {
      w->too_big++;
      continue;
    }
    if (w->tail - w->head >= SLOTS) {
      w->overflow++;
      continue;
    }
    struct slot* s = &w->q[w->tail % SLOTS];
    s->due_ns = t + delay_ns;
    s->len = (uint16_t)n;
    memcpy(s->data, buf, (size_t)n);
    w->tail++;
  }
}

/* Held frames that are IPv4 (ethertype 0x0800): what the lab's counts are about. */
static unsigned held_ipv4(const struct way* w) {
  unsigned n = 0;
  for (unsigned i = w->head; i != w->tail; i++) {
    const struct slot* s = &w->q[i % SLOTS];
    n += s->len >= 14 && s->data[12] == 0x08 && s->data[13] == 0x00;
  }
  return n;
}

/* Sends what is due; returns the due time of the next held frame, or -1. */
static int64_t send_due(struct way* w) {
  int64_t t = now_ns();
  while (w->head != w->tail) {
    struct slot* s = &w->q[w->head % SLOTS];
    if (s->due_ns > t) return s->due_ns;
    if (send(w->out, s->data, s->len, 0) == (ssize_t)s->len)
      w->relayed++;
    else
      w->send_errors++;
    w->head++;
  }
  return -1;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: delay_relay IFACE_A IFACE_B DELAY_MS\n");
    return 2;
  }
  double delay_ms = atof(argv[3]);
  if (delay_ms < 0 || delay_ms > 10000) {
    fprintf(stderr, "delay_relay: delay %s ms out of range 0-10000\n", argv[3]);
    return 2;
  }
  int a = open_iface(argv[1]), b = open_iface(argv[2]);
  if (a < 0 || b < 0) {
    fprintf(stderr, "delay_relay: %s: %s\n", a < 0 ? argv[1] : argv[2], strerror(errno));
    return 1;
  }
  struct way ways[2] = {{.in = a, .out = b}, {.in = b, .out = a}};
  ways[0].q = calloc(SLOTS, sizeof(struct slot));
  ways[1].q = calloc(SLOTS, sizeof(struct slot));
  if (!ways[0].q || !ways[1].q) return 1;
  struct sigaction sa = {.sa_handler = on_signal};
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  const int64_t delay_ns = (int64_t)(delay_ms * 1e6);
  fprintf(stderr, "delay_relay: %s <-> %s, %.3f ms each way\n", argv[1], argv[2], delay_ms);

  while (!stop) {
    int64_t next = -1;
    for (int i = 0; i < 2; i++) {
      int64_t d = send_due(&ways[i]);
      if (d >= 0 && (next < 0 || d < next)) next = d;
    }
    struct pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
    struct timespec ts, *tp = NULL;
    if (next >= 0) {
      int64_t wait = next - now_ns();
      if (wait < 0) wait = 0;
      ts.tv_sec = wait / 1000000000;
      ts.tv_nsec = wait % 1000000000;
      tp = &ts;
    }
    if (ppoll(p, 2, tp, NULL) < 0 && errno != EINTR) {
      perror("delay_relay: ppoll");
      return 1;
    }
    drain_input(&ways[0], delay_ns);
    drain_input(&ways[1], delay_ns);
  }
  printf(
      "{\"delay_ms\":%.3f,\"a\":\"%s\",\"b\":\"%s\",\"a_to_b\":%llu,\"b_to_a\":%llu,\"held_at_exit\":%u,"
      "\"held_ipv4_at_exit\":%u,"
      "\"overflow\":%llu,\"too_big\":%llu,\"send_errors\":%llu}\n",
      delay_ms, argv[1], argv[2], (unsigned long long)ways[0].relayed, (unsigned long long)ways[1].relayed,
      (ways[0].tail - ways[0].head) + (ways[1].tail - ways[1].head),
      held_ipv4(&ways[0]) + held_ipv4(&ways[1]), (unsigned long long)(ways[0].overflow + ways[1].overflow),
      (unsigned long long)(ways[0].too_big + ways[1].too_big),
      (unsigned long long)(ways[0].send_errors + ways[1].send_errors));
  return 0;
}
