#include "models/packet_fields_model.h"

#include "models/record_text.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {
using Optional = std::optional<int64_t> PacketRecord::*;

PacketField numberField(const char* name, int64_t v, const char* tip) {
  return {QString::fromUtf8(name), QString::number(v), QString::fromUtf8(tip),
          QVariant::fromValue<qlonglong>(v)};
}

QString lengthText(const PacketRecord& p) {
  if (p.caplen == p.origlen) return QString::number(p.origlen);
  return QStringLiteral("%1 (%2 captured)").arg(p.origlen).arg(p.caplen);
}

void addIdentity(std::vector<PacketField>& f, const PacketRecord& p, const CaptureInfo& c) {
  f.push_back(numberField("Frame", static_cast<int64_t>(p.frame), "Frame number in the capture, from 1."));
  f.push_back({QStringLiteral("Time (s)"), relativeSecondsText(p.ts_ns, c.first_ts_ns),
               QStringLiteral("Seconds after the capture's first frame."),
               relativeSeconds(p.ts_ns, c.first_ts_ns)});
  f.push_back({QStringLiteral("Connection"), p.conn ? QString::number(p.conn) : QStringLiteral("none"),
               QStringLiteral("Connection number (none: not part of a connection)."),
               QVariant::fromValue<qlonglong>(p.conn)});
  f.push_back({QStringLiteral("Direction"), directionLongName(p.dir),
               QStringLiteral("Which end sent the packet."), static_cast<int>(p.dir)});
  f.push_back({QStringLiteral("Length (bytes)"), lengthText(p),
               QStringLiteral("Frame length on the wire (and the bytes captured, when fewer)."), p.origlen});
  f.push_back({QStringLiteral("Status"), packetStatusText(p.status),
               QStringLiteral("Problems decoding or dissecting the frame."), p.status});
  f.push_back(numberField("Segments", p.segments,
                          "Protocol segments in the datagram (KCP and ENet pack several); the "
                          "fields below are the first one's."));
}

struct HeaderField {
  const char* name;
  Optional member;
  const char* tip;
};

const HeaderField kNumbers[] = {
    {"Kind", &PacketRecord::kind,
     "The protocol's packet type value (GRUDP: DATA 0, ACK 1, CONNECT 2, "
     "ACCEPT 3, DISCONNECT 4, PING 5, PONG 6)."},
    {"Seq", &PacketRecord::seq, "Sequence number, as on the wire."},
    {"Ack", &PacketRecord::ack, "Acknowledgement number."},
    {"Una", &PacketRecord::una, "Cumulative ack: first seq not yet received (KCP)."},
    {"Ts", &PacketRecord::ts, "Sender's timestamp (GRUDP: ms clock; TCP: TSval)."},
    {"Ts echo", &PacketRecord::ts_echo, "Timestamp echoed from the peer (GRUDP ts_echo; TCP: TSecr)."},
    {"Channel", &PacketRecord::channel, "Logical channel."},
    {"Payload length", &PacketRecord::length, "Payload length in the header (bytes)."},
    {"Window", &PacketRecord::window, "Advertised receive window."},
};

void addHeader(std::vector<PacketField>& f, const PacketRecord& p) {
  if (p.role)
    f.push_back({QStringLiteral("Role"), segmentRoleText(*p.role),
                 QStringLiteral("What the segment does, by the protocol's contract."),
                 QVariant::fromValue<qlonglong>(*p.role)});
  if (p.reliability)
    f.push_back({QStringLiteral("Reliability"), reliabilityText(*p.reliability),
                 QStringLiteral("Whether the sender retransmits it / delivers it in order."),
                 QVariant::fromValue<qlonglong>(*p.reliability)});
  for (const HeaderField& h : kNumbers) {
    if (!(p.*h.member)) continue;
    f.push_back(numberField(h.name, *(p.*h.member), h.tip));
    if (h.member == &PacketRecord::ack && p.ack_bits)
      f.push_back({QStringLiteral("Ack bits"), ackBitsText(*p.ack_bits),
                   QStringLiteral("Bit i set: seq ack − 1 − i was received too."),
                   QVariant::fromValue<qlonglong>(*p.ack_bits)});
  }
  if (p.flags)
    f.push_back({QStringLiteral("Flags"),
                 QStringLiteral("%1 (%2)").arg(hexText(*p.flags, 2), tcpFlagsText(*p.flags)),
                 QStringLiteral("TCP flags."), QVariant::fromValue<qlonglong>(*p.flags)});
}
}  // namespace

std::vector<PacketField> packetFields(const PacketRecord& p, const CaptureInfo& capture) {
  std::vector<PacketField> f;
  addIdentity(f, p, capture);
  addHeader(f, p);
  return f;
}

PacketFieldsModel::PacketFieldsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PacketFieldsModel::setPacket(const std::optional<PacketRecord>& packet, const CaptureInfo& capture) {
  beginResetModel();
  m_packet = packet;
  m_fields = packet ? packetFields(*packet, capture) : std::vector<PacketField>{};
  endResetModel();
}

int PacketFieldsModel::rowOfField(const QString& name) const {
  for (size_t i = 0; i < m_fields.size(); ++i)
    if (m_fields[i].name == name) return static_cast<int>(i);
  return -1;
}

int PacketFieldsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_fields.size());
}

int PacketFieldsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant PacketFieldsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const PacketField& f = m_fields[index.row()];
  switch (role) {
    case Qt::DisplayRole: return index.column() == Name ? f.name : f.value;
    case RawRole: return index.column() == Name ? QVariant(f.name) : f.raw;
    case Qt::ToolTipRole: return f.tip;
    default: return {};
  }
}

QVariant PacketFieldsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
    return QAbstractTableModel::headerData(section, orientation, role);
  return section == Name ? QStringLiteral("Field") : QStringLiteral("Value");
}

}  // namespace rudp::gui
