#!/usr/bin/env bash
# Instructions per cue for each of cuekit's paths, from valgrind's callgrind: a count that does not
# vary from run to run, unlike time on shared machines. Each path runs once, on files made by
# `cuekit generate --seed 7`, and its total instruction count (process start-up included) is divided
# by the file's cue count. TTML reading is also compared with `xmllint --stream --noout` on the same
# document (what libxml2 alone costs).
#
#   bash Benchmarks/instructions.sh               # 100,000 cues (TTML: 10,000)
#   CUES=20000 TTML_CUES=5000 bash Benchmarks/instructions.sh
#
# Needs valgrind (apt install valgrind); xmllint (libxml2-utils) for the TTML floor.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cues=${CUES:-100000}
ttml_cues=${TTML_CUES:-10000}
work=$(mktemp -d /tmp/cuekit-instructions-XXXXXX)
trap 'rm -rf "$work"' EXIT

command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (apt install valgrind)" >&2; exit 2; }

echo "building cuekit (release)..." >&2
swift build --package-path "$root" -c release --product cuekit >&2
# valgrind cannot read the Swift toolchain's debug information: a stripped copy is measured.
strip -o "$work/cuekit" "$root/.build/release/cuekit"
cuekit="$work/cuekit"

"$cuekit" generate --cues "$cues" --seed 7 --no-style-region -o "$work/track.vtt"
"$cuekit" generate --cues "$cues" --seed 7 --format srt -o "$work/track.srt"
"$cuekit" generate --cues "$ttml_cues" --seed 7 --format ttml -o "$work/track.ttml"

# instructions COMMAND...: the total instruction count of one run.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/valgrind.log" || true
    awk '/^summary:/ { print $2 }' "$work/callgrind.out"
}

row() {
    local label=$1 count=$2
    shift 2
    local total
    total=$(instructions "$@")
    awk -v l="$label" -v t="$total" -v n="$count" 'BEGIN { printf "| %s | %d | %.0f |\n", l, n, t / n }'
}

echo
echo "| path | cues | instructions per cue |"
echo "| --- | --- | --- |"
row "validate WebVTT (cuekit validate)" "$cues" "$cuekit" validate "$work/track.vtt"
row "inspect --stats WebVTT" "$cues" "$cuekit" inspect --stats "$work/track.vtt"
row "WebVTT to WebVTT (cuekit convert)" "$cues" "$cuekit" convert -q "$work/track.vtt" -o "$work/out.vtt"
row "SubRip to WebVTT" "$cues" "$cuekit" convert -q "$work/track.srt" -o "$work/out-srt.vtt"
row "WebVTT to TTML (IMSC 1.1)" "$cues" "$cuekit" convert -q "$work/track.vtt" -o "$work/out.ttml"
row "TTML to WebVTT" "$ttml_cues" "$cuekit" convert -q "$work/track.ttml" -o "$work/out-ttml.vtt"
if command -v xmllint >/dev/null; then
    row "TTML floor: xmllint --stream --noout" "$ttml_cues" "$(command -v xmllint)" --stream --noout "$work/track.ttml"
else
    echo "skipped: xmllint is not installed (apt install libxml2-utils)" >&2
fi
