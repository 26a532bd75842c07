// How the GUI's tables write numbers: one place, so every page and the CSV
// export agree on precision and on the mark for a missing value.
#pragma once
#include <QString>
#include <QVariant>
#include <cstdint>
#include <optional>

#include "flow/connection.h"

namespace rudp::gui {

// Shown where the analysis has no value (no samples, direction not analysed).
QString missingText();

QString countText(uint64_t v);
QString msText(double ms);            // "12.3" (0.1 ms)
QString percentText(double percent);  // "12.34" (already in percent)
// Capture time relative to the capture's first frame, in seconds
// ("8.052123" with 6 decimals).
QString relativeSecondsText(int64_t ts_ns, int64_t captureStartNs, int decimals = 6);
double relativeSeconds(int64_t ts_ns, int64_t captureStartNs);
QString hexText(uint64_t v, int digits);  // "0x0000abcd"

// "c→s" / "s→c", and the long form "client → server".
QString directionShortName(Direction d);
QString directionLongName(Direction d);
// The two directions' texts of one figure, client→server first: "a / b".
QString directionPairText(const QString& c2s, const QString& s2c);

// A number held in a QVariant (any numeric type) written the way its column
// writes it; an invalid QVariant is missingText().
// Milliseconds and Decimal: one decimal; Percent: two; Seconds: three.
enum class NumberKind { Count, Milliseconds, Decimal, Percent, Seconds, Text };
QString variantText(const QVariant& v, NumberKind kind);
// A figure that may be unknown: an invalid QVariant when it is.
QVariant fromOptional(const std::optional<double>& v);

}  // namespace rudp::gui
