// The Packets page on a GRUDP flow carried in VXLAN (as cloud traffic
// mirroring delivers it): every layer of the tunnel in the details tree, in
// tshark's order, each field's bytes highlighted where they are in the frame.
#include "catch_qt.h"

#include <QRegularExpression>
#include <QTest>
#include <QTreeWidgetItem>

#include "grudp_flow.h"
#include "models/packet_list_model.h"
#include "page_artifacts.h"
#include "pages/packet_details_view.h"
#include "pages/packets_page.h"
#include "process.h"
#include "session/ingest.h"
#include "tunnel_frames.h"
#include "widgets/hex_view.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const Ip4 kVtepA{192, 0, 2, 1}, kVtepB{198, 51, 100, 2};

// The flow's packets in VXLAN (VNI 0x1234) over UDP to 4789 between two tunnel endpoints.
std::string vxlanDatabase(const test::TempDir& dir) {
  const std::string pcap = writeCapture(dir / "vxlan.pcap", 1, false, [](int i, const Bytes& inner) {
    const Ip4& a = fromClient(i) ? kVtepA : kVtepB;
    const Ip4& b = fromClient(i) ? kVtepB : kVtepA;
    const Bytes tunnel = udp(a, b, 49152, 4789, vxlan(0x1234, inEthernet(inner)));
    return inEthernet(ipv4(a, b, 17, tunnel, uint16_t(0x300 + i)));
  });
  const std::string db = dir / "vxlan.sqlite";
  ingestCapture(pcap, db, DissectorOptions{});
  return db;
}

QTreeWidgetItem* itemWithText(QTreeWidget& tree, const QString& text) {
  const QList<QTreeWidgetItem*> found = tree.findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
  return found.size() == 1 ? found.front() : nullptr;
}

// The item's bytes are the ones the hex view highlights, and only those.
void checkHighlight(PacketsPage& page, QTreeWidgetItem* item, int offset, int length) {
  INFO(item->text(0).toStdString() << " at " << offset);
  page.details()->setCurrentItem(item);
  CHECK(page.bytesView()->highlightOffset() == uint32_t(offset));
  CHECK(page.bytesView()->highlightLength() == uint32_t(length));
  for (int o = offset; o < offset + length; ++o) {
    INFO("byte " << o);
    CHECK(test::hexPixelHighlighted(*page.bytesView(), o));
  }
  CHECK(!test::hexPixelHighlighted(*page.bytesView(), offset - 1));
  CHECK(!test::hexPixelHighlighted(*page.bytesView(), offset + length));
}

}  // namespace

TEST_CASE(
    "the packets page shows a VXLAN frame's tunnel layers as tshark does, each field's bytes highlighted") {
  const test::TempDir dir("gui-vxlan-packets");
  const std::string db = vxlanDatabase(dir), pcap = dir / "vxlan.pcap";
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
  page.resize(1100, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  REQUIRE(page.goToFrame(1));

  QTreeWidget& tree = *page.details();
  QStringList layers;
  for (int i = 0; i < tree.topLevelItemCount(); ++i)
    layers << tree.topLevelItem(i)->text(0).section(QRegularExpression("[,:]"), 0, 0);
  CHECK(layers == QStringList{"Frame 1", "Ethernet II", "Internet Protocol Version 4",
                              "User Datagram Protocol", "Virtual eXtensible Local Area Network",
                              "Ethernet II", "Internet Protocol Version 4", "User Datagram Protocol",
                              "Game Reliable UDP"});
  // The outer header's addresses, the tunnel's VNI, the inner (game) addresses.
  CHECK(tree.topLevelItem(2)->text(0) == "Internet Protocol Version 4, Src: 192.0.2.1, Dst: 198.51.100.2");
  CHECK(tree.topLevelItem(6)->text(0) == "Internet Protocol Version 4, Src: 10.0.0.1, Dst: 10.0.0.2");

  // Ethernet, IPv4, UDP: the VXLAN header at 42, its VNI at 46 (3 bytes);
  // then the inner Ethernet (50), IPv4 (64), UDP (84), GRUDP (92): its seq at 8.
  QTreeWidgetItem* vni = itemWithText(tree, QStringLiteral("VXLAN Network Identifier (VNI): 4660"));
  REQUIRE(vni);
  CHECK(vni->parent() == tree.topLevelItem(4));
  checkHighlight(page, vni, 46, 3);
  QTreeWidgetItem* port = itemWithText(tree, QStringLiteral("Destination Port: 4789"));
  REQUIRE(port);
  checkHighlight(page, port, 14 + 20 + 2, 2);
  QTreeWidgetItem* seq = page.details()->itemOfField(QStringLiteral("grudp.seq"));
  REQUIRE(seq);
  CHECK(seq->text(0) == "Sequence number: 1");
  checkHighlight(page, seq, 92 + 8, 4);
  CHECK(!test::savePagePng(page, QStringLiteral("packets-vxlan")).isEmpty());
}
