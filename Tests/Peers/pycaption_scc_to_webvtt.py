"""Reads SCC files with pycaption (pinned in .ci/setup) and writes its captions as WebVTT.

Usage: pycaption_scc_to_webvtt.py IN.scc OUT.vtt [IN OUT ...]

One process for many files. A file pycaption cannot read gets an OUT file holding
"ERROR: <reason>", and the run goes on. Each caption is written as a cue of its text alone
(no settings, no markup: "<", ">" and "&" escaped), so that only pycaption's reading is compared.
"""
import sys

from pycaption import SCCReader

from peer_files import convert_pairs


def timestamp(microseconds):
    milliseconds = int(round(microseconds / 1000))
    hours, rest = divmod(milliseconds, 3600000)
    minutes, rest = divmod(rest, 60000)
    seconds, milliseconds = divmod(rest, 1000)
    return "%02d:%02d:%02d.%03d" % (hours, minutes, seconds, milliseconds)


def text_of(caption):
    parts = []
    for node in caption.nodes:
        if node.type_ == node.TEXT:
            parts.append(node.content)
        elif node.type_ == node.BREAK:
            parts.append("\n")
    text = "".join(parts).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "\n".join(line for line in text.split("\n") if line.strip())


def convert(source):
    with open(source, "r", encoding="utf-8") as data:
        captions = SCCReader().read(data.read())
    lines = ["WEBVTT", ""]
    for language in captions.get_languages():
        for caption in captions.get_captions(language):
            text = text_of(caption)
            if not text or caption.end <= caption.start:
                continue
            lines += [timestamp(caption.start) + " --> " + timestamp(caption.end), text, ""]
    return "\n".join(lines)


def main(arguments):
    return convert_pairs(arguments, __doc__, convert)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
