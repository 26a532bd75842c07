/* A game-like TCP workload for tests/netns/tcp_lab.sh.
 *
 *   tcp_workload server PORT [options]     accepts one connection
 *   tcp_workload client IP PORT [options]  connects to it
 *
 * Each side sends small messages (MIN..MAX bytes, 2-byte length prefix
 * included) at HZ messages per second plus, every BURST_MS on average, one
 * BURST-byte write, and reads whatever the peer sends. Defaults: the client
 * sends at 30 Hz, the server at 60 Hz. After DURATION seconds the client
 * half-closes; the server, on end of stream, stops its own stream and
 * half-closes too; both drain to end of stream and close. Each side prints
 * one JSON line with what it sent and received and TCP_INFO taken just before
 * close (the kernel's per-socket view, e.g. total_retrans).
 *
 * Before closing, each side waits until everything it sent, FIN included, is
 * acknowledged (SIOCOUTQ = 0), so no socket is orphaned with data in flight
 * (orphans are killed after tcp_orphan_retries under heavy loss).
 *
 * Options: --hz N --min N --max N --burst N --burst-ms N --duration S
 *          --nodelay 0|1 --seed N --timeout S (whole run; default
 *          duration + 120 s; SIGALRM ends the process when exceeded)
 *          --cc NAME (TCP_CONGESTION on this end's socket, e.g. cubic, bbr;
 *          the JSON's "cc" is what the socket used)
 *          --read-log FILE (one line per read that returned data:
 *          "CLOCK_REALTIME_NS TOTAL_BYTES_READ", the application's own record
 *          of when each byte reached it; CLOCK_REALTIME is the clock of the
 *          captures' timestamps)
 * Exit status 0 only if the byte stream the peer announced was received in
 * full and intact (every message's length prefix and fill pattern checked).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h> /* the kernel's struct tcp_info, newer than glibc's */
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng_state = 88172645463325252ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

struct opts {
  double hz, duration;
  int min, max, burst, burst_ms, nodelay;
  double timeout;
};

/* Receiver state: messages are [u16 length (total, incl. prefix)][fill],
 * fill byte i of message k is (k + i) & 0xff. */
struct rx {
  uint64_t bytes, messages, errors;
  unsigned char hdr[2];
  int hdr_have;
  uint32_t remain, pos;
};

static void rx_feed(struct rx* r, const unsigned char* p, size_t n) {
  r->bytes += n;
  while (n) {
    if (r->remain == 0) {
      r->hdr[r->hdr_have++] = *p++;
      n--;
      if (r->hdr_have == 2) {
        uint32_t len = (uint32_t)r->hdr[0] << 8 | r->hdr[1];
        if (len < 2) {
          r->errors++;
          len = 2;
        }
        r->remain = len - 2;
        r->pos = 0;
        r->hdr_have = 0;
        if (r->remain == 0) r->messages++;
      }
      continue;
    }
    if (*p != (unsigned char)((r->messages + r->pos) & 0xff)) r->errors++;
    p++;
    n--;
    r->pos++;
    if (--r->remain == 0) r->messages++;
  }
}

static int write_all(int fd, const unsigned char* p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* TCP_CONGESTION before connect/listen, so the handshake already uses it. */
static int set_cc(int fd, const char* cc) {
  if (!cc) return 0;
  if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) == 0) return 0;
  fprintf(stderr, "tcp_workload: congestion control %s: %s\n", cc, strerror(errno));
  return 1;
}

static int64_t realtime_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void usage(void) {
  fprintf(stderr,
          "usage: tcp_workload server PORT [opts] | client IP PORT [opts]\n"
          "opts: --hz N --min N --max N --burst N --burst-ms N --duration S --nodelay 0|1 "
          "--seed N --timeout S --cc NAME --read-log FILE\n");
  exit(2);
}

int main(int argc, char** argv) {
  if (argc < 3) usage();
  int is_server = strcmp(argv[1], "server") == 0;
  if (!is_server && strcmp(argv[1], "client") != 0) usage();
  const char* ip = is_server ? "0.0.0.0" : argv[2];
  int argi = is_server ? 2 : 3;
  if (argi >= argc) usage();
  int port = atoi(argv[argi++]);
  struct opts o = {is_server ? 60 : 30, 15, 20, 200, 4096, is_server ? 3000 : 2000, 1, 0};
  uint64_t seed = is_server ? 2 : 1;
  const char* cc = NULL;
  const char* read_log_path = NULL;
  for (; argi + 1 < argc; argi += 2) {
    const char *k = argv[argi], *v = argv[argi + 1];
    if (!strcmp(k, "--hz"))
      o.hz = atof(v);
    else if (!strcmp(k, "--min"))
      o.min = atoi(v);
    else if (!strcmp(k, "--max"))
      o.max = atoi(v);
    else if (!strcmp(k, "--burst"))
      o.burst = atoi(v);
    else if (!strcmp(k, "--burst-ms"))
      o.burst_ms = atoi(v);
    else if (!strcmp(k, "--duration"))
      o.duration = atof(v);
    else if (!strcmp(k, "--nodelay"))
      o.nodelay = atoi(v);
    else if (!strcmp(k, "--seed"))
      seed = strtoull(v, 0, 10);
    else if (!strcmp(k, "--timeout"))
      o.timeout = atof(v);
    else if (!strcmp(k, "--cc"))
      cc = v;
    else if (!strcmp(k, "--read-log"))
      read_log_path = v;
    else
      usage();
  }
  if (argi != argc) usage();
  if (o.min < 2 || o.max < o.min || o.max > 65535 || o.burst > 65535 || o.hz <= 0) usage();
  FILE* read_log = NULL;
  if (read_log_path && !(read_log = fopen(read_log_path, "w"))) {
    perror(read_log_path);
    return 1;
  }
  alarm((unsigned)(o.timeout > 0 ? o.timeout : o.duration + 120));
  rng_state ^= seed * 0x9E3779B97F4A7C15ull;
  if (!rng_state) rng_state = 1;

  int fd;
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) usage();
  if (is_server) {
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (set_cc(ls, cc)) return 1; /* an accepted socket starts with its listener's */
    if (bind(ls, (struct sockaddr*)&a, sizeof a) || listen(ls, 4)) {
      perror("listen");
      return 1;
    }
    fd = accept(ls, 0, 0);
    if (fd < 0) {
      perror("accept");
      return 1;
    }
    close(ls);
  } else {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (set_cc(fd, cc)) return 1;
    if (connect(fd, (struct sockaddr*)&a, sizeof a)) {
      perror("connect");
      return 1;
    }
  }
  int nd = o.nodelay ? 1 : 0;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nd, sizeof nd);

  unsigned char buf[65536];
  struct rx rx = {0};
  uint64_t tx_bytes = 0, tx_messages = 0, tx_bursts = 0;
  double t0 = now_s(), period = 1.0 / o.hz;
  double next_msg = t0, next_burst = t0 + (o.burst_ms / 1000.0) * (0.5 + (rnd() % 1000) / 1000.0);
  int sending = 1, peer_eof = 0;

  while (!peer_eof) {
    double t = now_s();
    if (sending && !is_server && t - t0 >= o.duration) {
      shutdown(fd, SHUT_WR);
      sending = 0;
    }
    if (sending && t >= next_msg) {
      int n = o.min + (int)(rnd() % (uint32_t)(o.max - o.min + 1));
      int is_burst = o.burst > 0 && t >= next_burst;
      if (is_burst) {
        n = o.burst;
        next_burst = t + (o.burst_ms / 1000.0) * (0.5 + (rnd() % 1000) / 1000.0);
        tx_bursts++;
      }
      buf[0] = (unsigned char)(n >> 8);
      buf[1] = (unsigned char)n;
      for (int i = 2; i < n; i++) buf[i] = (unsigned char)((tx_messages + (uint64_t)(i - 2)) & 0xff);
      if (write_all(fd, buf, (size_t)n)) {
        perror("write");
        return 1;
      }
      tx_bytes += (uint64_t)n;
      tx_messages++;
      next_msg += period;
      if (next_msg < t) next_msg = t + period; /* fell behind (blocked write): skip ticks */
    }
    int timeout = -1;
    if (sending) {
      double wait = next_msg - now_s();
      if (!is_server && t0 + o.duration - now_s() < wait) wait = t0 + o.duration - now_s();
      timeout = wait > 0 ? (int)(wait * 1000) + 1 : 0;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int pr = poll(&p, 1, timeout);
    if (pr < 0 && errno != EINTR) {
      perror("poll");
      return 1;
    }
    if (pr > 0) {
      ssize_t r = read(fd, buf, sizeof buf);
      if (r < 0 && errno != EINTR) {
        perror("read");
        return 1;
      }
      if (r == 0) {
        peer_eof = 1;
        if (sending) {
          shutdown(fd, SHUT_WR);
          sending = 0;
        }
      } else if (r > 0) {
        const int64_t read_ns = realtime_ns();
        rx_feed(&rx, buf, (size_t)r);
        if (read_log) fprintf(read_log, "%lld %llu\n", (long long)read_ns, (unsigned long long)rx.bytes);
      }
    }
  }
  /* Both directions are closed; wait until our data and FIN are acked. */
  for (;;) {
    int outq = 0;
    if (ioctl(fd, SIOCOUTQ, &outq) < 0 || outq == 0) break;
    usleep(5000);
  }
  struct tcp_info ti;
  socklen_t tl = sizeof ti;
  memset(&ti, 0, sizeof ti);
  getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &tl);
  char used_cc[32] = "";
  socklen_t ccl = sizeof used_cc - 1;
  getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, used_cc, &ccl);
  printf(
      "{\"role\":\"%s\",\"nodelay\":%d,\"duration_s\":%.3f,\"tx_bytes\":%llu,"
      "\"tx_messages\":%llu,\"tx_bursts\":%llu,\"rx_bytes\":%llu,\"rx_messages\":%llu,"
      "\"rx_errors\":%llu,\"tcpi_total_retrans\":%u,\"tcpi_retrans\":%u,\"tcpi_lost\":%u,"
      "\"tcpi_rtt_us\":%u,\"tcpi_rttvar_us\":%u,\"tcpi_rto_us\":%u,\"tcpi_snd_mss\":%u,"
      "\"tcpi_data_segs_out\":%u,\"tcpi_segs_out\":%u,\"tcpi_segs_in\":%u,"
      "\"tcpi_bytes_retrans\":%llu,\"tcpi_dsack_dups\":%u,\"tcpi_reord_seen\":%u,"
      "\"tcpi_rcv_ooopack\":%u,\"tcpi_options\":%u,\"cc\":\"%s\"}\n",
      is_server ? "server" : "client", o.nodelay, now_s() - t0, (unsigned long long)tx_bytes,
      (unsigned long long)tx_messages, (unsigned long long)tx_bursts, (unsigned long long)rx.bytes,
      (unsigned long long)rx.messages, (unsigned long long)rx.errors, ti.tcpi_total_retrans, ti.tcpi_retrans,
      ti.tcpi_lost, ti.tcpi_rtt, ti.tcpi_rttvar, ti.tcpi_rto, ti.tcpi_snd_mss, ti.tcpi_data_segs_out,
      ti.tcpi_segs_out, ti.tcpi_segs_in, (unsigned long long)ti.tcpi_bytes_retrans, ti.tcpi_dsack_dups,
      ti.tcpi_reord_seen, ti.tcpi_rcv_ooopack, (unsigned)ti.tcpi_options, used_cc);
  fflush(stdout);
  if (read_log && fclose(read_log)) {
    perror(read_log_path);
    return 1;
  }
  close(fd);
  return (rx.errors || rx.hdr_have || rx.remain) ? 3 : 0;
}
