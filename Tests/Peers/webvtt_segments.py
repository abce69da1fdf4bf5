"""Segments a WebVTT file with webvtt-py's segment() (pinned in .ci/setup), or reads a folder of
segments, and prints as JSON each segment's cues as webvtt-py reads them: [[start, end, text], ...]
per segment, in playlist order.

Usage: webvtt_segments.py segment INPUT.vtt FOLDER SECONDS MPEGTS
       webvtt_segments.py read PLAYLIST.m3u8
"""
import json
import os
import sys

import webvtt


def cues_of(path):
    return [[c.start, c.end, c.text] for c in webvtt.read(path).captions]


def read(playlist):
    folder = os.path.dirname(os.path.abspath(playlist))
    with open(playlist, encoding="utf-8") as file:
        names = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    return [cues_of(os.path.join(folder, name)) for name in names]


def main(arguments):
    if len(arguments) == 5 and arguments[0] == "segment":
        _, source, folder, seconds, mpegts = arguments
        webvtt.segment(source, folder, seconds=int(seconds), mpegts=int(mpegts))
        print(json.dumps(read(os.path.join(folder, "prog_index.m3u8"))))
        return 0
    if len(arguments) == 2 and arguments[0] == "read":
        print(json.dumps(read(arguments[1])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
