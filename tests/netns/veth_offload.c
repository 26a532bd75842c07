/* veth_offload IFNAME [IFNAME...]: turn off the offloads that make captures
 * differ from the wire (ethtool is not installed on these machines), using
 * the same SIOCETHTOOL ioctls `ethtool -K IF tx off sg off tso off gso off
 * gro off` would, then print the resulting state of each. Run it inside the
 * interface's network namespace. Exit 1 if any of them is still on.
 *
 *   tx  (checksum offload) off: the kernel fills in TCP checksums before a
 *       capture sees the frame, so captured checksums are correct.
 *   tso / gso off: the stack's super-segments are cut into MSS-sized
 *       segments before the capture tap, so a capture sees one frame per
 *       segment, exactly what TcpRetransSegs (which counts segments) counts.
 *   gro off: the receiving veth does not merge segments again.
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int eth(int fd, const char* ifn, unsigned cmd, unsigned* val) {
  struct ethtool_value ev = {cmd, val ? *val : 0};
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  strncpy(ifr.ifr_name, ifn, IFNAMSIZ - 1);
  ifr.ifr_data = (void*)&ev;
  if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) return -1;
  if (val) *val = ev.data;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: veth_offload IFNAME...\n");
    return 2;
  }
  int fd = socket(AF_INET, SOCK_DGRAM, 0), bad = 0;
  static const struct {
    const char* name;
    unsigned set, get;
  } f[] = {{"tx-checksum", ETHTOOL_STXCSUM, ETHTOOL_GTXCSUM},
           {"sg", ETHTOOL_SSG, ETHTOOL_GSG},
           {"tso", ETHTOOL_STSO, ETHTOOL_GTSO},
           {"gso", ETHTOOL_SGSO, ETHTOOL_GGSO},
           {"gro", ETHTOOL_SGRO, ETHTOOL_GGRO}};
  for (int i = 1; i < argc; i++) {
    printf("%s:", argv[i]);
    for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++) {
      unsigned zero = 0, v = 0;
      if (eth(fd, argv[i], f[k].set, &zero) < 0) {
        perror(f[k].name);
        bad = 1;
      }
      if (eth(fd, argv[i], f[k].get, &v) < 0) {
        perror(f[k].name);
        bad = 1;
      }
      printf(" %s=%s", f[k].name, v ? "on" : "off");
      if (v) bad = 1;
    }
    printf("\n");
  }
  close(fd);
  return bad;
}
