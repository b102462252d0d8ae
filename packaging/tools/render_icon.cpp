// gapscope-render-icon SVG OUT_DIR APP_ID SIZE...: the app icon as the
// hicolor theme's PNGs (OUT_DIR/hicolor/NxN/apps/APP_ID.png), drawn from the
// one SVG with Qt's own renderer, so the sizes never drift from it.

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    if (argc < 5) {
        std::fprintf(stderr, "usage: gapscope-render-icon SVG OUT_DIR APP_ID SIZE...\n");
        return 1;
    }
    QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
    if (!svg.isValid()) {
        std::fprintf(stderr, "gapscope-render-icon: %s: not a valid SVG\n", argv[1]);
        return 2;
    }
    for (int i = 4; i < argc; ++i) {
        const int size = QByteArray(argv[i]).toInt();
        if (size <= 0 || size > 4096) {
            std::fprintf(stderr, "gapscope-render-icon: bad size '%s'\n", argv[i]);
            return 1;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        svg.render(&p, QRectF(0, 0, size, size));
        p.end();
        const QString dir =
            QStringLiteral("%1/hicolor/%2x%2/apps").arg(QString::fromLocal8Bit(argv[2])).arg(size);
        QDir().mkpath(dir);
        const QString path =
            dir + QLatin1Char('/') + QString::fromLocal8Bit(argv[3]) + QStringLiteral(".png");
        if (!image.save(path, "PNG")) {
            std::fprintf(stderr, "gapscope-render-icon: cannot write %s\n", qPrintable(path));
            return 2;
        }
    }
    return 0;
}
