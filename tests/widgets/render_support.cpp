#include "render_support.h"

#include <QPainter>

namespace gapscope::test {

QPalette lightPalette() {
    QPalette p(QColor(239, 239, 239));
    p.setColor(QPalette::Window, QColor(239, 239, 239));
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(247, 247, 247));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::Highlight, QColor(48, 140, 198));
    return p;
}

QString describe(QRgb c) {
    return QStringLiteral("rgb(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c));
}

QImage renderTimeline(const RenderRequest& r) {
    ui::NameColors names;
    names.reset(r.trace, r.colors.dark);
    ui::PaintInputs in;
    in.trace = r.trace;
    in.layout = r.layout;
    in.window = r.window;
    in.gutterWidth = r.gutter;
    in.scrollY = 0;
    in.size = QSize(r.width, r.layout->totalHeight());
    in.gaps = r.gaps;
    in.gapColors = r.gapColors;
    in.colors = r.colors;
    in.names = &names;
    QImage image(in.size, QImage::Format_RGB32);
    image.fill(Qt::magenta);
    QPainter p(&image);
    ui::paintTimeline(p, in);
    p.end();
    return image;
}

}  // namespace gapscope::test
