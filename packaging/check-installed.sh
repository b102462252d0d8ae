#!/usr/bin/env bash
# Installs a built gapscope_*.deb with apt (its Depends come from Debian) and
# runs what it installed: the CLI's --version and info on the sample it
# ships, the viewer offscreen opening that sample and quitting, and the
# installed desktop entry, metainfo and man pages through their validators.
#   check-installed.sh PATH/gapscope_VERSION_ARCH.deb [--keep]
set -euo pipefail
deb=$(realpath "$1")
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get install -y -qq "$deb" >/dev/null
trap '[[ "${2:-}" == --keep ]] || "${sudo_cmd[@]}" apt-get remove -y -qq gapscope >/dev/null' EXIT

sample=/usr/share/gapscope/samples/h200_cnn_dataloader.pt.trace.json.gz
app=io.github.gapscope.Gapscope
set -x
/usr/bin/gapscope-cli --version
/usr/bin/gapscope-cli info "$sample" >/dev/null
home=$(mktemp -d)
HOME=$home XDG_CONFIG_HOME=$home XDG_CACHE_HOME=$home QT_QPA_PLATFORM=offscreen \
  timeout 120 /usr/bin/gapscope --quit-after-load "$sample"
rm -rf "$home"
home_py=$(mktemp -d)
desktop-file-validate /usr/share/applications/$app.desktop
appstreamcli validate --no-net /usr/share/metainfo/$app.metainfo.xml >/dev/null
test -s /usr/share/icons/hicolor/scalable/apps/$app.svg
test -s /usr/share/icons/hicolor/512x512/apps/$app.png
test -s /usr/share/gapscope/user-guide/index.html
# The Python module, for Debian's python3 (with python3-pandas), from
# outside any source tree.
(cd "$home_py" && HOME=$home_py XDG_CACHE_HOME=$home_py /usr/bin/python3 -c \
  "import gapscope; print(gapscope.open('$sample').gaps().head())")
/usr/bin/gapscope-fleet --help >/dev/null
/usr/bin/gapscope-fleet summarize --help >/dev/null
grep -q "application/x-gapscope-chrome-trace=$app.desktop" /usr/share/applications/mimeinfo.cache
test -s /usr/share/mime/application/x-gapscope-chrome-trace.xml
# The man pages as packaged (container images often tell dpkg to leave
# /usr/share/man out, so they are read from the package itself).
unpacked=$(mktemp -d)
dpkg-deb -x "$deb" "$unpacked"
for page in gapscope gapscope-cli gapscope-fleet; do
  warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$unpacked/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
  [[ -z "$warnings" ]] || { echo "$warnings"; exit 1; }
done
rm -rf "$unpacked" "$home_py"
{ set +x; } 2>/dev/null
echo "check-installed: the installed package works"
