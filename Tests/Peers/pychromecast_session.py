"""Drives a Cast device with pychromecast, as a Python sender would drive a Chromecast.

Usage: pychromecast_session.py HOST PORT MEDIA_URL SUBTITLES_URL

Connects by host and port (no discovery), launches the Default Media Receiver, plays the media
with one WebVTT subtitle track, switches the track on, then off, and prints one JSON line per step
with what pychromecast read back from the device. Exits non-zero when a step does not behave as
pychromecast expects of a device.
"""

import json
import sys
import threading
import time
import uuid

import pychromecast
from pychromecast import socket_client
from pychromecast.controllers.media import MediaStatusListener

# pychromecast 14.0.7 writes to its TLS socket from its worker thread and from the caller's thread
# with no lock: two writes at once interleave their TLS records, and the device cannot decrypt the
# stream (`cuekit cast emulate` logs BAD_DECRYPT and closes the connection, as a device would). On a
# busy machine that happens. Writes are serialised here, so that what is tested is the device.
_writes = threading.RLock()
_send_message = socket_client.SocketClient.send_message


def _send_message_alone(self, *args, **kwargs):
    with _writes:
        return _send_message(self, *args, **kwargs)


socket_client.SocketClient.send_message = _send_message_alone


def report(step, **fields):
    print(json.dumps({"step": step, **fields}), flush=True)


class Statuses(MediaStatusListener):
    def __init__(self):
        self.count = 0
        self.changed = threading.Condition()

    def new_media_status(self, status):
        with self.changed:
            self.count += 1
            self.changed.notify_all()

    def load_media_failed(self, queue_item_id, error_code):
        report("load-failed", error=error_code)


def wait_for(controller, listener, predicate, what, timeout=10):
    deadline = time.monotonic() + timeout
    with listener.changed:
        while not predicate(controller.status):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SystemExit(f"timed out waiting for {what}; status: {controller.status}")
            listener.changed.wait(remaining)


def main():
    host, port, media_url, subtitles_url = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    cast = pychromecast.get_chromecast_from_host((host, port, uuid.uuid4(), "CueKit", "CueKit emulator"),
                                                 tries=1, retry_wait=1, timeout=10)
    cast.wait(timeout=10)
    report("connected", app_id=cast.app_id, volume=cast.status.volume_level if cast.status else None)

    media = cast.media_controller
    listener = Statuses()
    media.register_status_listener(listener)
    media.play_media(media_url, "video/mp4", title="CueKit", subtitles=subtitles_url,
                     subtitles_lang="en-US", subtitles_mime="text/vtt", subtitle_id=1)
    media.block_until_active(timeout=10)
    wait_for(media, listener, lambda s: s.player_state in ("PLAYING", "BUFFERING", "PAUSED") and s.content_id == media_url,
             "the load")
    status = media.status
    report("loaded", app_id=cast.app_id, content_id=status.content_id, player_state=status.player_state,
           subtitle_tracks=[t.get("trackId") for t in status.subtitle_tracks],
           active=status.current_subtitle_tracks)

    media.enable_subtitle(1)
    wait_for(media, listener, lambda s: s.current_subtitle_tracks == [1], "the subtitle switched on")
    report("enabled", active=media.status.current_subtitle_tracks)

    media.disable_subtitle()
    wait_for(media, listener, lambda s: s.current_subtitle_tracks == [], "the subtitle switched off")
    report("disabled", active=media.status.current_subtitle_tracks)

    media.update_status()
    time.sleep(0.5)
    report("status", player_state=media.status.player_state, statuses=listener.count)
    cast.disconnect(timeout=5)
    report("done")


if __name__ == "__main__":
    main()
