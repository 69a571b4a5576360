#!/usr/bin/env bash
# Builds kube-apiserver and etcd from Go modules into a cache outside the clone, keyed by
# version, and prints the directory holding them. A second run finds them and takes seconds.
#
#   hack/setup-envtest.sh            build if missing; print the binary directory (last line)
#                                    (installed as bin/ctrl-setup-envtest)
#   hack/setup-envtest.sh --versions print the pinned versions and exit
#   CTRL_ENVTEST_CACHE=DIR ...       cache root (default: ~/.cache/ctrl/envtest)
#
# Only tests and the local demo need this: a user with their own cluster never does.
set -euo pipefail

HACK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The pinned versions: hack/versions.env in ctrl's source tree; share/ctrl/versions.env of the
# install prefix when installed as bin/ctrl-setup-envtest.
VERSIONS_ENV="${HACK_DIR}/versions.env"
[[ -f "${VERSIONS_ENV}" ]] || VERSIONS_ENV="${HACK_DIR}/../share/ctrl/versions.env"
# shellcheck source=versions.env
source "${VERSIONS_ENV}"

CACHE_ROOT="${CTRL_ENVTEST_CACHE:-${HOME}/.cache/ctrl/envtest}"
START_SECONDS=${SECONDS}

log() { echo "setup-envtest [$((SECONDS - START_SECONDS))s]: $*" >&2; }
die() { echo "setup-envtest: error: $*" >&2; exit 1; }

check_go() {
    if ! command -v go >/dev/null 2>&1; then
        die "Go is not installed. Install Go >= ${GO_MIN_VERSION} (e.g. 'apt-get install golang' on a recent Debian, or from go.dev) and run again. Only tests and the local demo need it."
    fi
    local have
    have="$(go env GOVERSION | sed 's/^go//')"
    if [[ "$(printf '%s\n%s\n' "${GO_MIN_VERSION}" "${have}" | sort -V | head -1)" != "${GO_MIN_VERSION}" ]]; then
        die "Go ${have} is too old: building kube-apiserver ${KUBE_VERSION} needs Go >= ${GO_MIN_VERSION}."
    fi
    GO_VERSION_LINE="$(go env GOVERSION | sed -E 's/^go([0-9]+\.[0-9]+).*/\1/').0"
}

# Runs a long command in directory $2 with its output in log file $3, printing a heartbeat
# every minute so the user knows it is alive; on failure prints the log's tail.
with_heartbeat() {
    local what="$1" dir="$2" log_file="$3"; shift 3
    ( while sleep 60; do log "still ${what}..."; done ) &
    local beat=$!
    local rc=0
    (cd "${dir}" && "$@") >"${log_file}" 2>&1 || rc=$?
    ((rc == 0)) || tail -40 "${log_file}" >&2
    kill "${beat}" 2>/dev/null || true
    wait "${beat}" 2>/dev/null || true
    return "${rc}"
}

go_env() {
    env GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 "$@"
}

# Writes a wrapper module for kube-apiserver $1 into $2: it requires k8s.io/kubernetes and
# replaces each staging module (required at v0.0.0 upstream) with its published v0.X.Y.
write_kube_wrapper() {
    local version="$1" dir="$2"
    local staging_version="v0.${version#v1.}"
    mkdir -p "${dir}"
    log "reading the go.mod of k8s.io/kubernetes@${version}"
    local gomod
    gomod="$(cd "${dir}" && go_env go mod download -json "k8s.io/kubernetes@${version}" |
        sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
    [[ -f "${gomod}" ]] || die "could not download k8s.io/kubernetes@${version} from the Go module proxy"
    {
        echo "module ctrl.local/envtest/kube-apiserver"
        echo
        echo "go ${GO_VERSION_LINE}"
        echo
        echo "require k8s.io/kubernetes ${version}"
        echo
        grep -E '^[[:space:]]*k8s\.io/[a-z0-9-]+ v0\.0\.0$' "${gomod}" | awk '{print $1}' | sort -u |
            while read -r module; do echo "replace ${module} => ${module} ${staging_version}"; done
    } >"${dir}/go.mod"
    cat >"${dir}/tools.go" <<'GO'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
    log "$(grep -c '^replace' "${dir}/go.mod") staging modules replaced with ${staging_version}"
}

build_kube_apiserver() {
    local version="$1" out="$2"
    local work="${CACHE_ROOT}/src/kube-apiserver-${version}"
    rm -rf "${work}"
    write_kube_wrapper "${version}" "${work}"
    local minor="${version#v1.}"; minor="${minor%%.*}"
    log "resolving modules for kube-apiserver ${version} (several hundred MB the first time)"
    with_heartbeat "resolving modules" "${work}" "${work}/tidy.log" go_env go mod tidy || return 1
    log "compiling kube-apiserver ${version} (10-20 minutes the first time on 2 cores)"
    local ldflags="-s -w -X k8s.io/component-base/version.gitVersion=${version}"
    ldflags+=" -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${minor}"
    ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"
    with_heartbeat "compiling kube-apiserver" "${work}" "${work}/build.log" go_env go build -trimpath \
        -tags=selinux,notest,grpcnotrace -ldflags "${ldflags}" -o "${out}.tmp" \
        k8s.io/kubernetes/cmd/kube-apiserver || return 1
    mv "${out}.tmp" "${out}"
}

build_etcd() {
    local out="$1"
    local work="${CACHE_ROOT}/src/etcd-${ETCD_VERSION}"
    rm -rf "${work}"
    mkdir -p "${work}"
    cat >"${work}/go.mod" <<GOMOD
module ctrl.local/envtest/etcd

go ${GO_VERSION_LINE}

require go.etcd.io/etcd/server/v3 ${ETCD_VERSION}
GOMOD
    cat >"${work}/tools.go" <<'GO'
//go:build tools

package tools

import _ "go.etcd.io/etcd/server/v3"
GO
    log "resolving modules for etcd ${ETCD_VERSION}"
    with_heartbeat "resolving etcd modules" "${work}" "${work}/tidy.log" go_env go mod tidy || return 1
    log "compiling etcd ${ETCD_VERSION}"
    with_heartbeat "compiling etcd" "${work}" "${work}/build.log" go_env go build -trimpath -ldflags "-s -w" \
        -o "${out}.tmp" go.etcd.io/etcd/server/v3 || return 1
    mv "${out}.tmp" "${out}"
}

# What a cache directory must have been built from to be used.
stamp() { echo "kube-apiserver=$1 etcd=${ETCD_VERSION}"; }

main() {
    mkdir -p "${CACHE_ROOT}"
    exec 9>"${CACHE_ROOT}/.lock"
    flock 9
    local etcd_dir="${CACHE_ROOT}/etcd-${ETCD_VERSION}"
    local candidates=("${KUBE_VERSION}" ${KUBE_FALLBACK_VERSIONS})
    local version bin_dir=""
    # A cached build of the pinned version (or, failing that, of a fallback) is used as is.
    for version in "${candidates[@]}"; do
        if [[ -x "${CACHE_ROOT}/${version}/kube-apiserver" && -x "${CACHE_ROOT}/${version}/etcd" &&
            "$(cat "${CACHE_ROOT}/${version}/VERSIONS" 2>/dev/null)" == "$(stamp "${version}")" ]]; then
            bin_dir="${CACHE_ROOT}/${version}"
            break
        fi
    done
    if [[ -z "${bin_dir}" ]]; then
        check_go
        if [[ ! -x "${etcd_dir}/etcd" ]]; then
            mkdir -p "${etcd_dir}"
            build_etcd "${etcd_dir}/etcd" || die "etcd ${ETCD_VERSION} did not build (logs in ${CACHE_ROOT}/src)"
        fi
        for version in "${candidates[@]}"; do
            mkdir -p "${CACHE_ROOT}/${version}"
            if build_kube_apiserver "${version}" "${CACHE_ROOT}/${version}/kube-apiserver"; then
                cp "${etcd_dir}/etcd" "${CACHE_ROOT}/${version}/etcd"
                stamp "${version}" >"${CACHE_ROOT}/${version}/VERSIONS"
                bin_dir="${CACHE_ROOT}/${version}"
                break
            fi
            log "kube-apiserver ${version} did not build; trying the next older release"
        done
        [[ -n "${bin_dir}" ]] || die "no kube-apiserver release in '${candidates[*]}' built (logs in ${CACHE_ROOT}/src)"
        rm -rf "${CACHE_ROOT}/src"
    fi
    log "kube-apiserver $(basename "${bin_dir}"), etcd ${ETCD_VERSION} ready"
    echo "${bin_dir}"
}

if [[ "${1:-}" == "--versions" ]]; then
    echo "kube-apiserver ${KUBE_VERSION} (fallbacks: ${KUBE_FALLBACK_VERSIONS}), etcd ${ETCD_VERSION}"
    exit 0
fi
main "$@"
