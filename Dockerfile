# The ctrl-operator image (manifests/manager/deployment.yaml runs it as ctrl-operator:v0.1.0).
#
#   hack/image.sh                     builds it with podman, without a registry (docs/deploying.md)
#   docker build -t <registry>/ctrl-operator:<tag> .     the same with Docker and Docker Hub's debian
#
# Built and run by the e2e tests (ctest test operator_image_e2e_test, through hack/image.sh). Two
# stages: the build stage compiles the operator with the same Debian 12 packages and CMake build as
# hack/install-deps.sh and hack/build.sh, then gathers into /rootfs everything the binary needs at
# run time; the runtime stage is scratch holding only that /rootfs (docs/decisions.md, 74):
#   /usr/local/bin/ctrl-operator      stripped
#   the shared libraries `ldd` lists  at the paths ldd names (the loader, libc, libstdc++, OpenSSL,
#                                     cpprest, yaml-cpp, prometheus-cpp, simdjson, zlib, brotli...)
#   /etc/ssl/certs/ca-certificates.crt
#   /etc/passwd, /etc/group           user and group nonroot, 65532 (as distroless images)
# No shell, no package manager, no /tmp: the operator writes nothing to its file system.

# --- build stage -----------------------------------------------------------------------------
FROM debian:bookworm AS build
# The build subset of hack/install-deps.sh's PACKAGES (no tests, clang, benchmarks or
# Prometheus): keep the two in step. ccache: hack/image.sh mounts a compiler cache at /ccache.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config ca-certificates ccache \
      libboost1.74-all-dev libcpprest-dev libyaml-cpp-dev prometheus-cpp-dev \
      rapidjson-dev libsimdjson-dev libssl-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# With a writable /ccache (hack/image.sh: `podman build --volume <cache>:/ccache`) the compiler
# goes through ccache there; without one (a plain `docker build`) it compiles everything. Either
# way the objects are removed in the same step: the layer keeps only /rootfs.
ARG CTRL_JOBS=
RUN set -eu; \
    launcher=""; \
    if [ -d /ccache ] && [ -w /ccache ]; then \
      export CCACHE_DIR=/ccache CCACHE_BASEDIR=/src CCACHE_MAXSIZE=3G; \
      launcher=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache; \
    fi; \
    cmake -S . -B /tmp/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCTRL_BUILD_TESTS=OFF ${launcher} >/dev/null; \
    cmake --build /tmp/build --target ctrl-operator ${CTRL_JOBS:+-j ${CTRL_JOBS}}; \
    bin=/tmp/build/controllers/operator/ctrl-operator; \
    mkdir -p /rootfs/usr/local/bin /rootfs/etc/ssl/certs; \
    strip -o /rootfs/usr/local/bin/ctrl-operator "${bin}"; \
    for lib in $(ldd "${bin}" | grep -o '/[^ ]*'); do cp --parents -L "${lib}" /rootfs; done; \
    cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/; \
    echo 'nonroot:x:65532:65532:nonroot:/:/sbin/nologin' >/rootfs/etc/passwd; \
    echo 'nonroot:x:65532:' >/rootfs/etc/group; \
    rm -rf /tmp/build

# --- runtime stage ---------------------------------------------------------------------------
FROM scratch
COPY --from=build /rootfs/ /
# Non-root (the "nonroot" uid/gid of distroless images); the Deployment also sets runAsNonRoot.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/ctrl-operator"]
