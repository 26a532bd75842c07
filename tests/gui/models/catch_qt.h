// Catch2 prints Qt values in failure messages.
#pragma once
#include <catch2/catch.hpp>

#include <QString>
#include <QStringList>
#include <QVariant>

namespace Catch {
template <>
struct StringMaker<QString> {
  static std::string convert(const QString& s) { return '"' + s.toStdString() + '"'; }
};
template <>
struct StringMaker<QStringList> {
  static std::string convert(const QStringList& l) { return "{" + l.join(" | ").toStdString() + "}"; }
};
template <>
struct StringMaker<QVariant> {
  static std::string convert(const QVariant& v) {
    return v.isValid() ? std::string(v.typeName()) + "(" + v.toString().toStdString() + ")" : "invalid";
  }
};
}  // namespace Catch
