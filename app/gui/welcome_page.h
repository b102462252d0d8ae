#pragma once
// Shown when no trace is open: what Gapscope is for, the bundled sample,
// Open Trace… and Open Folder…, recent files, and how to record a trace in
// PyTorch, TensorFlow and JAX.

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
    void openFolderRequested();
    void sampleRequested();
    void recentRequested(const QString& path);

  protected:
    void showEvent(QShowEvent* e) override;

  private:
    void fillList();

    QListWidget* recent_;
    QStringList files_;
    bool listed_ = false;
};

}  // namespace gapscope::app
