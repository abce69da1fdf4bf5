#!/usr/bin/env python3
"""Hostile clients against one `cuekit serve` binary, on loopback: what each case got, and whether
it is what the server should do (exit status 1 when a case is not). Each server has a temporary
folder of its own (TMPDIR), so that a cache folder left behind is seen, and then removed.

    python3 Benchmarks/serve-hostile.py .build/release/cuekit            # every case
    python3 Benchmarks/serve-hostile.py .build/release/cuekit stop ranges

Cases: connections (silent ones past --max-connections, a silent one, requests the parser
refuses), stop (SIGINT with a silent connection, twice, or with a download that is not read),
style (a style= file of 300 MB: peak memory), truncated (a file cut while it is sent), ranges
(RFC 9110 answers; a refused track's message), origin (WebSockets from origins allowed or not).
"""
import base64
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

cuekit = os.path.abspath(sys.argv[1])
cases = sys.argv[2:] or ["connections", "stop", "style", "truncated", "ranges", "origin"]
failures = []


def check(ok, line):
    print(f"  {'ok  ' if ok else 'FAIL'} {line}")
    if not ok:
        failures.append(line)


def start(folder, *args):
    """A server on a free port, with a TMPDIR of its own: (process, port, tmpdir)."""
    tmp = tempfile.mkdtemp(prefix="serve-hostile-tmp-")
    proc = subprocess.Popen([cuekit, "serve", folder, "--port", "0", "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": tmp})
    port = int(re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline().decode()).group(1))
    return proc, port, tmp


def stop(proc, tmp):
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)


def exchange(port, data, wait=5.0):
    """Sends data and reads until the server closes or `wait` passes: (status line, closed, seconds)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(wait)
    t0 = time.monotonic()
    try:
        s.sendall(data)
    except OSError:
        pass
    got, closed = b"", False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            got += chunk
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    s.close()
    return got.split(b"\r\n")[0].decode(errors="replace"), closed, time.monotonic() - t0


def curl(url, *args, timeout=5):
    """(status line, headers, seconds)."""
    t0 = time.monotonic()
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-D", "-", "--max-time", str(timeout), *args, url],
                       capture_output=True, text=True)
    status = r.stdout.splitlines()[0] if r.stdout else f"(no answer, curl exit {r.returncode})"
    return status, r.stdout, time.monotonic() - t0


def interrupt(proc, tmp, twice=False):
    """SIGINT (twice when asked); (what happened, what was left in TMPDIR)."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    if twice:
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
        return time.monotonic() - t0, os.listdir(tmp)
    except subprocess.TimeoutExpired:
        return None, os.listdir(tmp)


folder = tempfile.mkdtemp(prefix="serve-hostile-")
with open(os.path.join(folder, "small.vtt"), "w") as f:
    f.write("WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n")

if "connections" in cases:
    print("== connections")
    proc, port, tmp = start(folder, "--max-connections", "20")
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    time.sleep(0.5)
    status, _, took = curl(f"http://127.0.0.1:{port}/small.vtt")
    check("200" in status, f"30 silent connections, --max-connections 20: GET /small.vtt: {status} in {took:.2f}s")
    for s in silent:
        s.close()
    stop(proc, tmp)
    proc, port, tmp = start(folder)
    _, closed, took = exchange(port, b"", wait=15)
    check(closed and took < 12, f"a silent connection (header timeout 10 s by default): closed={closed} after {took:.1f}s")
    refused = {
        "Content-Length with Transfer-Encoding": b"GET /small.vtt HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "two Content-Lengths": b"GET /small.vtt HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "a header over 80 KB": b"GET /small.vtt HTTP/1.1\r\nHost: a\r\nX-Big: " + b"a" * 90_000 + b"\r\n\r\n",
        "bare LF": b"GET /small.vtt HTTP/1.1\nHost: a\nX: y\n\n",
        "an HTTP/2 preface": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    }
    for name, data in refused.items():
        line, closed, took = exchange(port, data, wait=3)
        check(closed and took < 1.5, f"{name}: {line or '(nothing)'}, closed={closed} after {took:.2f}s")
    stop(proc, tmp)

if "stop" in cases:
    print("== stop")
    for twice in (False, True):
        proc, port, tmp = start(folder)
        s = socket.create_connection(("127.0.0.1", port))
        time.sleep(0.3)
        took, left = interrupt(proc, tmp, twice)
        what = f"exited {proc.returncode} after {took:.2f}s" if took is not None else "still running after 30s"
        check(took is not None and not left, f"a silent connection, SIGINT{' twice' if twice else ''}: {what}; left in TMPDIR: {left}")
        s.close()
        stop(proc, tmp)
    path = os.path.join(folder, "movie.bin")
    with open(path, "wb") as f:
        f.write(b"\7" * (64 << 20))
    proc, port, tmp = start(folder)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /movie.bin HTTP/1.1\r\nHost: a\r\n\r\n")
    time.sleep(0.5)
    took, left = interrupt(proc, tmp)
    what = f"exited {proc.returncode} after {took:.2f}s" if took is not None else "still running after 30s"
    check(took is not None and 4 < took < 8 and not left, f"a 64 MB download not read (grace 5 s by default), SIGINT: {what}; left: {left}")
    s.close()
    stop(proc, tmp)
    os.remove(path)

if "style" in cases:
    print("== style")
    with open(os.path.join(folder, "big.json"), "wb") as f:
        f.truncate(300 << 20)
    proc, port, tmp = start(folder)
    status, _, took = curl(f"http://127.0.0.1:{port}/tracks/small.vtt?as=vtt&style=big.json", timeout=60)
    peak = int(re.search(r"VmHWM:\s+(\d+) kB", open(f"/proc/{proc.pid}/status").read()).group(1)) >> 10
    check("400" in status and peak < 150, f"style=big.json (300 MB): {status} in {took:.2f}s, peak RSS {peak} MB")
    stop(proc, tmp)
    os.remove(os.path.join(folder, "big.json"))

if "truncated" in cases:
    print("== truncated")
    path = os.path.join(folder, "movie.bin")
    with open(path, "wb") as f:
        f.write(os.urandom(1024) * (64 << 10))
    proc, port, tmp = start(folder)
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    s.sendall(b"GET /movie.bin HTTP/1.1\r\nHost: a\r\n\r\n")
    total = len(s.recv(65536))
    os.truncate(path, 1 << 20)
    s.settimeout(10)
    t0, closed = time.monotonic(), False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            total += len(chunk)
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    took = time.monotonic() - t0
    check(closed and took < 5, f"a 64 MB file cut to 1 MB while sent: {total} bytes, closed={closed} after {took:.2f}s")
    s.close()
    stop(proc, tmp)
    os.remove(path)

if "ranges" in cases:
    print("== ranges")
    length = os.path.getsize(os.path.join(folder, "small.vtt"))
    with open(os.path.join(folder, "bad.vtt"), "w") as f:
        f.write("not a track at all\0\1")
    proc, port, tmp = start(folder)
    expected = {
        "bytes=5-2": ("200", None), "bytes=abc": ("200", None), "bytes=1-2-3": ("200", None),
        "bytes=0-99999999999999999999": ("206", f"bytes 0-{length - 1}/{length}"),
        "bytes=99-": ("416", f"bytes */{length}"), "bytes=-0": ("416", f"bytes */{length}"),
        "bytes=0-3": ("206", f"bytes 0-3/{length}"),
    }
    for spec, (code, content_range) in expected.items():
        status, headers, _ = curl(f"http://127.0.0.1:{port}/small.vtt", "-H", f"Range: {spec}")
        found = re.search(r"(?i)content-range: ([^\r\n]*)", headers)
        found = found.group(1) if found else None
        check(code in status and found == content_range, f"Range: {spec}: {status}, Content-Range: {found}")
    body = subprocess.run(["curl", "-s", f"http://127.0.0.1:{port}/tracks/bad.vtt?as=vtt"], capture_output=True, text=True).stdout
    named = folder in body or os.path.realpath(folder) in body
    check(not named, f"/tracks/bad.vtt: {body.strip()!r}")
    stop(proc, tmp)
    os.remove(os.path.join(folder, "bad.vtt"))

if "origin" in cases:
    print("== origin")
    proc, port, tmp = start(folder, "--allow-origin", "https://allowed.example")
    key = base64.b64encode(os.urandom(16)).decode()
    for origin, code in [("https://evil.example", "403"), ("https://allowed.example", "101"), (None, "101")]:
        head = (f"GET /cast HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if origin:
            head += f"Origin: {origin}\r\n"
        line, _, _ = exchange(port, (head + "\r\n").encode(), wait=1)
        check(code in line, f"WebSocket /cast from {origin or 'no Origin'} (--allow-origin https://allowed.example): {line or '(nothing)'}")
    stop(proc, tmp)

shutil.rmtree(folder, ignore_errors=True)
print(f"\n{len(failures)} case(s) not as they should be" if failures else "\nevery case as it should be")
sys.exit(1 if failures else 0)
