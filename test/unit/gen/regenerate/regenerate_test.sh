#!/usr/bin/env bash
# Regeneration on a CRD edit, as an author's build meets it (ctest gen_regenerate_on_crd_edit, label
# tool): a project using ctrl_generate_kinds builds; a build with nothing changed does nothing; after a
# field is added to the CRD, the build runs ctrl-gen again, the header gains the new accessor and a
# source using it compiles; a CRD edit that changes no generated file recompiles nothing.
#   regenerate_test.sh CTRL_SOURCE_DIR CTRL_GEN_EXECUTABLE CXX_COMPILER
set -euo pipefail
source_dir="$1" generator="$2" compiler="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "regenerate_test: FAIL: $*" >&2; exit 1; }

mkdir "${work}/src"
cp "${here}/CMakeLists.txt" "${work}/src/"
cp "${source_dir}/test/unit/gen/testdata/crds/nested.yaml" "${work}/src/widget.yaml"
cat >"${work}/src/use_widget.cpp" <<'CPP'
#include "regen/widget.hpp"
int64_t SizeOf(const regen::v1::Widget& widget) { return widget.Spec().Size(); }
CPP
generator_args=()
command -v ninja >/dev/null && generator_args=(-G Ninja)
cmake -S "${work}/src" -B "${work}/build" "${generator_args[@]}" -DCTRL_SOURCE_DIR="${source_dir}" \
    -DCTRL_GEN_EXECUTABLE="${generator}" -DCMAKE_CXX_COMPILER="${compiler}" >/dev/null
header="${work}/build/ctrl-gen/widgets/regen/widget.hpp"

build() { cmake --build "${work}/build" 2>&1 | tee "${work}/build.log"; }
build >/dev/null || { cat "${work}/build.log"; fail "the first build failed"; }
[[ -f "${header}" ]] || fail "no ${header} after the first build"
grep -q "Replicas()" "${header}" && fail "the header has Replicas() before the CRD has the field"
before="$(stat -c %Y.%s "${header}")"
cp "${header}" "${work}/widget.hpp.before"

build >/dev/null || fail "the second build failed"
grep -q "ctrl-gen:" "${work}/build.log" && fail "a build with nothing changed ran ctrl-gen again"

# An edit that generates the same code (a comment) runs ctrl-gen, rewrites nothing, compiles nothing.
sleep 1
echo "# a comment" >>"${work}/src/widget.yaml"
build >/dev/null || fail "the build after a comment failed"
grep -q "ctrl-gen:" "${work}/build.log" || fail "a changed CRD did not run ctrl-gen"
grep -q "Building CXX" "${work}/build.log" && fail "a CRD edit that changes no generated file recompiled: $(cat "${work}/build.log")"
[[ "$(stat -c %Y.%s "${header}")" == "${before}" ]] || fail "an unchanged header was rewritten"

# Add spec.replicas (an integer with an enum) and use its accessor and constants.
sleep 1
python3 - "${work}/src/widget.yaml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = "              properties:\n                size:\n"
assert anchor in text
text = text.replace(anchor, "              properties:\n                replicas:\n                  type: integer\n"
                            "                  enum: [1, 3]\n                size:\n", 1)
open(path, "w").write(text)
PY
cat >"${work}/src/use_widget.cpp" <<'CPP'
#include "regen/widget.hpp"
int64_t SizeOf(const regen::v1::Widget& widget) { return widget.Spec().Size(); }
bool Triple(regen::v1::Widget& widget) {
    widget.MutableSpec().SetReplicas(regen::v1::WidgetSpecReplicas::k3);
    return widget.Spec().Replicas() == regen::v1::WidgetSpecReplicas::k3;
}
CPP
build >/dev/null || { cat "${work}/build.log"; fail "the build after adding spec.replicas failed"; }
grep -q "ctrl-gen:" "${work}/build.log" || fail "adding a field to the CRD did not run ctrl-gen"
grep -q "std::optional<int64_t> Replicas() const;" "${header}" || fail "the header has no Replicas() accessor"
grep -q "struct WidgetSpecReplicas" "${header}" || fail "the header has no WidgetSpecReplicas constants"
[[ "$(stat -c %Y.%s "${header}")" != "${before}" ]] || fail "the header was not rewritten"
echo "regenerate_test: the header after adding spec.replicas:"
diff "${work}/widget.hpp.before" "${header}" | head -40 || true
echo "regenerate_test: a CRD edit regenerates the kind, and only when the output changes is anything rebuilt"
