#!/usr/bin/env bash
# Load on `cuekit serve`, on loopback only, bounded in count and time: 200 connections fetch a
# 1 MB WebVTT track for 10 seconds with wrk, first as a file, then converted on request
# (/tracks/NAME?as=vtt&style=...), then gzipped. Prints requests per second, latency percentiles
# and every error; exits 1 if any request failed or answered other than 200.
#
#   bash Benchmarks/serve-load.sh            # 200 connections, 10 s per case
#   CONNECTIONS=50 DURATION=5 bash Benchmarks/serve-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."

connections=${CONNECTIONS:-200}
duration=${DURATION:-10}
if ! command -v wrk >/dev/null; then
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    $sudo apt-get install -y -qq wrk >/dev/null
fi

swift build -c release --static-swift-stdlib --product cuekit >/dev/null
swift build -c release --static-swift-stdlib --product cuekit-cast >/dev/null
cuekit=.build/release/cuekit
folder=$(mktemp -d)
log=$(mktemp)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$folder" "$log"' EXIT

# About 1 MB: 10,000 generated cues.
"$cuekit" generate --cues 10000 --seed 3 -o "$folder/track.vtt"
echo "track: $(wc -c <"$folder/track.vtt") bytes"

"$cuekit" serve "$folder" --port 0 --quiet --max-connections 1024 >"$log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q '127.0.0.1:' "$log" && break; sleep 0.1; done
port=$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2)
base="http://127.0.0.1:$port"

status=0
run() {
    local name=$1 url=$2
    shift 2
    echo
    echo "== $name: $connections connections, ${duration}s, $url"
    local output
    output=$(wrk -t2 -c"$connections" -d"${duration}s" --latency --timeout 10s "$@" "$url")
    echo "$output" | grep -E 'Requests/sec|Transfer/sec|requests in|Socket errors|Non-2xx|^ +(50|90|99)%'
    if echo "$output" | grep -qE 'Socket errors|Non-2xx'; then status=1; fi
}

run "file" "$base/track.vtt"
curl -sf -o /dev/null "$base/tracks/track.vtt?as=vtt&style=%7B%22fontScale%22%3A1.5%7D"
run "converted, cached" "$base/tracks/track.vtt?as=vtt&style=%7B%22fontScale%22%3A1.5%7D"
run "file, gzip" "$base/track.vtt" -H "Accept-Encoding: gzip"
exit $status
