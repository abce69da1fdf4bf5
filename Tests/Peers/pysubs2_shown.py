"""Reads ASS and SSA scripts with pysubs2 (pinned in .ci/setup) and writes what each event shows.

Usage: pysubs2_shown.py IN.ass OUT.txt [IN OUT ...]

One line per Dialogue event (comments are not shown): start and end in milliseconds, then the
event's plain text (pysubs2's `plaintext`: override blocks removed, \\N and \\n as line breaks, \\h as
a space) with each line break written as U+2028, tab-separated. A script pysubs2 cannot read gets
an OUT file holding "ERROR: <reason>", and the run goes on.
"""
import sys

import pysubs2

from peer_files import convert_pairs


def convert(source):
    subs = pysubs2.load(source, encoding="utf-8", format_="ass")
    lines = []
    for event in subs:
        if event.is_comment:
            continue
        text = event.plaintext.replace("\n", "\u2028")
        lines.append("%d\t%d\t%s" % (event.start, event.end, text))
    return "\n".join(lines)


def main(arguments):
    return convert_pairs(arguments, __doc__, convert)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
