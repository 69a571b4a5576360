# Sourced by the build scripts: sets CCACHE_LAUNCHER to the cmake arguments that compile through
# ccache when it is installed (objects kept under ~/.cache/ccache, keyed by content; paths taken
# relative to the checkout), else to nothing. With debug info, ccache also keys an object by the
# build directory (its hash_dir: the object records that directory), so a clone at the same path
# (CI's) reuses the objects of the previous run, and a clone at another path compiles afresh. The cache holds
# the default, ASan, TSan, fuzz and clang builds' objects together (more than 5 GB with compressed
# debug sections): within ccache's default 5 GB, one build's objects evict another's, and a CI run
# finds its extra builds cold.
CCACHE_LAUNCHER=()
if command -v ccache >/dev/null; then
    CCACHE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="${ROOT}" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-time_macros}"
    export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-15G}"
fi
