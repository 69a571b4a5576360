#!/usr/bin/env bash
# Builds the Go peer of `hack/bench.sh --vs controller-runtime` (test/bench/peer, controller-runtime
# as pinned in hack/versions.env) into ~/.cache/ctrl/peer/<version>-<hash of its sources>/cr-peer,
# unless that is there already, and prints the binary's path on its last line. Modules come from
# the Go module proxy; the module cache is Go's own.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../versions.env
source "${ROOT}/hack/versions.env"
PEER_DIR="${ROOT}/test/bench/peer"
say() { echo "build-peer: $*" >&2; }

command -v go >/dev/null 2>&1 || { say "error: Go is not installed (hack/setup-envtest.sh needs it too)"; exit 1; }
declared="$(sed -n 's#^\s*sigs.k8s.io/controller-runtime \(v[^ ]*\).*#\1#p' "${PEER_DIR}/go.mod" | head -1)"
if [[ "${declared}" != "${CONTROLLER_RUNTIME_VERSION}" ]]; then
    say "error: ${PEER_DIR}/go.mod requires controller-runtime '${declared}', hack/versions.env pins ${CONTROLLER_RUNTIME_VERSION}"
    exit 1
fi
hash="$(cd "${PEER_DIR}" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)"
out_dir="${CTRL_CACHE_DIR:-${HOME}/.cache/ctrl}/peer/${CONTROLLER_RUNTIME_VERSION}-${hash}"
if [[ -x "${out_dir}/cr-peer" ]]; then
    say "cached: ${out_dir}/cr-peer"
else
    say "building cr-peer (controller-runtime ${CONTROLLER_RUNTIME_VERSION}, $(go env GOVERSION)) into ${out_dir}"
    mkdir -p "${out_dir}"
    (cd "${PEER_DIR}" && env GOTOOLCHAIN=local GOFLAGS=-mod=readonly CGO_ENABLED=0 \
        go build -trimpath -o "${out_dir}/cr-peer.tmp" .)
    mv "${out_dir}/cr-peer.tmp" "${out_dir}/cr-peer"
fi
echo "${out_dir}/cr-peer"
