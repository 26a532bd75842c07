// render_icon SVG OUTDIR NAME SIZE...: renders the application icon into the
// hicolor layout, OUTDIR/<SIZE>x<SIZE>/apps/NAME.png, at build time. Uses
// QtSvg, which the GUI already needs, so the icons add no build dependency.
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

namespace {

bool renderOne(QSvgRenderer& svg, const QString& outDir, const QString& name, int size) {
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  svg.render(&painter);
  painter.end();
  const QString dir = QStringLiteral("%1/%2x%2/apps").arg(outDir).arg(size);
  const QString file = dir + QLatin1Char('/') + name + QStringLiteral(".png");
  if (!QDir().mkpath(dir) || !image.save(file, "PNG")) {
    std::fprintf(stderr, "render_icon: cannot write %s\n", qPrintable(file));
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // No QGuiApplication: painting shapes into a QImage needs no platform
  // (the icon has no text), so the build needs no display.
  if (argc < 5) {
    std::fprintf(stderr, "usage: render_icon SVG OUTDIR NAME SIZE...\n");
    return 2;
  }
  QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
  if (!svg.isValid()) {
    std::fprintf(stderr, "render_icon: cannot read the SVG %s\n", argv[1]);
    return 1;
  }
  for (int i = 4; i < argc; ++i) {
    const int size = QString::fromLatin1(argv[i]).toInt();
    if (size <= 0 || !renderOne(svg, QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]), size))
      return 1;
  }
  return 0;
}
