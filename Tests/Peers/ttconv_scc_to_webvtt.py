"""Reads SCC files with ttconv (pinned in .ci/setup) and writes what it shows as WebVTT.

Usage: ttconv_scc_to_webvtt.py IN.scc OUT.vtt [IN OUT ...]

One process for many files. A file ttconv cannot read gets an OUT file holding "ERROR: <reason>",
and the run goes on. As in ttconv_to_webvtt.py, the text of the model is escaped before ttconv's
WebVTT writer writes it, so that only ttconv's reading of the SCC is compared.
"""
import sys

import ttconv.scc.reader as scc_reader

from peer_files import convert_pairs, ttconv_webvtt


def convert(source):
    with open(source, "r", encoding="utf-8") as data:
        return ttconv_webvtt(scc_reader.to_model(data.read()))


def main(arguments):
    return convert_pairs(arguments, __doc__, convert)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
