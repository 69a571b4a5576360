#!/usr/bin/env bash
# Follows docs/guide.md step by step, as a new user would, in a fresh $HOME: every file the guide
# shows under a **`path`** heading is written where the guide is at that point (the project
# directory), and every `sh` block runs, in order, in one bash (`set -euo pipefail`, so the first
# failing command fails the test). Blocks marked `text` are not run. The checkout is the guide's
# ~/src/ctrl (a symlink to this one); the control plane binaries come from their usual cache
# (CTRL_ENVTEST_CACHE points there, so a fresh $HOME does not rebuild them) and ccache keeps its own
# directory.
#
#   hack/test-guide.sh            run the guide; keeps nothing on success
#   hack/test-guide.sh --print    print the script the guide becomes, without running it
#   CTRL_KEEP_GUIDE_DIR=1         keep the temporary $HOME (its path is printed)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GUIDE="${ROOT}/docs/guide.md"
step() { echo "== test-guide.sh [$((SECONDS))s]: $*" >&2; }
die() { echo "test-guide.sh: error: $*" >&2; exit 1; }
[[ -f "${GUIDE}" ]] || die "no ${GUIDE}"

# The guide as a bash script: sh blocks verbatim, file blocks as here-documents.
script="$(python3 - "${GUIDE}" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
out, pending_file, i = [], None, 0
files = blocks = 0
while i < len(lines):
    line = lines[i]
    heading = re.fullmatch(r"\*\*`([^`]+)`\*\*", line.strip())
    if heading:
        pending_file = heading.group(1)
        i += 1
        continue
    fence = re.fullmatch(r"```(\w*)", line.strip())
    if fence:
        lang = fence.group(1)
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        if i == len(lines):
            sys.exit(f"docs/guide.md: a code block opened ({lang}) is never closed")
        if pending_file:
            if any(l == "CTRL_GUIDE_EOF" for l in body):
                sys.exit(f"docs/guide.md: {pending_file} holds the here-document marker")
            out.append(f"# --- docs/guide.md: {pending_file}")
            out.append(f"mkdir -p \"$(dirname '{pending_file}')\"")
            out.append(f"cat > '{pending_file}' <<'CTRL_GUIDE_EOF'")
            out.extend(body)
            out.append("CTRL_GUIDE_EOF")
            files += 1
        elif lang == "sh":
            out.append(f"# --- docs/guide.md line {i - len(body)}")
            out.extend(body)
            blocks += 1
        pending_file = None
    elif line.strip():
        pending_file = None if not heading else pending_file
    i += 1
if files == 0 or blocks == 0:
    sys.exit("docs/guide.md: no files or no sh blocks found: the guide's format changed?")
print("\n".join(out))
print(f"echo 'test-guide.sh: the guide wrote {files} files and ran {blocks} sh blocks' >&2")
PY
)"
if [[ "${1:-}" == "--print" ]]; then
    echo "${script}"
    exit 0
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ctrl-guide-XXXXXX")"
guide_pid=""
cleanup() {
    local status=$?
    # Whatever a failed guide left running in the background (the operator, the control plane): the
    # guide runs in a process group of its own.
    [[ -z "${guide_pid}" ]] || kill -TERM -- "-${guide_pid}" 2>/dev/null || true
    if [[ -n "${CTRL_KEEP_GUIDE_DIR:-}" || ${status} -ne 0 ]]; then
        echo "test-guide.sh: kept ${WORK}" >&2
    else
        rm -rf "${WORK}"
    fi
}
trap cleanup EXIT
mkdir -p "${WORK}/home/src"
ln -s "${ROOT}" "${WORK}/home/src/ctrl"
export CTRL_ENVTEST_CACHE="${CTRL_ENVTEST_CACHE:-${HOME}/.cache/ctrl/envtest}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME}/.cache/ccache}"
export GOPATH="${GOPATH:-${HOME}/go}" GOMODCACHE="${GOMODCACHE:-${HOME}/go/pkg/mod}"
unset KUBECONFIG CTRL_ENVTEST_BIN_DIR
echo "${script}" >"${WORK}/guide.sh"
step "running docs/guide.md ($(grep -c '^# --- docs/guide.md' "${WORK}/guide.sh") steps) in HOME=${WORK}/home"
HOME="${WORK}/home" setsid bash -euo pipefail "${WORK}/guide.sh" >"${WORK}/guide.log" 2>&1 &
guide_pid=$!
wait "${guide_pid}" || {
    tail -60 "${WORK}/guide.log" >&2
    die "a step of docs/guide.md failed (log above, ${WORK}/guide.log; script ${WORK}/guide.sh)"
}
guide_pid=""
# The guide builds in the checkout's own build directory: it must still name the checkout's real path
# (a build configured through the symlink would name the temporary $HOME, and rebuild everything).
if grep -q "^ctrl_SOURCE_DIR:STATIC=${WORK}" "${ROOT}/build/CMakeCache.txt" 2>/dev/null; then
    die "the guide reconfigured ${ROOT}/build through the symlink ${WORK}/home/src/ctrl: its cd must resolve it (cd -P)"
fi
tail -3 "${WORK}/guide.log" >&2
step "docs/guide.md works as written"
