#!/usr/bin/env bash
# Allocations of each 10,000-cue benchmark (the benchmark package's `mallocCountTotal`, p90 of its
# iterations) against the static thresholds in Benchmarks/Thresholds/: one file a benchmark, named
# as ordo-one/benchmark names them, holding that one metric. Allocation counts, unlike times, do
# not vary between runs, so a benchmark allocating more than 100 past its threshold (one allocation
# for every hundred cues) fails the check.
#
#   bash Benchmarks/allocations.sh            # check (as .ci/run runs it)
#   bash Benchmarks/allocations.sh --update   # write the thresholds from a run (allocation
#                                             # counts alone: see below)
#
# An improvement past the tolerance is reported and passes: lower the thresholds with --update.
set -euo pipefail
cd "$(dirname "$0")"

filter='.*10k.*'
if [[ "${1:-}" == "--update" ]]; then
    swift package --allow-writing-to-package-directory benchmark thresholds update --path "$PWD/Thresholds" \
        --target CueKitBenchmarks --filter "$filter" --no-progress
    # The tool writes every metric; time and memory vary between runs and machines: keep the
    # allocation counts alone. It also writes the names with `_` for spaces, where the check
    # looks for the names as they are (no benchmark name holds a `_`).
    python3 - <<'PY'
import glob, json, os
for path in glob.glob("Thresholds/*_*.json"):
    with open(path) as file:
        count = json.load(file)["mallocCountTotal"]
    os.remove(path)
    with open(path.replace("_", " "), "w") as file:
        file.write(json.dumps({"mallocCountTotal": count}, indent=2) + "\n")
PY
    exit 0
fi

# `swift package` exits with 1 whatever the tool's own status was (2 for a regression, 4 for an
# improvement), so the verdict is read from the tool's last words.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift package benchmark thresholds check --target CueKitBenchmarks --filter "$filter" --path "$PWD/Thresholds" --no-progress 2>&1 \
    | tee "$log" || status=$?
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "allocations.sh: a benchmark allocates more than its threshold" >&2
    exit 1
elif grep -q "is BETTER than the defined thresholds" "$log"; then
    echo "allocations.sh: some benchmarks allocate less than their thresholds; lower them (bash Benchmarks/allocations.sh --update)" >&2
elif grep -q "is EQUAL to the defined thresholds" "$log"; then
    echo "allocations.sh: every benchmark allocates what its threshold says" >&2
else
    echo "allocations.sh: the benchmarks did not run to a verdict (exit $status)" >&2
    exit 1
fi
