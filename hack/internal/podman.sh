#!/usr/bin/env bash
# podman with the settings the project's machines need, kept here and not in the machine's
# configuration: hack/image.sh, hack/run-local.sh --image and the image's e2e test run podman
# through this script (arguments as podman's).
#
#  - runc, not crun: crun refuses these machines' hybrid cgroups (v1 with a v2 mount);
#  - the cgroupfs cgroup manager: no systemd session to ask;
#  - no default ulimits: podman raises RLIMIT_NOFILE/NPROC for each container by default, which
#    the sandbox does not permit;
#  - events to a file: no journal;
#  - its own storage (images, layers, the local Debian base) under the cache directory below, not
#    /var/lib/containers: it lasts as long as ccache's objects and the control plane's binaries
#    (a CI machine keeps ~/.cache between runs), so an unchanged image is not rebuilt.
#
# The containers.conf holding them is written to $CTRL_IMAGE_CACHE_DIR (default
# ${XDG_CACHE_HOME:-~/.cache}/ctrl/image) and named by CONTAINERS_CONF for this podman only.
set -euo pipefail

if ! command -v podman >/dev/null; then
    echo "podman.sh: error: podman is not installed (Debian package podman; hack/install-deps.sh installs it)" >&2
    exit 127
fi
if ! command -v runc >/dev/null; then
    echo "podman.sh: error: runc is not installed (Debian package runc; hack/install-deps.sh installs it)" >&2
    exit 127
fi

cache_dir="${CTRL_IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME}/.cache}/ctrl/image}"
conf="${cache_dir}/containers.conf"
wanted='# Written by hack/internal/podman.sh (see there): the settings podman needs on these machines.
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"'
if [[ "$(cat "${conf}" 2>/dev/null)" != "${wanted}" ]]; then
    mkdir -p "${cache_dir}"
    # Written beside and renamed: a concurrent podman.sh reads the old file or the new one.
    tmp="$(mktemp "${conf}.XXXXXX")"
    printf '%s\n' "${wanted}" >"${tmp}"
    chmod 644 "${tmp}"
    mv -f "${tmp}" "${conf}"
fi
CONTAINERS_CONF="${conf}" exec podman --runtime runc --cgroup-manager cgroupfs \
    --root "${cache_dir}/storage" --runroot "${TMPDIR:-/tmp}/ctrl-podman-run-$(id -u)" "$@"
