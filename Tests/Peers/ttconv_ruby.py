"""Reads TTML documents with ttconv's IMSC reader and writes the ruby its model holds.

Usage: ttconv_ruby.py IN.ttml OUT.txt [IN OUT ...]

ttconv's writers drop ruby, so its output text cannot tell whether it read ruby: its model can.
OUT has one line per paragraph (`p`), in document order: the paragraph's text, each ruby
container (model.Ruby) written as `{base|text}`, or `{base|text color=#rrggbbaa}` when a colour is
set on the ruby text (model.Rt) or on a span inside it around its first text (the innermost such
colour: the one the text is drawn in). A ruby container whose children are not a base and a text
(model.Rb then model.Rt) is written `{?...}` with the names of its children's classes. Text in
spans that ttconv did not read as ruby is written as it is, so ruby it missed shows as run-on text.
"""
import sys
import xml.etree.ElementTree as et

import ttconv.imsc.reader as imsc_reader
import ttconv.model as model
from ttconv.style_properties import StyleProperties

from peer_files import convert_pairs


def text_of(element):
    """The text of an element and its descendants, ruby written as {base|text}."""
    if isinstance(element, model.Text):
        return element.get_text()
    if isinstance(element, model.Br):
        return "\n"
    if isinstance(element, model.Ruby):
        children = list(element)
        if [type(child) for child in children] != [model.Rb, model.Rt]:
            return "{?" + " ".join(type(child).__name__ for child in children) + "}"
        base, annotation = children
        color = text_color(annotation)
        suffix = "" if color is None else " color=#" + "".join("%02x" % c for c in color.components)
        return "{" + text_of(base) + "|" + text_of(annotation) + suffix + "}"
    return "".join(text_of(child) for child in element)


def text_color(element, inherited=None):
    """The colour set nearest above the first text under `element` (itself included), or None."""
    color = element.get_style(StyleProperties.Color) or inherited
    for child in element:
        if isinstance(child, model.Text):
            return color
        if any(True for _ in texts(child)):
            return text_color(child, color)
    return color


def texts(element):
    """The text elements under `element`."""
    if isinstance(element, model.Text):
        yield element
    for child in element:
        yield from texts(child)


def paragraphs(element):
    """The paragraphs under an element, in document order."""
    if isinstance(element, model.P):
        yield element
        return
    for child in element:
        yield from paragraphs(child)


def ruby_lines(source):
    document = imsc_reader.to_model(et.parse(source))
    if document is None:
        return "ERROR: ttconv read no document"
    body = document.get_body()
    if body is None:
        return ""
    return "".join(text_of(p).replace("\n", "/") + "\n" for p in paragraphs(body))


def main(arguments):
    return convert_pairs(arguments, __doc__, ruby_lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
