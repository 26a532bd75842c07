// The stored fields of one packet (StoreReader::packet(frame)) as name/value
// rows: frame, time relative to the capture start, connection, direction,
// length, status in words, then the header fields the packet has (an absent
// field has no row). RawRole gives the number where the field is one.
#pragma once
#include <QAbstractTableModel>
#include <optional>
#include <vector>

#include "store/records.h"

namespace rudp::gui {

struct PacketField {
  QString name, value, tip;
  QVariant raw;
};

// The rows for one packet, in display order.
std::vector<PacketField> packetFields(const PacketRecord& p, const CaptureInfo& capture);

class PacketFieldsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { RawRole = Qt::UserRole };
  enum Column { Name, Value, ColumnCount };

  explicit PacketFieldsModel(QObject* parent = nullptr);

  // No packet: no rows.
  void setPacket(const std::optional<PacketRecord>& packet, const CaptureInfo& capture);
  const std::optional<PacketRecord>& packet() const { return m_packet; }
  // The row of the field called `name`; -1 when the packet has none.
  int rowOfField(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::optional<PacketRecord> m_packet;
  std::vector<PacketField> m_fields;
};

}  // namespace rudp::gui
