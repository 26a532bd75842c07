/* enet_workload: a game-like ENet client/server pair on Debian's libenet
 * (1.3.17) for rudpscope's tests. See tests/kcp_enet/README.md.
 *
 *   enet_workload server PORT DURATION_S SEED
 *   enet_workload client HOST PORT DURATION_S SEED
 *
 * Both ends send at 30 Hz: every tick an unreliable message on channel 1,
 * every 3rd tick a reliable one on channel 0, every 5th tick an unsequenced
 * one on channel 2 (20..120 bytes), and every 1.5..3 s a 4096-byte reliable
 * message on channel 0 (fragmented by ENet). After DURATION_S the client
 * sends a reliable "bye" on channel 0; both ends stop sending, keep servicing
 * 1.5 s (resends complete), print their counters as one JSON line on stdout,
 * then the client disconnects. packetsSent_final / packetsLost_final are the
 * peer's counters as last seen before the disconnect: the client's just
 * before it calls enet_peer_disconnect, the server's before the disconnect
 * reset its peer.
 *
 * ENet resets peer->packetsSent / packetsLost every 10 s
 * (ENET_PEER_PACKET_LOSS_INTERVAL). To report cumulative counts the program
 * moves peer->packetLossEpoch forward before each enet_host_service call, so
 * that reset never fires (the epoch only feeds the packetLoss statistic,
 * which nothing else in ENet uses).
 */
#include <enet/enet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_MS 33

static unsigned rng_state;
static unsigned rnd(void) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 8) & 0xFFFFFF;
}

static struct {
  unsigned long sent_rel, sent_unrel, sent_unseq, bursts, recv_rel, recv_unrel, recv_unseq, recv_bursts,
      recv_bytes, bad;
} app;

/* The peer's counters as last seen before it was reset by a disconnect. */
static enet_uint32 last_sent, last_lost;
static int frozen;        /* the client's last snapshot is taken just before it disconnects */
static ENetPeer* watched; /* the connected peer, for the snapshot below */

/* Called by ENet for every received datagram before its commands are
 * handled: the snapshot then includes what this enet_host_service call sent
 * before a DISCONNECT it is about to process resets the peer (a PING sent in
 * the call that receives the client's DISCONNECT was once missing). */
static int snapshot_on_receive(ENetHost* host, ENetEvent* event) {
  (void)host;
  (void)event;
  if (watched && !frozen && watched->state == ENET_PEER_STATE_CONNECTED) {
    last_sent = watched->packetsSent;
    last_lost = watched->packetsLost;
  }
  return 0; /* not intercepted: ENet handles the datagram as usual */
}
static enet_uint32 rtt_samples[4096];
static int n_rtt;

static int cmp_u32(const void* a, const void* b) {
  enet_uint32 x = *(const enet_uint32*)a, y = *(const enet_uint32*)b;
  return x < y ? -1 : x > y;
}

static void send_msg(ENetPeer* peer, int channel, enet_uint32 flags, size_t len, unsigned char tag) {
  ENetPacket* p = enet_packet_create(NULL, len, flags);
  memset(p->data, tag, len);
  p->data[0] = tag;
  if (enet_peer_send(peer, (enet_uint8)channel, p) < 0) enet_packet_destroy(p);
}

static void on_receive(ENetEvent* ev, int* bye) {
  ENetPacket* p = ev->packet;
  app.recv_bytes += p->dataLength;
  if (p->dataLength == 3 && memcmp(p->data, "bbb", 3) == 0)
    *bye = 1; /* "bye" */
  else if (ev->channelID == 0 && p->dataLength == 4096)
    app.recv_bursts++;
  else if (ev->channelID == 0)
    app.recv_rel++;
  else if (ev->channelID == 1)
    app.recv_unrel++;
  else if (ev->channelID == 2)
    app.recv_unseq++;
  else
    app.bad++;
  enet_packet_destroy(p);
}

/* Services the host until `until` (enet_time_get), handling events. */
static void service_until(ENetHost* host, ENetPeer** peer, enet_uint32 until, int* bye, int* gone) {
  for (;;) {
    enet_uint32 now = enet_time_get();
    if ((int32_t)(until - now) <= 0) break;
    if (*peer) (*peer)->packetLossEpoch = now ? now : 1;
    if (*peer && !frozen) {
      last_sent = (*peer)->packetsSent;
      last_lost = (*peer)->packetsLost;
    }
    ENetEvent ev;
    int r = enet_host_service(host, &ev, until - now);
    if (*peer && !frozen && !(r > 0 && ev.type == ENET_EVENT_TYPE_DISCONNECT)) {
      last_sent = (*peer)->packetsSent;
      last_lost = (*peer)->packetsLost;
    }
    watched = *peer;
    if (r < 0) {
      fprintf(stderr, "enet_host_service failed\n");
      exit(1);
    }
    if (r == 0) continue;
    switch (ev.type) {
      case ENET_EVENT_TYPE_CONNECT: *peer = watched = ev.peer; break;
      case ENET_EVENT_TYPE_RECEIVE: on_receive(&ev, bye); break;
      case ENET_EVENT_TYPE_DISCONNECT:
        *gone = 1;
        *peer = watched = NULL;
        break;
      default: break;
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: enet_workload server PORT DURATION SEED | client HOST PORT DURATION SEED\n");
    return 2;
  }
  int server = strcmp(argv[1], "server") == 0;
  if (!server && argc < 6) return 2;
  const char* host_name = server ? NULL : argv[2];
  int port = atoi(argv[server ? 2 : 3]);
  int duration = atoi(argv[server ? 3 : 4]);
  rng_state = (unsigned)atoi(argv[server ? 4 : 5]) * 2654435761u + (server ? 7u : 3u);

  if (enet_initialize() != 0) {
    fprintf(stderr, "enet_initialize failed\n");
    return 1;
  }
  ENetAddress addr;
  ENetHost* host;
  ENetPeer* peer = NULL;
  if (server) {
    addr.host = ENET_HOST_ANY;
    addr.port = (enet_uint16)port;
    host = enet_host_create(&addr, 4, 3, 0, 0);
  } else {
    host = enet_host_create(NULL, 1, 3, 0, 0);
  }
  if (!host) {
    fprintf(stderr, "enet_host_create failed\n");
    return 1;
  }
  host->intercept = snapshot_on_receive;
  int bye = 0, gone = 0;
  enet_uint32 start = enet_time_get();
  if (!server) {
    enet_address_set_host(&addr, host_name);
    addr.port = (enet_uint16)port;
    ENetPeer* p = enet_host_connect(host, &addr, 3, 0);
    if (!p) {
      fprintf(stderr, "enet_host_connect failed\n");
      return 1;
    }
  }
  /* Wait for the connection (10 s at most). */
  while (!peer && (int32_t)(enet_time_get() - start) < 10000)
    service_until(host, &peer, enet_time_get() + 50, &bye, &gone);
  if (!peer) {
    fprintf(stderr, "no connection\n");
    return 1;
  }

  enet_uint32 t0 = enet_time_get(), next = t0, next_burst = t0 + 1500 + rnd() % 1500;
  unsigned long tick = 0;
  while (!bye && !gone) {
    enet_uint32 now = enet_time_get();
    if (!server && (int32_t)(now - t0) >= duration * 1000) {
      send_msg(peer, 0, ENET_PACKET_FLAG_RELIABLE, 3, 'b');
      break;
    }
    if (server && (int32_t)(now - t0) >= (duration + 20) * 1000) break; /* client vanished */
    if ((int32_t)(now - next) >= 0) {
      size_t len = 20 + rnd() % 101;
      send_msg(peer, 1, 0, len, 'u');
      app.sent_unrel++;
      if (tick % 3 == 0) {
        send_msg(peer, 0, ENET_PACKET_FLAG_RELIABLE, 20 + rnd() % 101, 'r');
        app.sent_rel++;
      }
      if (tick % 5 == 0) {
        send_msg(peer, 2, ENET_PACKET_FLAG_UNSEQUENCED, 20 + rnd() % 101, 's');
        app.sent_unseq++;
      }
      if ((int32_t)(now - next_burst) >= 0) {
        send_msg(peer, 0, ENET_PACKET_FLAG_RELIABLE, 4096, 'B');
        app.bursts++;
        next_burst = now + 1500 + rnd() % 1500;
      }
      if (n_rtt < 4096) rtt_samples[n_rtt++] = peer->roundTripTime;
      tick++;
      next += TICK_MS;
    }
    service_until(host, &peer, next, &bye, &gone);
  }
  /* Drain: no new data, resends complete, acks go out. */
  if (peer) service_until(host, &peer, enet_time_get() + 1500, &bye, &gone);
  if (n_rtt > 0) qsort(rtt_samples, (size_t)n_rtt, sizeof rtt_samples[0], cmp_u32);
  /* The peer's counters now: a disconnect resets the peer. */
  enet_uint32 p_sent = peer ? peer->packetsSent : 0, p_lost = peer ? peer->packetsLost : 0,
              p_rtt = peer ? peer->roundTripTime : 0, p_var = peer ? peer->roundTripTimeVariance : 0,
              p_low = peer ? peer->lowestRoundTripTime : 0;
  enet_uint32 h_sent_drained = host->totalSentPackets;
  if (!server && peer) {
    /* Let the server finish its own drain (its snapshot) first. */
    service_until(host, &peer, enet_time_get() + 1500, &bye, &gone);
    if (peer) {
      last_sent = peer->packetsSent;
      last_lost = peer->packetsLost;
      frozen = 1;
      enet_peer_disconnect(peer, 0);
    }
    service_until(host, &peer, enet_time_get() + 1500, &bye, &gone);
  } else if (server && peer) {
    enet_uint32 end = enet_time_get() + 3000;
    while (!gone && (int32_t)(end - enet_time_get()) > 0)
      service_until(host, &peer, enet_time_get() + 50, &bye, &gone);
    service_until(host, &peer, enet_time_get() + 500, &bye, &gone);
  }
  printf(
      "{\"role\":\"%s\",\"peer\":{\"packetsSent\":%u,\"packetsLost\":%u,\"roundTripTime\":%u,"
      "\"roundTripTimeVariance\":%u,\"lowestRoundTripTime\":%u,\"roundTripTime_median_per_tick\":%u,"
      "\"packetsSent_final\":%u,\"packetsLost_final\":%u},"
      "\"host\":{\"totalSentPackets\":%u,\"totalSentPackets_before_disconnect\":%u,"
      "\"totalSentData\":%u,\"totalReceivedPackets\":%u,\"totalReceivedData\":%u},"
      "\"app\":{\"sent_reliable\":%lu,\"sent_unreliable\":%lu,"
      "\"sent_unsequenced\":%lu,\"sent_bursts\":%lu,\"recv_reliable\":%lu,\"recv_unreliable\":%lu,"
      "\"recv_unsequenced\":%lu,\"recv_bursts\":%lu,\"recv_bytes\":%lu,\"recv_bad\":%lu}}\n",
      server ? "server" : "client", p_sent, p_lost, p_rtt, p_var, p_low, n_rtt ? rtt_samples[n_rtt / 2] : 0,
      last_sent, last_lost, host->totalSentPackets, h_sent_drained, host->totalSentData,
      host->totalReceivedPackets, host->totalReceivedData, app.sent_rel, app.sent_unrel, app.sent_unseq,
      app.bursts, app.recv_rel, app.recv_unrel, app.recv_unseq, app.recv_bursts, app.recv_bytes, app.bad);
  fflush(stdout);
  enet_host_destroy(host);
  enet_deinitialize();
  return 0;
}
