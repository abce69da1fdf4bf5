"""Reads EBU-STL files with ttconv (pinned in .ci/setup) and writes what it shows as WebVTT.

Usage: ttconv_stl_to_webvtt.py [--keep-tcp] IN.stl OUT.vtt [IN OUT ...]

The start of programme (TCP) is subtracted, as CueKit does by default, unless --keep-tcp is given.
One process for many files. A file ttconv cannot read gets an OUT file holding "ERROR: <reason>",
and the run goes on. As in ttconv_to_webvtt.py, the text of the model is escaped before ttconv's
WebVTT writer writes it, so that only ttconv's reading of the STL is compared.
"""
import sys

import ttconv.stl.reader as stl_reader
from ttconv.stl.config import STLReaderConfiguration

from peer_files import convert_pairs, ttconv_webvtt


def main(arguments):
    keep = "--keep-tcp" in arguments
    config = STLReaderConfiguration(program_start_tc=None if keep else "TCP")

    def convert(source):
        with open(source, "rb") as data:
            return ttconv_webvtt(stl_reader.to_model(data, config))

    return convert_pairs([argument for argument in arguments if argument != "--keep-tcp"], __doc__, convert)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
