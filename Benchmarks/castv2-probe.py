#!/usr/bin/env python3
"""Hostile Cast v2 senders against `cuekit-cast cast emulate`, one case at a time, on loopback.

    python3 Benchmarks/castv2-probe.py CUEKIT-CAST CASE [N]

CASE is one of:
  senders   one TLS connection joins N sender ids (default 5000) to the media application; another
            sender then LOADs: the time to its answer, and the emulator's peak memory
  stuck     a sender asks N times (default 300) for the status of a 30 KB media and reads
            none; another sender then LAUNCHes and asks three times: which answers came, and
            in how long
  big-load  a LOAD in a frame of N bytes (default 65497): the answer's type and the longest frame
            the device sent

Each prints one line of `key=value`. The emulator is started on free ports and stopped after.
"""

import os
import re
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time

CONNECTION = "urn:x-cast:com.google.cast.tp.connection"
RECEIVER = "urn:x-cast:com.google.cast.receiver"
MEDIA = "urn:x-cast:com.google.cast.media"


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data


def frame(source, destination, namespace, text):
    body = (b"\x08\x00" + field(2, source.encode()) + field(3, destination.encode()) + field(4, namespace.encode())
            + b"\x28\x00" + field(6, text.encode()))
    return struct.pack(">I", len(body)) + body


def parse(body):
    """The fields of a CastMessage: {number: bytes or int}."""
    fields, index = {}, 0
    while index < len(body):
        key, index = read_varint(body, index)
        number, kind = key >> 3, key & 7
        if kind == 0:
            fields[number], index = read_varint(body, index)
        else:
            length, index = read_varint(body, index)
            fields[number] = body[index:index + length]
            index += length
    return fields


def read_varint(data, index):
    shift = value = 0
    while True:
        byte = data[index]
        index += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, index


class Sender:
    """One TLS connection; a thread reads frames into a list unless `reading` is false."""

    def __init__(self, port, reading=True, receive_buffer=None):
        raw = socket.socket()
        if receive_buffer:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        raw.connect(("127.0.0.1", port))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.socket = context.wrap_socket(raw)
        self.messages = []
        self.longest = 0
        self.closed = False
        self.lock = threading.Lock()
        if reading:
            threading.Thread(target=self.read, daemon=True).start()

    def send(self, source, destination, namespace, text):
        self.socket.sendall(frame(source, destination, namespace, text))

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while len(buffer) >= 4:
                    (length,) = struct.unpack(">I", buffer[:4])
                    if len(buffer) < 4 + length:
                        break
                    fields = parse(buffer[4:4 + length])
                    buffer = buffer[4 + length:]
                    with self.lock:
                        self.longest = max(self.longest, length)
                        self.messages.append((fields.get(3, b"").decode(), fields.get(4, b"").decode(), fields.get(6, b"").decode()))
        except OSError:
            pass
        self.closed = True

    def wait_for(self, pattern, timeout):
        """The first message whose text matches `pattern` (a regular expression), or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for message in self.messages:
                    if re.search(pattern, message[2]):
                        self.messages.remove(message)
                        return message
            if self.closed:
                return None
            time.sleep(0.005)
        return None


def start(binary):
    process = subprocess.Popen([binary, "cast", "emulate", "--port", "0", "--http-port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    port = int(re.search(r":(\d+) \(TLS", line).group(1))
    return process, port


def peak_memory(process):
    with open(f"/proc/{process.pid}/status") as status:
        return next(line.split()[1] for line in status if line.startswith("VmHWM")) + "kB"


def launch(sender):
    sender.send("sender-a", "receiver-0", CONNECTION, '{"type":"CONNECT"}')
    sender.send("sender-a", "receiver-0", RECEIVER, '{"type":"LAUNCH","appId":"CC1AD845","requestId":1}')
    answer = sender.wait_for(r'"requestId":1\b', 10)
    return re.search(r'"transportId":"([^"]+)"', answer[2]).group(1) if answer else None


def load_text(request_id, title_length):
    return ('{"type":"LOAD","requestId":%d,"media":{"contentId":"http://127.0.0.1/m.mp4","contentType":"video/mp4",'
            '"streamType":"BUFFERED","metadata":{"metadataType":0,"title":"%s"}}}' % (request_id, "t" * title_length))


def senders_case(port, process, count):
    active = Sender(port)
    transport = launch(active)
    crowd = Sender(port)
    for index in range(count):
        crowd.send(f"v{index}", transport, CONNECTION, '{"type":"CONNECT"}')
        crowd.send(f"v{index}", transport, MEDIA, '{"type":"GET_STATUS","requestId":1}')
    time.sleep(1)
    active.send("sender-a", transport, CONNECTION, '{"type":"CONNECT"}')
    started = time.monotonic()
    active.send("sender-a", transport, MEDIA, load_text(7, 30_000))
    answer = active.wait_for(r'"requestId":7\b', 120)
    elapsed = time.monotonic() - started
    kind = re.search(r'"type":"(\w+)"', answer[2]).group(1) if answer else "none"
    closed = sum(1 for message in crowd.messages if message[1] == CONNECTION and "CLOSE" in message[2])
    print(f"case=senders ids={count} answer={kind} seconds={elapsed:.2f} closes_to_crowd={closed} peak_rss={peak_memory(process)}")


def stuck_case(port, process, count):
    active = Sender(port)
    transport = launch(active)
    active.send("sender-a", transport, CONNECTION, '{"type":"CONNECT"}')
    active.send("sender-a", transport, MEDIA, load_text(2, 30_000))
    active.wait_for(r'"requestId":2\b', 10)
    stuck = Sender(port, reading=False, receive_buffer=4096)
    stuck.send("stuck", "receiver-0", CONNECTION, '{"type":"CONNECT"}')
    stuck.send("stuck", "receiver-0", RECEIVER, '{"type":"GET_STATUS","requestId":1}')
    stuck.send("stuck", transport, CONNECTION, '{"type":"CONNECT"}')

    def ask():
        # In a thread of its own: a device that stops reading this connection blocks the sending.
        try:
            for index in range(count):
                stuck.send("stuck", transport, MEDIA, '{"type":"GET_STATUS","requestId":%d}' % (index + 2))
        except OSError:
            pass

    threading.Thread(target=ask, daemon=True).start()
    time.sleep(2)
    started = time.monotonic()
    answered = 0
    active.send("sender-a", "receiver-0", RECEIVER, '{"type":"LAUNCH","appId":"CC1AD845","requestId":9}')
    if active.wait_for(r'"requestId":9\b', 10):
        answered += 1
    for index in range(3):
        active.send("sender-a", "receiver-0", RECEIVER, '{"type":"GET_STATUS","requestId":%d}' % (index + 10))
        if active.wait_for(r'"requestId":%d\b' % (index + 10), 10):
            answered += 1
    elapsed = time.monotonic() - started
    print(f"case=stuck media_statuses_asked={count} active_answers={answered}/4 seconds={elapsed:.2f} active_closed={active.closed} peak_rss={peak_memory(process)}")


def big_load_case(port, process, length):
    active = Sender(port)
    transport = launch(active)
    active.send("sender-a", transport, CONNECTION, '{"type":"CONNECT"}')
    base = len(frame("sender-a", transport, MEDIA, load_text(7, 0))) - 4
    active.send("sender-a", transport, MEDIA, load_text(7, length - base))
    answer = active.wait_for(r'"requestId":7\b', 10)
    kind = re.search(r'"type":"(\w+)"', answer[2]).group(1) if answer else "none"
    active.send("sender-a", transport, MEDIA, '{"type":"GET_STATUS","requestId":8}')
    status = active.wait_for(r'"requestId":8\b', 10)
    print(f"case=big-load frame={length} answer={kind} longest_frame_sent={active.longest} "
          f"over_64KiB={active.longest > 65536} status_after={'yes' if status else 'no'}")


def main():
    binary, case = sys.argv[1], sys.argv[2]
    argument = int(sys.argv[3]) if len(sys.argv) > 3 else None
    process, port = start(binary)
    try:
        if case == "senders":
            senders_case(port, process, argument or 5000)
        elif case == "stuck":
            stuck_case(port, process, argument or 300)
        elif case == "big-load":
            big_load_case(port, process, argument or 65497)
        else:
            sys.exit(f"unknown case {case}")
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        stderr = process.stderr.read()
        if os.environ.get("SHOW_LOG"):
            sys.stderr.write(stderr)


if __name__ == "__main__":
    main()
