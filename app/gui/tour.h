#pragma once
// A short guided tour: a bubble beside one widget after another (the GPU
// tracks with their idle-gap shading, the Overview panel, ...) with a
// highlight around it, Back / Next / Done, Esc to leave. Shown once after
// the first trace opens; Help > Tour repeats it.

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <vector>

class QFrame;
class QLabel;
class QPushButton;
class QWidget;

namespace gapscope::app {

class Tour : public QObject {
    Q_OBJECT
  public:
    struct Step {
        // Found when the step is shown (docks are laid out late).
        std::function<QWidget*()> target;
        QString title, text;
    };

    // The bubble and the highlight are children of `window`.
    explicit Tour(QWidget* window);
    void start(std::vector<Step> steps);
    void showStep(int index);
    void stop();
    bool isActive() const;
    int currentStep() const { return current_; }

  signals:
    void finished();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void place();

    QWidget* window_;
    QFrame* bubble_;
    QFrame* highlight_;
    QLabel* title_;
    QLabel* text_;
    QLabel* counter_;
    QPushButton* back_;
    QPushButton* next_;
    std::vector<Step> steps_;
    QPointer<QWidget> target_;
    int current_ = -1;
};

}  // namespace gapscope::app
