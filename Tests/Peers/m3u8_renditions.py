"""Reads an HLS multivariant playlist with the m3u8 package (pinned in .ci/setup) and prints, as
JSON, what a player built on it sees: each variant's SUBTITLES group, each subtitle rendition, and
each rendition's media playlist (version, target duration, type, end list, segments: URI,
duration and byte range, `length@offset` or null).

Usage: m3u8_renditions.py MASTER.m3u8
"""
import json
import os
import sys

import m3u8


def main(arguments):
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    master = m3u8.load(arguments[0])
    folder = os.path.dirname(os.path.abspath(arguments[0]))
    result = {
        "is_variant": master.is_variant,
        "variants": [{"uri": p.uri, "subtitles": p.stream_info.subtitles} for p in master.playlists],
        "renditions": [],
    }
    for media in master.media:
        if media.type != "SUBTITLES":
            continue
        playlist = m3u8.load(os.path.join(folder, media.uri))
        result["renditions"].append({
            "group_id": media.group_id,
            "name": media.name,
            "language": media.language,
            "default": media.default,
            "autoselect": media.autoselect,
            "uri": media.uri,
            "version": playlist.version,
            "target_duration": playlist.target_duration,
            "media_sequence": playlist.media_sequence,
            "playlist_type": playlist.playlist_type,
            "is_endlist": playlist.is_endlist,
            "segments": [[s.uri, s.duration, s.byterange] for s in playlist.segments],
        })
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
