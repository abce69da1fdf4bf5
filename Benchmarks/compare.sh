#!/usr/bin/env bash
# Times `cuekit` against the tools a user would otherwise pick, on the same generated files, pair by
# pair in one run (runs interleaved, so both sides see the same machine), and prints medians,
# ratios and peak resident memory (/usr/bin/time -v).
#
#   bash Benchmarks/compare.sh              # 1,000,000 cues; 3 runs a pair
#   CUES=100000 RUNS=5 bash Benchmarks/compare.sh
#   BIG=1 bash Benchmarks/compare.sh        # also the memory of convert and validate on a 1 GB file
#
# Peers are used when installed and skipped, saying so, when not: ffmpeg (Debian), webvtt-py,
# pysubs2, pycaption and ttconv (pip install webvtt-py pysubs2 pycaption ttconv). The floor is
# Benchmarks/Floor/split-blocks.c: a file cut into blocks at blank lines with memchr, in C.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cues=${CUES:-1000000}
runs=${RUNS:-3}
ttml_cues=${TTML_CUES:-100000}
ttconv_cues=${TTCONV_CUES:-1000}
python_cues=${PYTHON_CUES:-100000}
work=$(mktemp -d /tmp/cuekit-compare-XXXXXX)
trap 'rm -rf "$work"' EXIT

command -v /usr/bin/time >/dev/null || { echo "compare.sh needs /usr/bin/time (apt install time)" >&2; exit 2; }

echo "building cuekit (release) and the C floor..." >&2
swift build --package-path "$root" -c release --static-swift-stdlib --product cuekit >&2
cuekit="$root/.build/release/cuekit"
cc -O2 -o "$work/split-blocks" "$root/Benchmarks/Floor/split-blocks.c"

echo "generating $cues-cue files..." >&2
"$cuekit" generate --cues "$cues" --seed 7 --no-style-region -o "$work/track.vtt"
"$cuekit" generate --cues "$cues" --seed 7 --format srt -o "$work/track.srt"
"$cuekit" generate --cues "$ttml_cues" --seed 7 --format ttml -o "$work/track.ttml"
"$cuekit" generate --cues "$ttconv_cues" --seed 7 --format ttml -o "$work/small.ttml"
"$cuekit" generate --cues "$python_cues" --seed 7 --no-style-region -o "$work/python.vtt"
"$cuekit" generate --cues "$python_cues" --seed 7 --format srt -o "$work/python.srt"

has_python() { python3 -c "import $1" 2>/dev/null; }

# run NAME COMMAND...: one timed run; appends "seconds kilobytes" to $work/NAME.
run() {
    local name=$1
    shift
    if ! /usr/bin/time -f "%e %M" -o "$work/last" "$@" >/dev/null 2>"$work/stderr"; then
        echo "failed: $*" >&2
        cat "$work/stderr" >&2
        return 1
    fi
    cat "$work/last" >>"$work/$name"
}

# median NAME COLUMN: the median of a column (1 seconds, 2 kilobytes) of $work/NAME.
median() {
    sort -n -k"$2","$2" "$work/$1" | awk -v c="$2" '{ v[NR] = $c } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
}

rows=()
# pair LABEL CUEKIT_COMMAND -- PEER_LABEL PEER_COMMAND
pair() {
    local label=$1 peer_label
    shift
    local -a ours=() theirs=()
    while [[ $1 != "--" ]]; do ours+=("$1"); shift; done
    shift
    peer_label=$1
    shift
    theirs=("$@")
    local id
    id=$(echo "$label $peer_label" | tr -c 'a-zA-Z0-9' '_')
    rm -f "$work/$id.ours" "$work/$id.theirs"
    echo "timing: $label vs $peer_label" >&2
    for ((i = 0; i < runs; i++)); do
        run "$id.ours" "${ours[@]}"
        run "$id.theirs" "${theirs[@]}"
    done
    local a b ma mb
    a=$(median "$id.ours" 1)
    b=$(median "$id.theirs" 1)
    ma=$(median "$id.ours" 2)
    mb=$(median "$id.theirs" 2)
    rows+=("$(awk -v l="$label" -v p="$peer_label" -v a="$a" -v b="$b" -v ma="$ma" -v mb="$mb" 'BEGIN {
        r = (a > 0) ? b / a : 0
        printf "| %s | %.2f s | %.0f MB | %s | %.2f s | %.0f MB | %.1fx |", l, a, ma / 1024, p, b, mb / 1024, r }')")
}

size_mb=$(du -m "$work/track.vtt" | cut -f1)

pair "WebVTT read (cuekit validate)" "$cuekit" validate "$work/track.vtt" -- \
    "C floor: blocks with memchr" "$work/split-blocks" "$work/track.vtt"
# Statistics against validation, same input, same run: the ratio is inspect's time over validate's.
pair "WebVTT read (cuekit validate)" "$cuekit" validate "$work/track.vtt" -- \
    "cuekit inspect --stats" "$cuekit" inspect --stats "$work/track.vtt"
# TTML out against WebVTT out, same input, same run: the ratio is WebVTT's time over TTML's.
pair "WebVTT to TTML (cuekit convert --to ttml)" "$cuekit" convert "$work/track.vtt" -o "$work/cuekit.ttml" -- \
    "WebVTT to WebVTT (cuekit convert)" "$cuekit" convert "$work/track.vtt" -o "$work/cuekit.vtt"
if command -v ffmpeg >/dev/null; then
    pair "WebVTT read (cuekit validate)" "$cuekit" validate "$work/track.vtt" -- \
        "ffmpeg read and rewrite" ffmpeg -v error -y -i "$work/track.vtt" -f webvtt "$work/ffmpeg.vtt"
    pair "WebVTT to WebVTT (cuekit convert)" "$cuekit" convert "$work/track.vtt" -o "$work/cuekit.vtt" -- \
        "ffmpeg" ffmpeg -v error -y -i "$work/track.vtt" -f webvtt "$work/ffmpeg.vtt"
    pair "SubRip to WebVTT (cuekit convert)" "$cuekit" convert "$work/track.srt" -o "$work/cuekit-srt.vtt" -- \
        "ffmpeg" ffmpeg -v error -y -i "$work/track.srt" -f webvtt "$work/ffmpeg-srt.vtt"
    pair "WebVTT to TTML (cuekit convert --to ttml)" "$cuekit" convert "$work/track.vtt" -o "$work/cuekit.ttml" -- \
        "ffmpeg" ffmpeg -v error -y -i "$work/track.vtt" -f ttml "$work/ffmpeg.ttml"
else
    echo "skipped: ffmpeg is not installed (apt install ffmpeg)" >&2
fi
if has_python webvtt; then
    pair "WebVTT read, $python_cues cues (cuekit validate)" "$cuekit" validate "$work/python.vtt" -- \
        "webvtt-py read" python3 -c "import sys, webvtt; print(len(webvtt.read(sys.argv[1])))" "$work/python.vtt"
else
    echo "skipped: webvtt-py is not installed (pip install webvtt-py)" >&2
fi
if has_python pysubs2; then
    pair "WebVTT to WebVTT, $python_cues cues (cuekit convert)" "$cuekit" convert "$work/python.vtt" -o "$work/cuekit.vtt" -- \
        "pysubs2 load and save" python3 -c "import sys, pysubs2; pysubs2.load(sys.argv[1]).save(sys.argv[2], format_='vtt')" "$work/python.vtt" "$work/pysubs2.vtt"
    pair "SubRip to WebVTT, $python_cues cues (cuekit convert)" "$cuekit" convert "$work/python.srt" -o "$work/cuekit-srt.vtt" -- \
        "pysubs2 load and save" python3 -c "import sys, pysubs2; pysubs2.load(sys.argv[1]).save(sys.argv[2], format_='vtt')" "$work/python.srt" "$work/pysubs2-srt.vtt"
else
    echo "skipped: pysubs2 is not installed (pip install pysubs2)" >&2
fi
if has_python pycaption; then
    pair "WebVTT to WebVTT, $python_cues cues (cuekit convert)" "$cuekit" convert "$work/python.vtt" -o "$work/cuekit.vtt" -- \
        "pycaption read and write" python3 -c "import sys, pycaption; t = open(sys.argv[1], encoding='utf-8').read(); open(sys.argv[2], 'w').write(pycaption.WebVTTWriter().write(pycaption.WebVTTReader().read(t)))" "$work/python.vtt" "$work/pycaption.vtt"
else
    echo "skipped: pycaption is not installed (pip install pycaption)" >&2
fi
echo "timing: TTML to WebVTT, $ttml_cues cues" >&2
rm -f "$work/ttml"
for ((i = 0; i < runs; i++)); do run ttml "$cuekit" convert "$work/track.ttml" -o "$work/cuekit-ttml.vtt"; done
if command -v tt >/dev/null; then
    pair "TTML to WebVTT, $ttconv_cues cues (cuekit convert)" "$cuekit" convert "$work/small.ttml" -o "$work/cuekit-small.vtt" -- \
        "ttconv 'tt convert'" tt convert -i "$work/small.ttml" -o "$work/ttconv.vtt"
else
    echo "skipped: ttconv is not installed (pip install ttconv)" >&2
fi

echo
echo "CueKit against its peers: $cues cues ($size_mb MB of WebVTT), medians of $runs runs, on $(nproc) cores of $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "| task | cuekit | cuekit peak | peer | peer time | peer peak | cuekit is |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"

ttml_seconds=$(median ttml 1)
ttml_kb=$(median ttml 2)
awk -v n="$ttml_cues" -v s="$ttml_seconds" -v m="$ttml_kb" 'BEGIN { printf "\nTTML to WebVTT (cuekit convert): %.2f s for %d cues, %.0f cues/s, peak %.0f MB\n", s, n, n / s, m / 1024 }'

# Peak memory on a file ten times larger (and, with BIG=1, a 1 GB one): flat, not growing.
memory() {
    local count=$1
    "$cuekit" generate --cues "$count" --seed 7 -o "$work/memory.vtt"
    local mb
    mb=$(du -m "$work/memory.vtt" | cut -f1)
    /usr/bin/time -f "%M" -o "$work/convert.kb" "$cuekit" convert "$work/memory.vtt" -o "$work/memory-out.vtt" 2>/dev/null || true
    rm -f "$work/memory-out.vtt"
    /usr/bin/time -f "%M" -o "$work/validate.kb" "$cuekit" validate "$work/memory.vtt" >/dev/null 2>&1 || true
    echo "peak resident memory on $mb MB of WebVTT: convert $(($(tail -1 "$work/convert.kb") / 1024)) MB, validate $(($(tail -1 "$work/validate.kb") / 1024)) MB"
    rm -f "$work/memory.vtt"
}
echo
memory 1000000
if [[ ${BIG:-0} == 1 ]]; then
    free_mb=$(df -m --output=avail /tmp | tail -1)
    if ((free_mb > 3000)); then memory 10000000; else echo "skipped the 1 GB file: only $free_mb MB free in /tmp" >&2; fi
fi
