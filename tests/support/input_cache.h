#pragma once
// What the trace generator and the Python reference scripts produce, kept
// under a key of everything it depends on (the scripts' text, the
// arguments, the content of input files), so that CI's dev, asan and tsan
// runs compute each generated trace and each reference once: both are
// deterministic (the generator is seeded). The folder is
// $GAPSCOPE_TEST_INPUT_CACHE, else build/test-inputs of the checkout
// (CI keeps it in ~/.cache, as ccache, so that a run finds what the last
// one computed); GAPSCOPE_TEST_INPUT_CACHE=off turns the cache off. The key
// also holds Python's version.

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace gapscope::test {

// A key over which scripts run, every *.py beside them (what they may
// import), and `parts`, where a part naming an existing file stands for the
// file's content (a folder: its path, and its files' names, sizes and times).
QByteArray inputKey(const QStringList& scripts, const QStringList& parts);

// Copies the kept file of `key` + `suffix` to `dest`; false when none is kept.
bool fetchKept(const QByteArray& key, const QString& suffix, const QString& dest);
// The kept text of `key` + `suffix`, if any.
std::optional<QByteArray> fetchKeptText(const QByteArray& key, const QString& suffix);

// Keeps a copy of `source` as `key` + `suffix` (atomically: a reader never
// sees half a file, and two writers of one key write the same bytes).
void keep(const QByteArray& key, const QString& suffix, const QString& source);
void keepText(const QByteArray& key, const QString& suffix, const QByteArray& text);

}  // namespace gapscope::test
