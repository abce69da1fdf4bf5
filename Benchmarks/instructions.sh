#!/usr/bin/env bash
# Instructions per cue for each of cuekit's paths, from valgrind's callgrind: a count that does not
# vary from run to run, unlike time on shared machines. Each path runs once, on files made by
# `cuekit generate --seed 7`, and its total instruction count (process start-up included) is divided
# by the file's cue count. TTML reading is also compared with `xmllint --stream --noout` on the same
# document (what libxml2 alone costs).
#
#   bash Benchmarks/instructions.sh               # 100,000 cues (TTML: 10,000)
#   CUES=20000 TTML_CUES=5000 bash Benchmarks/instructions.sh
#   bash Benchmarks/instructions.sh --check       # and fail past Benchmarks/instruction-ceilings.txt
#   MEASURED=counts.txt bash Benchmarks/instructions.sh   # and each row's key and count into counts.txt
#
# With --check (as .ci/run runs it), a path costing more instructions per cue than its ceiling
# fails the run: the counts do not vary, so a ceiling a little above today's count catches any
# change that makes a path slower. The ceilings are for the default sizes.
#
# Needs valgrind (apt install valgrind); xmllint (libxml2-utils) for the TTML floor.
set -euo pipefail

check=false
[[ "${1:-}" == "--check" ]] && check=true

root=$(cd "$(dirname "$0")/.." && pwd)
cues=${CUES:-100000}
ttml_cues=${TTML_CUES:-10000}
work=$(mktemp -d /tmp/cuekit-instructions-XXXXXX)
trap 'rm -rf "$work"' EXIT

command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (apt install valgrind)" >&2; exit 2; }
# The WebVTT reader's block scan and UTF-8 check take AVX2 where the processor has it (x86-64
# since about 2013), and the ceilings are counts on such a processor: elsewhere the counts are
# reported and the ceilings not enforced.
if $check && ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    echo "instructions.sh: this processor has no AVX2; the ceilings, set on one that has it, are not enforced" >&2
    check=false
fi
if $check && [[ "$cues" != 100000 || "$ttml_cues" != 10000 ]]; then
    echo "instructions.sh: --check compares with ceilings for the default sizes; unset CUES and TTML_CUES" >&2
    exit 2
fi

echo "building cuekit (release)..." >&2
swift build --package-path "$root" -c release --static-swift-stdlib --product cuekit >&2
# valgrind cannot read the Swift toolchain's debug information: a stripped copy is measured.
strip -o "$work/cuekit" "$root/.build/release/cuekit"
cuekit="$work/cuekit"

"$cuekit" generate --cues "$cues" --seed 7 --no-style-region -o "$work/track.vtt"
"$cuekit" generate --cues "$cues" --seed 7 --format srt -o "$work/track.srt"
"$cuekit" generate --cues "$ttml_cues" --seed 7 --format ttml -o "$work/track.ttml"
"$cuekit" generate --cues "$cues" --seed 7 --format ass -o "$work/track.ass"
"$cuekit" generate --cues "$cues" --seed 7 --format stl -o "$work/track.stl"
"$cuekit" generate --cues "$cues" --seed 7 --format scc -o "$work/track.scc"

# instructions COMMAND...: the total instruction count of one run.
# (The command's own exit status does not matter: a track with errors still exits 1.)
instructions() {
    rm -f "$work/callgrind.out"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/valgrind.log" || true
    if ! grep -q '^summary:' "$work/callgrind.out" 2>/dev/null; then
        echo "instructions.sh: valgrind measured nothing for: $*" >&2
        cat "$work/valgrind.log" >&2
        exit 2
    fi
    awk '/^summary:/ { print $2 }' "$work/callgrind.out"
}

ceilings="$root/Benchmarks/instruction-ceilings.txt"
over=0
declare -A measured

# row KEY LABEL CUES COMMAND...: one table row; with --check, KEY's ceiling is its limit.
row() {
    local key=$1 label=$2 count=$3
    shift 3
    local total per_cue ceiling
    total=$(instructions "$@")
    per_cue=$(awk -v t="$total" -v n="$count" 'BEGIN { printf "%.0f", t / n }')
    measured[$key]=$total
    # MEASURED=FILE: each row's key and count, one a line, for updating the ceilings' comments.
    [[ -n "${MEASURED:-}" ]] && echo "$key $per_cue" >>"$MEASURED"
    ceiling=$(awk -v k="$key" '$1 == k { print $2 }' "$ceilings")
    if $check && [[ -n "$ceiling" ]]; then
        local verdict="within"
        if ((per_cue > ceiling)); then verdict="**over**"; over=1; fi
        echo "| $label | $count | $per_cue | $ceiling ($verdict) |"
    else
        echo "| $label | $count | $per_cue |"
    fi
}

# table_header: the header of a table of rows, with a ceiling column under --check.
table_header() {
    if $check; then
        echo "| path | cues | instructions per cue | ceiling |"
        echo "| --- | --- | --- | --- |"
    else
        echo "| path | cues | instructions per cue |"
        echo "| --- | --- | --- |"
    fi
}

echo
table_header
row validate "validate WebVTT (cuekit validate)" "$cues" "$cuekit" validate "$work/track.vtt"
# The Netflix rules (English) besides: the findings printed are part of the cost.
row validate-qc "validate --qc netflix WebVTT" "$cues" "$cuekit" validate --qc netflix --language en "$work/track.vtt"
row inspect-stats "inspect --stats WebVTT" "$cues" "$cuekit" inspect --stats "$work/track.vtt"
row convert-webvtt "WebVTT to WebVTT (cuekit convert)" "$cues" "$cuekit" convert -q "$work/track.vtt" -o "$work/out.vtt"
row convert-subrip "SubRip to WebVTT" "$cues" "$cuekit" convert -q "$work/track.srt" -o "$work/out-srt.vtt"
row convert-ass "ASS to WebVTT" "$cues" "$cuekit" convert -q "$work/track.ass" -o "$work/out-ass.vtt"
row convert-stl "EBU-STL to WebVTT" "$cues" "$cuekit" convert -q "$work/track.stl" -o "$work/out-stl.vtt"
row read-scc "SCC to WebVTT" "$cues" "$cuekit" convert -q "$work/track.scc" -o "$work/out-scc.vtt"
row convert-to-ttml "WebVTT to TTML (IMSC 1.1)" "$cues" "$cuekit" convert -q "$work/track.vtt" -o "$work/out.ttml"
# HLS segments of 60 s (about one file per 16 cues): the cues' share, the files' own cost aside.
row segment-hls "WebVTT to HLS segments (cuekit segment, 60 s)" "$cues" "$cuekit" segment -q "$work/track.vtt" -o "$work/hls" --segment-duration 60
# Those segments read back as one track: each segment's reader, the maps, the repeats joined.
row read-hls "HLS playlist (60 s segments) to WebVTT" "$cues" "$cuekit" convert -q "$work/hls/subs.m3u8" -o "$work/out-hls.vtt"
# HLS segments of 6 s (the default), every one a byte range of one file: what each segment costs
# beyond its cues, with no file made for it. Then read back range by range.
row segment-hls-one-file "WebVTT to HLS segments in one file (6 s, --single-file)" "$cues" "$cuekit" segment -q "$work/track.vtt" -o "$work/hls-one" --single-file
row read-hls-one-file "HLS playlist of byte ranges (6 s) to WebVTT" "$cues" "$cuekit" convert -q "$work/hls-one/subs.m3u8" -o "$work/out-hls-one.vtt"
row convert-from-ttml "TTML to WebVTT" "$ttml_cues" "$cuekit" convert -q "$work/track.ttml" -o "$work/out-ttml.vtt"
if command -v xmllint >/dev/null; then
    row xmllint "TTML floor: xmllint --stream --noout" "$ttml_cues" "$(command -v xmllint)" --stream --noout "$work/track.ttml"
else
    echo "skipped: xmllint is not installed (apt install libxml2-utils)" >&2
fi

# The same paths on each shape of `cuekit generate --shape` (fewer cues, start-up included): a
# ceiling set on one shape must hold on the others. Keys are PATH@SHAPE.
shape_cues=${SHAPE_CUES:-20000}
shape_ttml_cues=${SHAPE_TTML_CUES:-5000}
echo
echo "Per shape ($shape_cues cues; TTML $shape_ttml_cues):"
echo
table_header
for shape in plain markup-heavy settings-heavy short-times crlf non-latin diagnostics; do
    "$cuekit" generate --cues "$shape_cues" --seed 7 --shape "$shape" --no-style-region -o "$work/$shape.vtt"
    row "validate@$shape" "validate, $shape" "$shape_cues" "$cuekit" validate "$work/$shape.vtt"
    row "inspect-stats@$shape" "inspect --stats, $shape" "$shape_cues" "$cuekit" inspect --stats "$work/$shape.vtt"
    row "convert-webvtt@$shape" "WebVTT to WebVTT, $shape" "$shape_cues" "$cuekit" convert -q "$work/$shape.vtt" -o "$work/out.vtt"
    row "convert-to-ttml@$shape" "WebVTT to TTML, $shape" "$shape_cues" "$cuekit" convert -q "$work/$shape.vtt" -o "$work/out.ttml"
    if [[ "$shape" != short-times ]]; then
        "$cuekit" generate --cues "$shape_cues" --seed 7 --shape "$shape" --format srt -o "$work/$shape.srt"
        row "convert-subrip@$shape" "SubRip to WebVTT, $shape" "$shape_cues" "$cuekit" convert -q "$work/$shape.srt" -o "$work/out-srt.vtt"
    fi
done
# A track the Netflix English rules find nothing in: what the rules cost beside validate, no
# finding printed (the target: at most 1.5 times validate).
"$cuekit" generate --cues "$shape_cues" --seed 7 --shape style-guide --no-style-region -o "$work/style-guide.vtt"
row "validate@style-guide" "validate, style-guide" "$shape_cues" "$cuekit" validate "$work/style-guide.vtt"
row "validate-qc@style-guide" "validate --qc netflix, style-guide (no finding)" "$shape_cues" "$cuekit" validate --qc netflix --language en "$work/style-guide.vtt"
for shape in styled timed-divs non-latin; do
    "$cuekit" generate --cues "$shape_ttml_cues" --seed 7 --shape "$shape" --format ttml -o "$work/$shape.ttml"
    row "convert-from-ttml@$shape" "TTML to WebVTT, $shape" "$shape_ttml_cues" "$cuekit" convert -q "$work/$shape.ttml" -o "$work/out-ttml.vtt"
    if command -v xmllint >/dev/null; then
        row "xmllint@$shape" "xmllint --stream, $shape" "$shape_ttml_cues" "$(command -v xmllint)" --stream --noout "$work/$shape.ttml"
        awk -v t="${measured[convert-from-ttml@$shape]}" -v x="${measured[xmllint@$shape]}" -v s="$shape" \
            'BEGIN { printf "TTML to WebVTT / xmllint --stream, %s: %.2f\n", s, t / x }' >&2
    fi
done

echo
# The ratios the README reports: the same file read by both commands (start-up included).
awk -v i="${measured[inspect-stats]}" -v v="${measured[validate]}" 'BEGIN { printf "inspect --stats / validate: %.2f\n", i / v }'
awk -v q="${measured[validate-qc]}" -v v="${measured[validate]}" 'BEGIN { printf "validate --qc netflix / validate: %.2f\n", q / v }'
awk -v q="${measured[validate-qc@style-guide]}" -v v="${measured[validate@style-guide]}" \
    'BEGIN { printf "validate --qc netflix / validate, style-guide (the rules alone): %.2f\n", q / v }'
if [[ -n "${measured[xmllint]:-}" ]]; then
    awk -v t="${measured[convert-from-ttml]}" -v x="${measured[xmllint]}" 'BEGIN { printf "TTML to WebVTT / xmllint --stream: %.2f\n", t / x }'
fi

if $check; then
    if ((over)); then
        echo "instructions.sh: a path costs more instructions per cue than its ceiling in $ceilings" >&2
        exit 1
    fi
    echo "instructions.sh: every path is within its ceiling" >&2
fi
