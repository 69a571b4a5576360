#!/usr/bin/env bash
# Builds the operator image from the Dockerfile with podman, without any container registry, and
# prints its size, layers and contents.
#
#   hack/image.sh                 build ctrl-operator:v<project version> (CMakeLists.txt)
#   hack/image.sh --save FILE     also write it to FILE as an OCI archive (to push it:
#                                 docs/deploying.md)
#   hack/image.sh --tag           print the tag and exit
#
# The Dockerfile's `FROM debian:bookworm` resolves to a local image made here: mmdebstrap builds a
# Debian 12 root file system (variant minbase) from the Debian mirror, and `podman import` makes it
# localhost/debian:bookworm, once (a re-run reuses it). The build stage compiles through a ccache
# kept in the cache directory and mounted at /ccache (not part of any layer). Files carry the time
# $SOURCE_DATE_EPOCH (default 0) so two builds of the same sources give the same image. podman runs
# with this machine's settings (hack/internal/podman.sh).
#
#   CTRL_IMAGE            the tag (default ctrl-operator:v<version>; podman stores it under localhost/)
#   CTRL_IMAGE_CACHE_DIR  the base file system, the compiler cache, podman's containers.conf
#                         (default ${XDG_CACHE_HOME:-~/.cache}/ctrl/image)
#   CTRL_DEBIAN_MIRROR    the Debian mirror for mmdebstrap (default http://deb.debian.org/debian)
#   CTRL_JOBS             parallel compile jobs in the build stage (default: ninja's)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PODMAN="${ROOT}/hack/internal/podman.sh"
CACHE_DIR="${CTRL_IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/ctrl/image}"
MIRROR="${CTRL_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
BASE_IMAGE=localhost/debian:bookworm

step() { echo "== image.sh: $*" >&2; }
die() { echo "image.sh: error: $*" >&2; exit 1; }

version="$(sed -n 's/^project(ctrl VERSION \([0-9.]*\).*/\1/p' "${ROOT}/CMakeLists.txt")"
[[ -n "${version}" ]] || die "no 'project(ctrl VERSION x.y.z' line in ${ROOT}/CMakeLists.txt"
IMAGE="${CTRL_IMAGE:-ctrl-operator:v${version}}"

save=""
while (($# > 0)); do
    case "$1" in
        --save) save="${2:?--save needs a file}"; shift 2 ;;
        --save=*) save="${1#*=}"; shift ;;
        --tag) echo "${IMAGE}"; exit 0 ;;
        -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "image.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ -z "${save}" || "${save}" == /* ]] || save="${PWD}/${save}"

command -v podman >/dev/null || die "podman is not installed (Debian package podman; hack/install-deps.sh installs it)"
command -v runc >/dev/null || die "runc is not installed (Debian package runc; hack/install-deps.sh installs it)"
mkdir -p "${CACHE_DIR}/ccache"
started=${SECONDS}

# --- the base image -----------------------------------------------------------------------------

if "${PODMAN}" image exists "${BASE_IMAGE}"; then
    step "base image ${BASE_IMAGE} present (made by an earlier run; \`podman rmi ${BASE_IMAGE}\` to make it afresh)"
else
    command -v mmdebstrap >/dev/null ||
        die "no base image ${BASE_IMAGE} and no mmdebstrap to make it (Debian package mmdebstrap; hack/install-deps.sh installs it)"
    rootfs="${CACHE_DIR}/debian-bookworm-minbase.tar"
    step "making ${BASE_IMAGE}: mmdebstrap --variant=minbase bookworm from ${MIRROR} (and -updates, -security)"
    security="${MIRROR%/debian}/debian-security"
    [[ "${MIRROR}" == */debian ]] || security="http://deb.debian.org/debian-security"
    if ! mmdebstrap --quiet --format=tar --variant=minbase bookworm "${rootfs}.new" \
        "deb ${MIRROR} bookworm main" "deb ${MIRROR} bookworm-updates main" \
        "deb ${security} bookworm-security main" >&2; then
        rm -f "${rootfs}.new"
        die "mmdebstrap could not build a Debian bookworm root file system from ${MIRROR} (output above)"
    fi
    mv -f "${rootfs}.new" "${rootfs}"
    "${PODMAN}" import --quiet \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' "${rootfs}" "${BASE_IMAGE}" >/dev/null ||
        die "podman import of ${rootfs} as ${BASE_IMAGE} failed (output above)"
    rm -f "${rootfs}"
fi

# --- the image ----------------------------------------------------------------------------------

step "building ${IMAGE} from ${ROOT}/Dockerfile (compiler cache ${CACHE_DIR}/ccache)"
build_args=()
[[ -n "${CTRL_JOBS:-}" ]] && build_args+=(--build-arg "CTRL_JOBS=${CTRL_JOBS}")
# --pull=never: every FROM is local; --network host: the build stage's apt-get reaches the mirror.
if ! "${PODMAN}" build --pull=never --network host --layers --timestamp "${SOURCE_DATE_EPOCH:-0}" \
    --volume "${CACHE_DIR}/ccache:/ccache" "${build_args[@]}" \
    --tag "${IMAGE}" --file "${ROOT}/Dockerfile" "${ROOT}" >&2; then
    die "podman build of ${ROOT}/Dockerfile failed (output above)"
fi
build_seconds=$((SECONDS - started))

id="$("${PODMAN}" image inspect --format '{{.Id}}' "${IMAGE}")"
size="$("${PODMAN}" image inspect --format '{{.Size}}' "${IMAGE}")"
step "built ${IMAGE} in ${build_seconds} s: image ${id:0:12}, $(numfmt --to=si --suffix=B "${size}") (${size} bytes)"
echo "Layers (newest first):" >&2
"${PODMAN}" history --format '  {{.ID}}  {{.Size}}  {{.CreatedBy}}' "${IMAGE}" >&2
echo "Contents (regular files):" >&2
container="$("${PODMAN}" create "${IMAGE}")"
"${PODMAN}" export "${container}" | tar -tv | awk '$1 ~ /^-/ {printf "  %10s  %s\n", $3, $6}' >&2
"${PODMAN}" rm "${container}" >/dev/null

if [[ -n "${save}" ]]; then
    rm -f "${save}"
    "${PODMAN}" save --quiet --format oci-archive --output "${save}" "${IMAGE}" ||
        die "podman save of ${IMAGE} to ${save} failed (output above)"
    step "saved ${IMAGE} to ${save} (OCI archive, $(du -h "${save}" | cut -f1))"
fi
echo "${IMAGE}"
