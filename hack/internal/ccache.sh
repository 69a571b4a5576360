# Sourced by the build scripts: sets CCACHE_LAUNCHER to the cmake arguments that compile through
# ccache when it is installed (objects kept under ~/.cache/ccache, keyed by content; paths taken
# relative to the checkout, so another clone, CI's, reuses them), else to nothing.
CCACHE_LAUNCHER=()
if command -v ccache >/dev/null; then
    CCACHE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="${ROOT}" CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-time_macros}"
fi
