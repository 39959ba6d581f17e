"""The outputs of an nbconvert HTML report (lab template), cell by cell, as plain text.

nbconvert writes each code cell's outputs into ``<div class="jp-OutputArea jp-Cell-outputArea">``, one
``<div class="jp-OutputArea-child">`` per output (``jp-OutputArea-executeResult`` added for an
execute_result). A stream output (print) and a text/plain-only display are both a ``jp-RenderedText``
block; HTML, Markdown and images have their own classes. ``outputs(html)`` returns, per output area, a list
of ``Output(kind, text, cells)``: kind "text" (a ``jp-RenderedText`` that is not an execute result), "result",
"html", "markdown", "image" or "other"; text its visible text (tags dropped, entities decoded, image data
left out); cells the text of each table cell in it.
"""
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Output:
    kind: str
    text: str = ""
    cells: list = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.areas = []        # list of lists of Output
        self.stack = []        # per open div: role ("area", "child", None)
        self.child = None      # the Output being read
        self.cell = None       # text of the table cell being read
        self.skip = 0          # depth inside <style>/<script>

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag in ("style", "script"):
            self.skip += 1
        if tag == "div":
            role = None
            if "jp-OutputArea" in cls and "jp-Cell-outputArea" in cls:
                role = "area"
                self.areas.append([])
            elif "jp-OutputArea-child" in cls and self.areas and self._inside("area"):
                role = "child"
                self.child = Output("result" if "jp-OutputArea-executeResult" in cls else "other")
                self.areas[-1].append(self.child)
            elif "jp-OutputArea-output" in cls and self.child is not None and self.child.kind == "other":
                if "jp-RenderedText" in cls:
                    self.child.kind = "text"
                elif "jp-RenderedHTML" in cls or "jp-RenderedHTMLCommon" in cls:
                    self.child.kind = "markdown" if "jp-RenderedMarkdown" in cls else "html"
                elif "jp-RenderedImage" in cls:
                    self.child.kind = "image"
            self.stack.append(role)
        if tag == "td" or tag == "th":
            self.cell = ""
        if tag in ("br", "p", "tr", "li", "pre") and self.child is not None:
            self.child.text += "\n"

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self.skip:
            self.skip -= 1
        if tag in ("td", "th") and self.cell is not None and self.child is not None:
            self.child.cells.append(self.cell.strip())
            self.child.text += " | "
            self.cell = None
        if tag == "div" and self.stack:
            role = self.stack.pop()
            if role == "child":
                self.child = None

    def handle_data(self, data):
        if self.skip or self.child is None:
            return
        self.child.text += data
        if self.cell is not None:
            self.cell += data

    def _inside(self, role):
        return role in self.stack


def outputs(html):
    """Per code cell with outputs, the list of its outputs (see the module comment)."""
    p = _Parser()
    p.feed(html)
    p.close()
    return p.areas
