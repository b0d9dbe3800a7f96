"""What the notebook helpers show besides a verdict: Table, Chart and Message."""

from __future__ import annotations

import html

from checks.report import COLOURS
from checks.report.notebook import code_spans

__all__ = ["Chart", "Link", "Message", "Table", "code_spans"]


class Link:
    """A file of the lab, named in a table: a link JupyterLab opens in a tab (relative to notebooks/), its name in text."""

    def __init__(self, text: str, href: str):
        self.text, self.href = text, href

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return f'<a href="{html.escape(self.href)}">{html.escape(self.text)}</a>'


class Table:
    """A small table shown as HTML in a notebook and as aligned text elsewhere."""

    def __init__(self, columns: list[str], rows: list[list], caption: str = ""):
        self.columns, self.rows, self.caption = columns, rows, caption

    def __repr__(self) -> str:
        cells = [self.columns] + [[str(c) for c in row] for row in self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.columns))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(([self.caption] if self.caption else []) + lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f'<th style="text-align: left">{esc(c)}</th>' for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f'<td style="text-align: left">{_cell(c)}</td>' for c in row) + "</tr>"
            for row in self.rows
        )
        caption = f"<caption>{esc(self.caption)}</caption>" if self.caption else ""
        return f'<table class="spec2code-table">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _cell(value) -> str:
    return value._repr_html_() if isinstance(value, Link) else html.escape(str(value))


class Chart:
    """A matplotlib figure rendered once to PNG (deterministic, no pyplot state), with a text summary."""

    def __init__(self, png: bytes, summary: str):
        self.png, self.summary = png, summary

    def _repr_png_(self) -> bytes:
        return self.png

    def __repr__(self) -> str:
        return self.summary


class Message:
    """A sentence shown in place of a result: nothing to draw, or a problem to fix."""

    def __init__(self, text: str, colour: str = COLOURS["not started"]):
        self.text, self.colour = text, colour

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        style = f"border-left: 6px solid {self.colour}; padding: 4px 10px"
        return f'<div class="spec2code-message" style="{style}">{code_spans(self.text)}</div>'
