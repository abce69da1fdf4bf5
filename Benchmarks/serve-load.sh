#!/usr/bin/env bash
# Load on `cuekit serve`, on loopback only, bounded in count and time: 200 connections fetch a
# 1 MB WebVTT track for 10 seconds with wrk, first as a file, then converted on request
# (/tracks/NAME?as=vtt&style=...), then gzipped; then a small file alone and beside slow and silent
# connections (slowloris). Prints requests per second, latency percentiles and every error; exits 1
# if any request failed or answered other than 200. Two sections follow:
# distinct style= values (every request a new conversion) for STYLE_DURATION seconds, with the
# server's memory and its cache folder sampled each second; and silent /cast WebSocket senders
# (they never read) beside an active one that restyles a 60 KB LOAD, with the active sender's
# latency and the server's memory before and with them.
#
#   bash Benchmarks/serve-load.sh            # 200 connections, 10 s per case, 60 s of styles
#   CONNECTIONS=50 DURATION=5 bash Benchmarks/serve-load.sh 15   # styles for 15 s
#   CUEKIT=path/to/cuekit CUEKIT_CAST=path/to/cuekit-cast bash Benchmarks/serve-load.sh   # other builds
set -euo pipefail
cd "$(dirname "$0")/.."

connections=${CONNECTIONS:-200}
duration=${DURATION:-10}
style_duration=${1:-${STYLE_DURATION:-60}}
silent_senders=${SILENT_SENDERS:-100}
restyles=${RESTYLES:-400}
if ! command -v wrk >/dev/null; then
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    $sudo apt-get install -y -qq wrk >/dev/null
fi

if [[ -z ${CUEKIT:-} ]]; then
    swift build -c release --static-swift-stdlib --product cuekit >/dev/null
fi
cuekit=${CUEKIT:-.build/release/cuekit}
if [[ -z ${CUEKIT_CAST:-} ]]; then
    swift build -c release --static-swift-stdlib --product cuekit-cast >/dev/null
fi
cuekit_cast=${CUEKIT_CAST:-.build/release/cuekit-cast}
folder=$(mktemp -d)
log=$(mktemp)
server=""
trap 'if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; rm -rf "$folder" "$log"' EXIT

# About 1 MB: 10,000 generated cues.
"$cuekit" generate --cues 10000 --seed 3 -o "$folder/track.vtt"
echo "track: $(wc -c <"$folder/track.vtt") bytes"

# Starts the server on a free port with its own temporary folder ($folder/tmp, where its cache
# of converted tracks goes) and the given flags; sets server, port and base.
start_server() {
    mkdir -p "$folder/tmp"
    : >"$log"
    TMPDIR="$folder/tmp" "$cuekit_cast" serve "$folder" --port 0 --quiet --max-connections 1024 "$@" >"$log" 2>&1 &
    server=$!
    for _ in $(seq 100); do grep -q '127.0.0.1:' "$log" && break; sleep 0.1; done
    port=$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2)
    base="http://127.0.0.1:$port"
}

stop_server() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
    rm -rf "$folder/tmp"
}

# The server's resident memory, in MB.
rss_mb() { awk '/VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$server/status" 2>/dev/null || echo 0; }

start_server

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
stop_server

# == Distinct style= values =====================================================================
# Every request names a new style, so every one is a conversion of the 1 MB track: the cache
# folder must stay within --conversion-cache-bytes (64 MB here), memory must stay flat, and what
# finds every conversion place taken is answered 503 (counted, not an error).
# CACHE_FLAGS="" measures a build without the flag.
cache_limit_mb=64
start_server ${CACHE_FLAGS---conversion-cache-bytes ${cache_limit_mb}M}
styles=$(mktemp)
cat >"$styles" <<'LUA'
-- Each of wrk's threads numbers its requests apart from the other's: no style comes twice.
local threads = 0
setup = function(thread)
    threads = threads + 1
    thread:set("id", threads)
end
counter = 0
request = function()
    counter = counter + 1
    local style = string.format('{"foregroundColor":"#%06XFF"}', (counter * 2 + id) % 16777216)
    local encoded = style:gsub("[^%w]", function(c) return string.format("%%%02X", string.byte(c)) end)
    return wrk.format("GET", "/tracks/track.vtt?as=vtt&style=" .. encoded)
end
LUA
echo
echo "== distinct style= values: 20 connections, ${style_duration}s, cache ${cache_limit_mb} MB"
samples=$(mktemp)
(
    for _ in $(seq "$style_duration"); do
        sleep 1
        echo "$(rss_mb) $(du -sm "$folder/tmp" 2>/dev/null | cut -f1)"
    done
) >"$samples" &
sampler=$!
output=$(wrk -t2 -c20 -d"${style_duration}s" --latency --timeout 30s -s "$styles" "$base/")
wait "$sampler" || true
echo "$output" | grep -E 'Requests/sec|requests in|Socket errors|Non-2xx|^ +(50|90|99)%'
awk -v limit="$cache_limit_mb" '
    NR == 1 { first_rss = $1; first_disk = $2 }
    { if ($1 > max_rss) max_rss = $1; if ($2 > max_disk) max_disk = $2; last_rss = $1; last_disk = $2 }
    END {
        printf "server memory MB: first %d, last %d, peak %d\n", first_rss, last_rss, max_rss
        printf "cache folder MB:  first %d, last %d, peak %d (limit %d)\n", first_disk, last_disk, max_disk, limit
        if (max_disk > limit + 8) exit 1
    }' "$samples" || { echo "the cache folder outgrew its limit"; status=1; }
rm -f "$styles" "$samples"
stop_server

# == Silent /cast WebSocket senders beside active ones ==========================================
# One sender loads a 60 KB LOAD and restyles it RESTYLES times, timing each answer, first alone,
# then with SILENT_SENDERS senders that connected and never read: each restyle is a MEDIA_STATUS
# of 60 KB owed to every one of them. Their unread messages stay within the server's budget per
# sender, so the active sender's latency and the server's memory stay flat.
start_server
echo
echo "== silent /cast senders: $silent_senders silent, 1 active restyling a 60 KB LOAD $restyles times"
python3 - "$port" "$server" "$silent_senders" "$restyles" <<'PYTHON' || status=1
import base64, json, os, socket, struct, sys, time

port, server, silent_count, restyles = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def rss_mb():
    with open(f"/proc/{server}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return 0

def connect(read_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if read_buffer:
        # Set before connecting, so that the window stays small.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, read_buffer)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /cast HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock

def send(sock, text, opcode=0x1):
    payload = text.encode() if isinstance(text, str) else text
    mask = os.urandom(4)
    length = len(payload)
    header = bytes([0x80 | opcode]) + (bytes([0x80 | length]) if length < 126 else
        bytes([0x80 | 126]) + struct.pack(">H", length) if length < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", length))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

def receive_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data

def receive(sock):
    while True:
        first, second = receive_exactly(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", receive_exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", receive_exactly(sock, 8))[0]
        payload = receive_exactly(sock, length)
        if first & 0x0F == 0x1:
            return payload.decode()
        if first & 0x0F == 0x9:
            # The server pings every 30 s and closes a socket that does not answer.
            send(sock, payload, opcode=0xA)

def answer(sock, request_id):
    while True:
        message = json.loads(receive(sock))
        if message.get("requestId") == request_id:
            return message

title = "t" * 60000
load = {"type": "LOAD", "requestId": 1, "media": {"contentId": f"http://127.0.0.1:{port}/track.vtt", "contentType": "text/vtt",
        "streamType": "BUFFERED", "metadata": {"metadataType": 0, "title": title},
        "tracks": [{"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": f"http://127.0.0.1:{port}/track.vtt",
                    "trackContentType": "text/vtt", "language": "en"}]}, "activeTrackIds": [1]}
active = connect()
send(active, json.dumps(load))
answer(active, 1)
request_id = 1

def restyle_phase(count):
    global request_id
    times = []
    for index in range(count):
        request_id += 1
        color = "#%06XFF" % ((index * 7919) % 16777216)
        started = time.perf_counter()
        send(active, json.dumps({"type": "EDIT_TRACKS_INFO", "requestId": request_id, "textTrackStyle": {"foregroundColor": color}}))
        answer(active, request_id)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.99) - 1 if len(times) >= 100 else -1]

before = rss_mb()
alone = restyle_phase(max(1, restyles // 4))
silent = [connect(read_buffer=4096) for _ in range(silent_count)]
after_connect = rss_mb()
busy = restyle_phase(restyles)
time.sleep(1)
after = rss_mb()
closed = 0
for sock in silent:
    sock.setblocking(False)
    try:
        while True:
            if sock.recv(1 << 20) == b"":
                closed += 1
                break
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
print(f"active latency ms, alone:                 p50 {alone[0]:.1f}, p99 {alone[1]:.1f}")
print(f"active latency ms, with {silent_count} silent senders: p50 {busy[0]:.1f}, p99 {busy[1]:.1f}")
print(f"server memory MB: before {before}, with silent senders connected {after_connect}, after {restyles} restyles {after}")
print(f"silent senders closed by the server: {closed}")
# Flat: the silent senders cost what the server's budget allows, not what they are owed.
sys.exit(1 if after - before > 200 else 0)
PYTHON
stop_server
exit $status
