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
CCACHE_LAUNCHER=()
if command -v ccache >/dev/null; then
    CCACHE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="${ROOT}" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-time_macros}"
    export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
    export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-15G}"
fi
