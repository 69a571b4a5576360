# The ctrl-operator image (manifests/manager/deployment.yaml runs it as ctrl-operator:latest).
#
#   docker build -t <registry>/ctrl-operator:<tag> .
#
# NOT BUILT OR TESTED IN THIS PROJECT'S CI: the machines it is developed on have no access to a
# container registry. It is kept minimal on purpose: the same Debian 12 packages and CMake build
# as hack/install-deps.sh and hack/build.sh, and a runtime stage with only the shared libraries
# the binary links (`ldd build/controllers/operator/ctrl-operator` lists them). See
# docs/deploying.md.

# --- build stage -----------------------------------------------------------------------------
FROM debian:bookworm AS build
# The build subset of hack/install-deps.sh's PACKAGES (no tests, clang, benchmarks or
# Prometheus): keep the two in step.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config ca-certificates \
      libboost1.74-all-dev libcpprest-dev libyaml-cpp-dev prometheus-cpp-dev \
      rapidjson-dev libsimdjson-dev libssl-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCTRL_BUILD_TESTS=OFF \
 && cmake --build build --target ctrl-operator \
 && strip build/controllers/operator/ctrl-operator

# --- runtime stage ---------------------------------------------------------------------------
FROM debian:bookworm-slim
# The runtime libraries of the build stage's -dev packages (Boost.Asio/Beast, RapidJSON and
# Boost.System 1.74 are header-only here); libstdc++ is in the base image.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates libssl3 libcpprest2.10 libyaml-cpp0.7 libprometheus-cpp-core1.0 \
      libsimdjson14 zlib1g libbrotli1 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/controllers/operator/ctrl-operator /usr/local/bin/ctrl-operator
# Non-root (the "nonroot" uid/gid of distroless images); the Deployment also sets runAsNonRoot.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/ctrl-operator"]
