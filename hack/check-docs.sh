#!/usr/bin/env bash
# Checks that the docs describe the tree as it is and stand on their own:
#  (a) every repository path docs/architecture.md names in backticks exists: words starting with
#      runtime/, controllers/, examples/, tools/, test/, hack/, manifests/, docs/, cmake/ or include/
#      (a trailing / means a directory; *, ? and [...] are globs that must match something; one
#      {a,b} group is expanded; a word holding a <placeholder> is a pattern, not a path, and skipped);
#  (b) every directory directly under runtime/ is named in docs/architecture.md as `runtime/<dir>/`;
#  (c) nothing in the tracked (or new, not ignored) .md, .cpp, .hpp, .sh, .txt, .cmake or .py files
#      points at the house plan or the notes kept outside the repository;
#  (d) the table of waits in docs/decisions.md (decision 58) names exactly the lines under runtime/
#      that sleep (`runtime/FILE:LINE`), so a new sleep says there why it is not a poll.
#
#   hack/check-docs.sh           check this checkout
#   hack/check-docs.sh DIR       check the tree at DIR (a checkout, or a copy of one)
#
# Prints each problem on its own line and exits 1 if there is any; prints "check-docs: ok" otherwise.
set -euo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
ROOT="$(cd "${ROOT}" && pwd)"
MAP="docs/architecture.md"
problems=0
problem() {
    echo "check-docs: $*" >&2
    problems=$((problems + 1))
}

[[ -f "${ROOT}/${MAP}" ]] || { echo "check-docs: ${ROOT}/${MAP} is missing" >&2; exit 1; }

# The words of the map's backticked spans, one per line. Fenced code blocks are dropped first (their
# backticks are fences, not spans); a span may run over a line break.
map_words() {
    awk '/^[[:space:]]*```/ { fenced = !fenced; next } !fenced' "${ROOT}/${MAP}" |
        tr '\n' ' ' |
        grep -o '`[^`]*`' |
        tr -d '`' |
        tr -s ' \t' '\n\n'
}

# Does the path (relative to ROOT) exist? A trailing / asks for a directory; globs must match.
path_exists() {
    local path="$1" target="${ROOT}/$1"
    if [[ "${path}" == *[\*\?\[]* ]]; then
        local matches=()
        mapfile -t matches < <(compgen -G "${target}" || true)
        ((${#matches[@]} > 0)) || return 1
        if [[ "${path}" == */ ]]; then
            local m
            for m in "${matches[@]}"; do [[ -d "${m}" ]] && return 0; done
            return 1
        fi
        return 0
    fi
    if [[ "${path}" == */ ]]; then
        [[ -d "${target}" ]]
    else
        [[ -e "${target}" ]]
    fi
}

# (a) the paths the map names.
prefixes='^(runtime|controllers|examples|tools|test|hack|manifests|docs|cmake|include)/'
declare -A seen=()
while IFS= read -r word; do
    # Punctuation that ends a sentence or a list is not part of a path.
    word="${word%%[,;:.)]}"
    word="${word#(}"
    [[ "${word}" =~ ${prefixes} ]] || continue
    [[ "${word}" == *"<"* || "${word}" == *">"* ]] && continue
    [[ -n "${seen[${word}]:-}" ]] && continue
    seen["${word}"]=1
    candidates=("${word}")
    if [[ "${word}" =~ ^(.*)\{([^{}]*)\}(.*)$ ]]; then
        candidates=()
        IFS=',' read -r -a alternatives <<<"${BASH_REMATCH[2]}"
        for alternative in "${alternatives[@]}"; do
            candidates+=("${BASH_REMATCH[1]}${alternative}${BASH_REMATCH[3]}")
        done
    fi
    for candidate in "${candidates[@]}"; do
        path_exists "${candidate}" || problem "${MAP} names \`${candidate}\`, which does not exist"
    done
done < <(map_words)

# (b) every folder of runtime/ is on the map.
for dir in "${ROOT}"/runtime/*/; do
    [[ -d "${dir}" ]] || continue
    name="$(basename "${dir}")"
    grep -qF "\`runtime/${name}/\`" "${ROOT}/${MAP}" ||
        problem "${MAP} does not name the folder \`runtime/${name}/\`"
done

# (c) nothing points outside the repository. The patterns are spelled so that this file does not
# match them itself.
plan="DESIGN"
outside="shared[/]\|${plan}[.]md\|notes[/][a-z_-]*[.]md"
types=('*.md' '*.cpp' '*.hpp' '*.sh' '*.txt' '*.cmake' '*.py')
if git -C "${ROOT}" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits="$(git -C "${ROOT}" grep -n --untracked -e "${outside}" -- "${types[@]}" || true)"
else
    includes=()
    for type in "${types[@]}"; do includes+=("--include=${type}"); done
    hits="$(cd "${ROOT}" && grep -rn "${includes[@]}" --exclude-dir=.git --exclude-dir='build*' \
        -e "${outside}" . | sed 's|^\./||' || true)"
fi
if [[ -n "${hits}" ]]; then
    while IFS= read -r hit; do
        problem "points outside the repository (say it in docs/ instead): ${hit}"
    done <<<"${hits}"
fi

# (d) every sleep under runtime/ is in decision 58's table, and the table names only sleeps.
DECISIONS="docs/decisions.md"
sleeps="$(cd "${ROOT}" && grep -rnE "SleepFor|sleep_for|usleep|std::this_thread::sleep" runtime/ |
    cut -d: -f1,2 | sort -u || true)"
listed="$(awk '/^### 58\./ { on = 1; next } /^### / { on = 0 } on' "${ROOT}/${DECISIONS}" |
    grep -o '`runtime/[^`]*:[0-9]*`' | tr -d '`' | sort -u || true)"
while IFS= read -r line; do
    [[ -n "${line}" ]] || continue
    problem "${line} sleeps and decision 58's table in ${DECISIONS} does not say why it is not a poll"
done < <(comm -23 <(echo "${sleeps}") <(echo "${listed}"))
while IFS= read -r line; do
    [[ -n "${line}" ]] || continue
    problem "decision 58's table in ${DECISIONS} names ${line}, which does not sleep (moved?)"
done < <(comm -13 <(echo "${sleeps}") <(echo "${listed}"))

if ((problems > 0)); then
    echo "check-docs: ${problems} problem(s)" >&2
    exit 1
fi
echo "check-docs: ok"
