"""Reads TTML documents with ttconv (pinned in .ci/setup) and writes what it shows as WebVTT.

Usage: ttconv_to_webvtt.py IN.ttml OUT.vtt [IN OUT ...]

One process for many documents (starting Python once per file would take longer than the test).
A document ttconv cannot read gets an OUT file holding "ERROR: <reason>", and the run goes on.

ttconv's WebVTT writer writes text as it is, so a "<" in the text would read back as a tag: the
text of the model ttconv read is escaped first, and only ttconv's reading of the TTML is compared.
"""
import sys
import xml.etree.ElementTree as et

import ttconv.imsc.reader as imsc_reader

from peer_files import convert_pairs, ttconv_webvtt


def main(arguments):
    return convert_pairs(arguments, __doc__, lambda source: ttconv_webvtt(imsc_reader.to_model(et.parse(source))))

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
