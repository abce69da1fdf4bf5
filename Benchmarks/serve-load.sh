#!/usr/bin/env bash
# Load on `cuekit serve`, on loopback only, bounded in count and time: 200 connections fetch a
# 1 MB WebVTT track for 10 seconds with wrk, first as a file, then converted on request
# (/tracks/NAME?as=vtt&style=...), then gzipped; then a small file alone and beside slow and silent
# connections (slowloris). Prints requests per second, latency percentiles and every error; exits 1
# if any request failed or answered other than 200.
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
# -- Slowloris: slow and silent connections alongside wrk ---------------------------------------
# SLOW_CONNECTIONS connections (1,100 by default: past --max-connections) are held open without
# ever finishing a request: half send nothing, half send a request head a few bytes a second, and
# each is opened again as soon as the server closes it. wrk fetches a small file alone, then while
# they are held: normal requests keep their p99 (printed as a ratio), and none fails.
slowloris() {
    local slow=${SLOW_CONNECTIONS:-1100}
    printf 'WEBVTT\n\n00:00.000 --> 00:01.000\nA short cue.\n' >"$folder/small.vtt"
    local url="$base/small.vtt" alone held verdict
    read -r alone verdict < <(slowloris_wrk "small file, alone" "$url") || true
    [[ $verdict == ok ]] || status=1
    python3 - "$port" "$slow" "$((duration + 5))" <<'PY' &
import socket, sys, time
port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
head = b"GET /small.vtt HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 100000
def connect():
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    return [s, 0]
held = [connect() for _ in range(count)]
end = time.monotonic() + seconds
while time.monotonic() < end:
    for i, (s, sent) in enumerate(held):
        try:
            if i % 2:
                s.send(head[sent:sent + 3])
                held[i][1] = sent + 3
            elif s.recv(1, socket.MSG_PEEK) == b"":
                raise ConnectionError
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            held[i] = connect()
    time.sleep(1)
PY
    local loris=$!
    sleep 3
    read -r held verdict < <(slowloris_wrk "small file, with $slow slow connections" "$url") || true
    [[ $verdict == ok ]] || status=1
    kill "$loris" 2>/dev/null || true
    wait "$loris" 2>/dev/null || true
    echo
    echo "p99 alone: ${alone} ms; with $slow slow connections: ${held} ms"
}

# Runs wrk on $2 as `run` does, its report on standard error; prints the p99 in milliseconds and
# "ok", or "failed" when a request failed or none was answered.
slowloris_wrk() {
    local name=$1 url=$2 output
    echo >&2
    echo "== $name: $connections connections, ${duration}s, $url" >&2
    output=$(wrk -t2 -c"$connections" -d"${duration}s" --latency --timeout 10s "$url")
    echo "$output" | grep -E 'Requests/sec|requests in|Socket errors|Non-2xx|^ +(50|90|99)%' >&2
    local verdict=ok
    if echo "$output" | grep -qE 'Socket errors|Non-2xx|^ +0 requests'; then verdict=failed; fi
    echo "$output" | awk -v verdict="$verdict" '$1 == "99%" {
        v = $2; unit = v; gsub(/[0-9.]/, "", unit); sub(/[a-z]+$/, "", v)
        print (unit == "s" ? v * 1000 : unit == "us" ? v / 1000 : unit == "m" ? v * 60000 : v), verdict }'
}
slowloris
exit $status
