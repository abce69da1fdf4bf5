"""Reads SCC files with ttconv (pinned in .ci/setup) and writes what it shows as WebVTT.

Usage: ttconv_scc_to_webvtt.py IN.scc OUT.vtt [IN OUT ...]

One process for many files. A file ttconv cannot read gets an OUT file holding "ERROR: <reason>",
and the run goes on. As in ttconv_to_webvtt.py, the text of the model is escaped before ttconv's
WebVTT writer writes it, so that only ttconv's reading of the SCC is compared.
"""
import sys

import ttconv.model as model
import ttconv.scc.reader as scc_reader
import ttconv.vtt.writer as vtt_writer


def escape_text(element):
    if isinstance(element, model.Text):
        text = element.get_text()
        element.set_text(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    for child in element:
        escape_text(child)


def main(arguments):
    if len(arguments) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    for source, destination in zip(arguments[0::2], arguments[1::2]):
        try:
            with open(source, "r", encoding="utf-8") as data:
                document = scc_reader.to_model(data.read())
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
