# The Debian package: `cpack` in a build folder (packaging/build-deb.sh)
# writes gapscope_VERSION_ARCH.deb from the installed tree. Its Depends are
# found by dpkg-shlibdeps from the libraries the programs link.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gapscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Gapscope authors")
set(CPACK_PACKAGE_CONTACT "The Gapscope authors <${GAPSCOPE_MAINTAINER_EMAIL}>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${GAPSCOPE_URL})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The Gapscope authors <${GAPSCOPE_MAINTAINER_EMAIL}>")
# The Qt platform plugin for X11/Wayland is loaded at run time, not linked.
# python3 for gapscope-fleet (a Python script; Debian policy wants it named)
# and the Python module, built for the Python of the build (Debian 12's
# 3.11; another Python does not find it), whose tables are pandas
# DataFrames of NumPy arrays. No version is pinned: the viewer and the CLI
# install where another Python is the default.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-svg-plugins, python3-pandas, python3-numpy")
# gapscope-fleet summarize runs on Dask; its reduce and the CLI do not.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-distributed")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "viewer for GPU/CPU profiles of machine-learning jobs")
# Each line of the extended description starts with a space (deb-control).
# The extended description (CPack indents it and marks the empty line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Gapscope opens the traces that the PyTorch profiler, TensorFlow and JAX
write (Chrome trace JSON, plain, gzip or zstd, up to several gigabytes;
XSpace profiles and TensorBoard log folders; Nsight Systems SQLite
exports) and shows at a glance where
and why each GPU is idle: waiting for input, for the host to launch work,
for a synchronisation or for communication.

Side panels break the GPU time down and list kernels, ops, steps, memory
and the input pipeline, with advice; annotations, pictures, tables and
reports export. gapscope-cli gives scripts and CI the same numbers and a
performance-regression gate, the Python module (import gapscope) gives
them to pandas, and gapscope-cli mcp to coding agents.")
include(CPack)
