#!/usr/bin/env bash
# Builds CueKit's libFuzzer targets and runs them.
#
#   Tests/Fuzz/run.sh TARGET SECONDS     one target: webvtt, cuetext, ttml, subrip, cast, scc,
#                                        stl, ass, hls
#   Tests/Fuzz/run.sh all SECONDS        every target, one after the other, SECONDS each
#
# Each target has a dictionary of its format's tokens in Tests/Fuzz/Dictionaries (time
# expressions, tags, settings) so that mutations build structure, not noise. Tests/Fuzz/Corpus/TARGET
# holds what earlier long runs found, merged down to the inputs that add coverage (read, never
# written, by a run). Seed corpora are built at run time from Fixtures/ (the vendored conformance suites included) into
# Tests/Fuzz/.work/corpus/TARGET, which keeps what the fuzzer finds between runs. A crash, a hang
# (an input taking over FUZZ_TIMEOUT seconds), a leak or an input using over FUZZ_RSS_MB megabytes
# is written to Tests/Fuzz/.work/crashes/TARGET/ and makes the script exit 1.
# Environment: FUZZ_JOBS (parallel workers per target, default 1), FUZZ_TIMEOUT (default 10),
# FUZZ_RSS_MB (default 2048), FUZZ_MAX_LEN (default 65536); FUZZ_BIN (a folder of targets built
# before: skips the build).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$here/.work"
conformance="$root/Fixtures/conformance"

usage() { echo "usage: $0 webvtt|cuetext|ttml|subrip|cast|scc|stl|ass|hls|all SECONDS" >&2; exit 2; }
[[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || usage

all_targets=(webvtt cuetext ttml subrip cast scc stl ass hls)
case $1 in
    all) targets=("${all_targets[@]}") ;;
    webvtt|cuetext|ttml|subrip|cast|scc|stl|ass|hls) targets=("$1") ;;
    *) usage ;;
esac
seconds=$2

executable() {
    case $1 in
        webvtt) echo FuzzWebVTT ;; cuetext) echo FuzzCueText ;; ttml) echo FuzzTTML ;;
        subrip) echo FuzzSubRip ;; cast) echo FuzzCastJSON ;; scc) echo FuzzSCC ;;
        stl) echo FuzzEBUSTL ;; ass) echo FuzzASS ;; hls) echo FuzzHLSPlaylist ;;
    esac
}

build() {
    echo "fuzz: building (release, -sanitize=fuzzer,address; C targets too)" >&2
    swift build --package-path "$here" -c release \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -g -Xswiftc -use-ld=lld \
        -Xcc -fsanitize=fuzzer-no-link,address >&2
}

# Copies each file found under the given folders with the given suffixes into the corpus folder,
# with a first byte prepended when the target reads one (the chunk size, options).
seed_files() {
    local corpus=$1 prefix=$2 suffixes=$3; shift 3
    local folder file name
    for folder in "$@"; do
        [[ -d $folder ]] || continue
        while IFS= read -r -d '' file; do
            name="seed-$(printf '%s' "$file" | cksum | cut -d' ' -f1)"
            if [[ -n $prefix ]]; then
                { printf "\\x$prefix"; cat "$file"; } > "$corpus/$name"
            else
                cp "$file" "$corpus/$name"
            fi
        done < <(find "$folder" -type f -regextype posix-extended -regex ".*\\.($suffixes)" -size -256k -print0)
    done
}

seed() {
    local target=$1 corpus="$work/corpus/$1"
    mkdir -p "$corpus"
    case $target in
        webvtt) seed_files "$corpus" 0f 'vtt' "$root/Fixtures" "$conformance/webvtt" ;;
        subrip) seed_files "$corpus" 07 'srt' "$root/Fixtures" "$conformance/ttml" ;;
        ttml) seed_files "$corpus" 3f 'ttml|xml|dfxp' "$root/Fixtures" "$conformance/ttml" ;;
        cast) seed_files "$corpus" '' 'json' "$root/Fixtures/cast" ;;
        scc) seed_files "$corpus" 07 'scc' "$root/Fixtures" ;;
        stl) seed_files "$corpus" 0f 'stl' "$root/Fixtures" ;;
        ass) seed_files "$corpus" 07 'ass|ssa' "$root/Fixtures" ;;
        hls)
            printf '#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.000,\n#EXT-X-BYTERANGE:120@0\nsubs.vtt\n#EXTINF:5.5,\n#EXT-X-BYTERANGE:80\nsubs.vtt\n#EXT-X-ENDLIST\n' > "$corpus/seed-media"
            printf '#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="en.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"\nlow.m3u8\n' > "$corpus/seed-multivariant"
            ;;
        cuetext)
            # The cue text inputs of web-platform-tests' cue text parsing suite, one file each.
            if [[ -d $conformance/webvtt/cue-text-parsing ]] && command -v python3 >/dev/null; then
                python3 - "$conformance/webvtt/cue-text-parsing" "$corpus" <<'PY'
import json, pathlib, sys, hashlib
source, corpus = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in source.glob("*.json"):
    for test in json.loads(path.read_text()).get("tests", []):
        data = test["input"].encode("utf-8", "surrogatepass")
        (corpus / ("seed-" + hashlib.sha1(data).hexdigest())).write_bytes(data)
PY
            fi
            printf '<c.a.b><i>x</i> <v Roger>y</v> <ruby>z<rt>w</rt></ruby> &amp; <00:00:01.000></c>' > "$corpus/seed-tags"
            ;;
    esac
    if [[ -z $(ls -A "$corpus") ]]; then printf 'WEBVTT\n' > "$corpus/seed-minimal"; fi
}

run() {
    local target=$1 binary
    binary="$bin/$(executable "$target")"
    local crashes="$work/crashes/$target"
    mkdir -p "$crashes"
    seed "$target"
    echo "fuzz: $target for ${seconds}s (corpus $work/corpus/$target, findings in $crashes)" >&2
    local status=0 parallel=() kept=()
    # What earlier long runs found, for the targets that have such a corpus.
    if [[ -d $here/Corpus/$target ]]; then kept=("$here/Corpus/$target"); fi
    # More than one job runs workers in subprocesses, each logging to $work/logs/$target/fuzz-N.log.
    if (( ${FUZZ_JOBS:-1} > 1 )); then
        mkdir -p "$work/logs/$target"
        parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
    fi
    (cd "$work/logs/$target" 2>/dev/null || cd "$work"
     "$binary" "$work/corpus/$target" "${kept[@]}" "${parallel[@]}" -dict="$here/Dictionaries/$target.dict" \
        -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
        -max_len="${FUZZ_MAX_LEN:-65536}" -artifact_prefix="$crashes/" -print_final_stats=1) || status=$?
    if [[ $status -ne 0 ]] || [[ -n $(ls -A "$crashes") ]]; then
        echo "fuzz: $target FAILED (exit $status); findings:" >&2
        ls -l "$crashes" >&2
        return 1
    fi
}

# The Swift runtime's backtracer and AddressSanitizer both catch crashes; let AddressSanitizer report.
export SWIFT_BACKTRACE=enable=no
if [[ -n ${FUZZ_BIN:-} ]]; then
    bin=$FUZZ_BIN
else
    build
    bin=$(swift build --package-path "$here" -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -g -Xswiftc -use-ld=lld --show-bin-path)
fi
failed=0
for target in "${targets[@]}"; do
    run "$target" || failed=1
done
exit $failed
