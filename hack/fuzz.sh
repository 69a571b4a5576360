#!/usr/bin/env bash
# Fuzzes the runtime's parsers with libFuzzer: clang 19, AddressSanitizer + UndefinedBehaviorSanitizer,
# every target instrumented, in build-fuzz. The targets and what each checks: test/fuzz/*_fuzz.cpp;
# their corpus: test/fuzz/corpus/<target> (docs/reliability.md, "Fuzzing").
#
#   hack/fuzz.sh                     every target, 1,000,000 runs each; the inputs that found
#                                    coverage the corpus lacks are added to it
#   hack/fuzz.sh --runs N            N runs per target
#   hack/fuzz.sh --time S            S seconds per target instead of a run count
#   hack/fuzz.sh --brief             CI: replay each corpus, then 20 s of fuzzing per target from a fixed
#                                    seed; the corpus is left alone
#   hack/fuzz.sh --no-merge          leave the corpus alone
#   hack/fuzz.sh --unit-tests        also build every unit test in the same build (clang 19, ASan +
#                                    UBSan, -Werror) and run them before fuzzing: CI's one clang
#                                    build, for the second compiler and the fuzz targets at once
#   hack/fuzz.sh TARGET...           only these targets (object_json watch_decoder selectors kubeconfig
#                                    discovery patch protobuf cel admission_review conversion_review)
#   CTRL_FUZZ_BUILD_DIR=DIR          build directory (default: build-fuzz)
#   CTRL_CLANG_CXX=clang++-NN        another clang (default: clang++-19)
#
# A crash, a leak, a sanitizer report, a timeout or a failed property stops the target, keeps the
# input under DIR/artifacts/<target>/ and makes the script exit 1 once every target has run. The
# summary (runs, seconds, coverage, features, corpus size per target) is printed last and written
# to DIR/fuzz-summary.txt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_FUZZ_BUILD_DIR:-${ROOT}/build-fuzz}"
CLANG_CXX="${CTRL_CLANG_CXX:-clang++-19}"
JOBS="${CTRL_JOBS:-$(nproc)}"
ALL_TARGETS=(object_json watch_decoder selectors kubeconfig discovery patch protobuf cel admission_review conversion_review)
step() { echo "== fuzz.sh: $*" >&2; }
die() { echo "fuzz.sh: $*" >&2; exit 2; }

runs=1000000
seconds=""
merge=1
unit_tests=0
seed=()
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a count}"; seconds=""; shift 2 ;;
        --time) seconds="${2:?--time needs seconds}"; shift 2 ;;
        --brief) seconds=20; merge=0; seed=(-seed=1); shift ;;
        --no-merge) merge=0; shift ;;
        --unit-tests) unit_tests=1; shift ;;
        -h | --help) sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *)
            [[ " ${ALL_TARGETS[*]} " == *" $1 "* ]] || die "unknown target $1 (targets: ${ALL_TARGETS[*]})"
            targets+=("$1"); shift ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL_TARGETS[@]}")
[[ "${runs}" =~ ^[0-9]+$ ]] || die "--runs wants a number, got ${runs}"
[[ -z "${seconds}" || "${seconds}" =~ ^[0-9]+$ ]] || die "--time wants seconds, got ${seconds}"
command -v "${CLANG_CXX}" >/dev/null || die "${CLANG_CXX} is missing; run hack/install-deps.sh"

step "configuring ${BUILD_DIR} (${CLANG_CXX}, libFuzzer, address,undefined)"
# CMakeLists.txt gives it to the compiler relative to the build directory, so that ccache's keys
# do not hold the checkout's path (ccache hashes this option as written).
ignorelist="${ROOT}/hack/internal/ubsan-fuzz-ignore.txt"
source "${ROOT}/hack/internal/ccache.sh"
generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
# RelWithDebInfo: clang at -O0 crashes inside Debian's Boost.Asio (docs/decisions.md, decision 41).
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" -DCMAKE_CXX_COMPILER="${CLANG_CXX}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCTRL_WERROR=ON -DCTRL_BUILD_INTEGRATION=OFF -DCTRL_BUILD_FUZZ=ON \
    -DCTRL_SANITIZE=address,undefined -DCTRL_SANITIZE_IGNORELIST="${ignorelist}" \
    >/dev/null
build_targets=(fuzz_targets)
[[ "${unit_tests}" == 1 ]] && build_targets+=(unit_tests)
step "building ${build_targets[*]}"
cmake --build "${BUILD_DIR}" -j "${JOBS}" --target "${build_targets[@]}"

symbolizer="$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || true)"
export ASAN_OPTIONS="detect_leaks=1:external_symbolizer_path=${symbolizer}${ASAN_OPTIONS:+:${ASAN_OPTIONS}}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:external_symbolizer_path=${symbolizer}${UBSAN_OPTIONS:+:${UBSAN_OPTIONS}}"
failed=0
unit_failed=0
if [[ "${unit_tests}" == 1 ]]; then
    step "running the unit tests (and each corpus's replay) built by ${CLANG_CXX} with ASan + UBSan"
    ctest --test-dir "${BUILD_DIR}" -j "${JOBS}" -L unit --output-on-failure --no-tests=error || unit_failed=1
fi
summary="${BUILD_DIR}/fuzz-summary.txt"
printf '%-14s %10s %8s %7s %8s %7s  %s\n' target runs seconds cov features corpus result >"${summary}"
for target in "${targets[@]}"; do
    binary="${BUILD_DIR}/test/fuzz/fuzz_${target}"
    corpus="${ROOT}/test/fuzz/corpus/${target}"
    work="${BUILD_DIR}/fuzz-work/${target}"
    artifacts="${BUILD_DIR}/artifacts/${target}/"
    log="${BUILD_DIR}/fuzz-${target}.log"
    mkdir -p "${work}" "${artifacts}"
    limit=(-runs="${runs}")
    [[ -n "${seconds}" ]] && limit=(-max_total_time="${seconds}")
    step "${target}: ${limit[*]} (log ${log})"
    # New inputs go into the first directory (work), never straight into the source tree.
    started=${SECONDS}
    result=ok
    "${binary}" "${limit[@]}" "${seed[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="${artifacts}" \
        "${work}" "${corpus}" >"${log}" 2>&1 || result=FAILED
    elapsed=$((SECONDS - started))
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "${log}" | tail -1 || true)"
    executed="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -1)"
    cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"${done_line}")"
    features="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"${done_line}")"
    if [[ "${result}" == FAILED ]]; then
        failed=1
        echo "fuzz.sh: ${target} failed; the end of its log (${log}):" >&2
        tail -40 "${log}" >&2
        echo "fuzz.sh: the input is kept in ${artifacts}; add it to ${corpus} once fixed" >&2
    elif [[ "${merge}" == 1 ]]; then
        # Into the corpus go only this run's inputs that reach code it does not (edges, not hit
        # counts, so it stays small; named by their SHA-1); the inputs already there, the named
        # seeds among them, stay.
        "${binary}" -merge=1 -use_counters=0 -timeout=10 "${corpus}" "${work}" >>"${log}" 2>&1 ||
            { echo "fuzz.sh: merging the corpus of ${target} failed (${log})" >&2; exit 1; }
    fi
    corpus_size="$(find "${corpus}" -type f | wc -l)"
    printf '%-14s %10s %8s %7s %8s %7s  %s\n' "${target}" "${executed:-?}" "${elapsed}" "${cov:-?}" "${features:-?}" \
        "${corpus_size}" "${result}" >>"${summary}"
done
cat "${summary}"
if [[ "${unit_failed}" == 1 ]]; then
    echo "fuzz.sh: unit tests failed in ${BUILD_DIR} (their output is above the fuzzing)" >&2
    failed=1
fi
exit "${failed}"
