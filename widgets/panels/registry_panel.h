#pragma once
// The panel of a registered analysis that has no panel of its own
// (report/analysis_registry.h): its headline figures, then each of its
// tables on a tab, every table sortable, filterable and exported as
// gapscope-cli writes it. A new analysis is in the viewer without widget
// code.

#include <string>
#include <utility>
#include <vector>

#include "panels/analysis_panel.h"
#include "panels/result_rows.h"

class QLabel;
class QTabWidget;

namespace gapscope::ui {

class RegistryPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    RegistryPanel(AnalysisSession* session, const Analysis& analysis, QWidget* parent = nullptr);
    QString title() const override;
    QString dockName() const override;
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return tables_;
    }
    QString figuresText() const;

    using Derived = std::shared_ptr<const void>;
    using Derive = Derived (*)(const std::shared_ptr<const Trace>& trace,
                               const AnalysisResult& result);

  protected:
    QTabWidget* tabs() const { return tabs_; }
    // After each result is shown in the tables: what a panel draws of it
    // besides (a chart of its own), from the same tables, by id.
    virtual void presented(const std::vector<std::pair<std::string, ResultRows>>& tables) {
        (void)tables;
    }
    // What a panel makes of a result besides its tables (a drawing's data),
    // made on the worker by a plain function, handed to presentedDerived().
    virtual Derive derive() const { return nullptr; }
    virtual void presentedDerived(const Derived& derived) { (void)derived; }
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);

    const Analysis& analysis_;
    QLabel* figures_;
    QTabWidget* tabs_;
    std::vector<std::pair<std::string, AnalysisTable*>> tables_;  // by table id, made once
};

}  // namespace gapscope::ui
