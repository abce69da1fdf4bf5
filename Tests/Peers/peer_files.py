"""What the peer scripts share: the IN OUT pairs loop, and ttconv's model text escaped.

Each script converts many files in one process (starting Python once per file would take longer
than the test). A file the peer cannot read gets an OUT file holding "ERROR: <reason>", for the
test to name, and the run goes on.
"""
import sys


def convert_pairs(arguments, usage, convert):
    """Writes convert(IN) into OUT for each IN OUT pair of arguments; 2 when they are not pairs."""
    if len(arguments) % 2 != 0:
        print(usage, file=sys.stderr)
        return 2
    for source, destination in zip(arguments[0::2], arguments[1::2]):
        try:
            output = convert(source)
        except Exception as error:  # reported in the output file, for the test to name
            output = "ERROR: %s: %s" % (type(error).__name__, error)
        with open(destination, "w", encoding="utf-8") as handle:
            handle.write(output)
    return 0


def escape_text(element):
    """Escapes the text of a ttconv model, so that its WebVTT writer's "<" cannot read as a tag."""
    import ttconv.model as model

    if isinstance(element, model.Text):
        text = element.get_text()
        element.set_text(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    for child in element:
        escape_text(child)


def ttconv_webvtt(document):
    """What ttconv's WebVTT writer makes of a model it read, its text escaped first."""
    import ttconv.vtt.writer as vtt_writer

    if document is None:
        return "ERROR: ttconv read no document"
    if document.get_body() is not None:
        escape_text(document.get_body())
    return vtt_writer.from_model(document)
