"""Charts for the class report as inline SVG: stacked bars and a histogram, written as text, with their numbers as
real text and a <title> on every mark, so the page needs no library, no script and no network to show them."""

from __future__ import annotations

from html import escape

FONT = "font-family: system-ui, sans-serif; font-size: 13px"
AXIS = "#57606a"


def stacked_bars(rows: list[tuple[str, list[int]]], parts: list[tuple[str, str]], *, width: int = 720) -> str:
    """Horizontal bars, one per row, each split into parts; rows are (label, counts), parts (name, colour).

    The right of each bar says the first part as a share of the row's total ("85% passed").
    """
    label_width, right, bar, gap, top = 190, 110, 22, 10, 30
    plot = width - label_width - right
    height = top + len(rows) * (bar + gap) + 10
    out = [_open(width, height, "share of submissions per step, by status")]
    x = label_width
    for name, colour in parts:  # the legend, on one line above the bars
        out.append(f'<rect x="{x}" y="6" width="12" height="12" fill="{colour}"/>'
                   f'<text x="{x + 16}" y="16" style="{FONT}">{escape(name)}</text>')
        x += 26 + 7 * len(name)
    for index, (label, counts) in enumerate(rows):
        y = top + index * (bar + gap)
        total = sum(counts) or 1
        out.append(f'<text x="{label_width - 8}" y="{y + bar * 0.7:.1f}" text-anchor="end" '
                   f'style="{FONT}">{escape(label)}</text>')
        x = float(label_width)
        for (name, colour), count in zip(parts, counts):
            if count:
                w = plot * count / total
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}">'
                           f"<title>{escape(label)}: {count} {escape(name)}</title></rect>")
                x += w
        share = 100 * counts[0] / total if sum(counts) else 0
        out.append(f'<text x="{label_width + plot + 8}" y="{y + bar * 0.7:.1f}" style="{FONT}">'
                   f"{share:.0f}% {escape(parts[0][0])}</text>")
    out.append("</svg>")
    return "".join(out)


def histogram(bins: list[tuple[str, int]], *, colour: str, width: int = 720, title: str = "") -> str:
    """Vertical bars, one per bin (label, count), the count above each bar and the label below."""
    left, bottom, top, height = 40, 34, 22, 220
    plot_w, plot_h = width - left - 10, height - top - bottom
    most = max((count for _, count in bins), default=0) or 1
    slot = plot_w / max(len(bins), 1)
    out = [_open(width, height, title)]
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="{AXIS}"/>')
    for index, (label, count) in enumerate(bins):
        h = plot_h * count / most
        x = left + index * slot + slot * 0.15
        y = top + plot_h - h
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{h:.1f}" fill="{colour}">'
                   f"<title>{escape(label)}: {count}</title></rect>")
        middle = x + slot * 0.35
        out.append(f'<text x="{middle:.1f}" y="{y - 4:.1f}" text-anchor="middle" style="{FONT}">{count}</text>')
        out.append(f'<text x="{middle:.1f}" y="{top + plot_h + 18}" text-anchor="middle" '
                   f'style="{FONT}; fill: {AXIS}">{escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _open(width: int, height: int, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'
            f"<title>{escape(title)}</title>")
