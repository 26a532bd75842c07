#include "help_dialogs.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace rudp::gui {

void showHelpDialog(QWidget* parent) {
  QMessageBox::information(
      parent, QObject::tr("rudpscope Help"),
      QObject::tr(
          "<p>Open a pcap or pcapng capture (Ctrl+O, drag and drop, or <tt>rudpscope FILE</tt>), or "
          "Help &gt; Open Sample Capture. "
          "It is analysed once; its database is kept beside it and reused while the capture and the "
          "settings stay the same.</p>"
          "<table cellspacing=4>"
          "<tr><td><b>Ctrl+O</b></td><td>open a capture</td></tr>"
          "<tr><td><b>Ctrl+W</b></td><td>close it</td></tr>"
          "<tr><td><b>Ctrl+R</b></td><td>analyse it again</td></tr>"
          "<tr><td><b>Esc</b></td><td>cancel the analysis</td></tr>"
          "<tr><td><b>Ctrl+1…5</b>, <b>Alt+1…5</b></td><td>Summary, Connections, Timeline, "
          "Statistics, Packets</td></tr>"
          "<tr><td><b>Ctrl+6</b></td><td>Compare</td></tr>"
          "<tr><td><b>Ctrl+Shift+P</b></td><td>settings (stall threshold, RTT limits, dissectors)</td></tr>"
          "<tr><td><b>Ctrl+Shift+E</b></td><td>export the HTML report</td></tr>"
          "<tr><td><b>Ctrl+Q</b></td><td>quit</td></tr></table>"
          "<p>On the timeline: click a problem on the Summary page to zoom to it; click a mark to see "
          "its packet's stored fields.</p>"
          "<p>On the Packets page, as in Wireshark: Ctrl+G go to packet, Ctrl+Up/Down previous/next, "
          "Ctrl+Home/End first/last, Ctrl+M mark, Ctrl+Shift+N/B next/previous mark, Ctrl+/ the display "
          "filter (Enter applies it, Esc stops a running one); click a field to "
          "see its bytes, click a byte to find its field; Show on Timeline (or a double click) marks the "
          "packet there.</p>"
          "<p>Open in Wireshark: right-click a connection, a problem or a stall, or use Tools &gt; Open "
          "in Wireshark for what the Timeline shows.</p>"));
}

void showAboutDialog(QWidget* parent) {
  QMessageBox::about(
      parent, QObject::tr("About rudpscope"),
      QObject::tr("<h3>rudpscope %1</h3><p>RTT, retransmission, loss and stall analysis of game "
                  "reliable-UDP (and TCP) captures, with Wireshark-compatible Lua dissectors.</p>"
                  "<p>Built with Qt %2.</p>")
          .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

}  // namespace rudp::gui
