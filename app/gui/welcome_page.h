#pragma once
// Shown when no trace is open: what Gapscope is for, Open…, the bundled
// sample, and recent files.

#include <QStringList>
#include <QWidget>

class QListWidget;

namespace gapscope::app {

class WelcomePage : public QWidget {
    Q_OBJECT
  public:
    explicit WelcomePage(QWidget* parent = nullptr);
    void setRecentFiles(const QStringList& files);

  signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString& path);

  private:
    QListWidget* recent_;
};

}  // namespace gapscope::app
