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
import ttconv.model as model
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
            document = imsc_reader.to_model(et.parse(source))
            if document is not None and document.get_body() is not None:
                escape_text(document.get_body())
            text = vtt_writer.from_model(document) if document is not None else "ERROR: ttconv read no document"
        except Exception as error:  # reported in the output file, for the test to name
            text = "ERROR: %s: %s" % (type(error).__name__, error)
        with open(destination, "w", encoding="utf-8") as output:
            output.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
