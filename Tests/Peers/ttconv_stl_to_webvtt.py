"""Reads EBU-STL files with ttconv (pinned in .ci/setup) and writes what it shows as WebVTT.

Usage: ttconv_stl_to_webvtt.py [--keep-tcp] IN.stl OUT.vtt [IN OUT ...]

The start of programme (TCP) is subtracted, as CueKit does by default, unless --keep-tcp is given.
One process for many files. A file ttconv cannot read gets an OUT file holding "ERROR: <reason>",
and the run goes on. As in ttconv_to_webvtt.py, the text of the model is escaped before ttconv's
WebVTT writer writes it, so that only ttconv's reading of the STL is compared.
"""
import sys

import ttconv.model as model
import ttconv.stl.reader as stl_reader
import ttconv.vtt.writer as vtt_writer
from ttconv.stl.config import STLReaderConfiguration


def escape_text(element):
    if isinstance(element, model.Text):
        text = element.get_text()
        element.set_text(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    for child in element:
        escape_text(child)


def main(arguments):
    keep = "--keep-tcp" in arguments
    arguments = [argument for argument in arguments if argument != "--keep-tcp"]
    if len(arguments) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    config = STLReaderConfiguration(program_start_tc=None if keep else "TCP")
    for source, destination in zip(arguments[0::2], arguments[1::2]):
        try:
            with open(source, "rb") as data:
                document = stl_reader.to_model(data, config)
            if document.get_body() is not None:
                escape_text(document.get_body())
            text = vtt_writer.from_model(document)
        except Exception as error:  # reported in the output file, for the test to name
            text = "ERROR: %s: %s" % (type(error).__name__, error)
        with open(destination, "w", encoding="utf-8") as output:
            output.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
