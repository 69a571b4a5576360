# Sourced by the build scripts: sets CCACHE_LAUNCHER to the cmake arguments that compile through
# ccache when it is installed (objects kept under ~/.cache/ccache, keyed by content), else to
# nothing. Objects do not depend on where the checkout is, so a clone at another path (CI's fresh
# clone) reuses the objects of earlier runs and of other checkouts:
#  - CCACHE_BASEDIR: paths under the checkout are taken relative to it on the compiler's command
#    line (include directories, the source file);
#  - CCACHE_NOHASHDIR: with debug information ccache would also key every object by the build
#    directory, which the object records as its compilation directory; a reused object names the
#    directory it was first compiled in, which only a debugger looking for the sources notices;
#  - the checkout's path is compiled into one file, test/support/repo_path.cpp.
# The cache holds the default, ASan, TSan, fuzz and clang builds' objects together (more than 5 GB
# with compressed debug sections): within ccache's default 5 GB, one build's objects evict
# another's, and a CI run finds its extra builds cold.
#
# The settings travel in the launcher itself (`env VAR=... ccache`), so a configured build tree
# compiles with them whoever runs it: a plain `cmake --build build` or `ninja` after the scripts
# configured it. When they lived only in this script's environment, such a rebuild keyed objects by
# absolute paths and cleaned the cache down to the default 5 GB, and the next fresh clone found a
# cache that did not fit it (2026-12-06: 59% misses).
CCACHE_LAUNCHER=()
if command -v ccache >/dev/null; then
    export CCACHE_BASEDIR="${ROOT}" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-time_macros}"
    export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
    export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-15G}"
    CCACHE_LAUNCHER=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=${CCACHE_BASEDIR};CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS};CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR};CCACHE_MAXSIZE=${CCACHE_MAXSIZE};ccache")
fi
