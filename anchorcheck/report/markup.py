"""Markdown for PR comments and job summaries, with repo text made inert.

Markdown lands where repo text could otherwise mention people (`@team`), link
(`](javascript:...)`), autolink issues (`#1`), or inject HTML: every piece of repo
text goes through `md_text` (escaped prose) or `md_code` (a code span).
"""

from __future__ import annotations

import re

from anchorcheck.model.finding import Severity
from anchorcheck.patterns import compiled_on_use
from anchorcheck.report.text import safe_text

# Mid-line, only these can start markup (links need `[`, so `(` and `!` are inert);
# `#` is escaped so repo text cannot autolink issues.
_MD_SPECIAL = compiled_on_use(r"([\\`*_\[\]#|~])")
ICONS = {Severity.ERROR: "🛑", Severity.WARNING: "⚠️", Severity.INFO: "ℹ️"}


def md_text(text: str) -> str:
    """Repo text as inert Markdown: no markup, no HTML, no @mentions, no links, no
    control characters (shown as `\\x1b`)."""
    text = safe_text(" ".join(text.split()))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("@", "@&#8203;").replace("://", ":&#8203;//")


def md_code(text: str) -> str:
    """Repo text as an inline code span, fenced so no backtick inside can close it. A
    line break or tab in it (a file whose name holds one) is shown escaped, as a
    backslash and a letter: a code span renders it as a space, and the name shown
    would be another file's."""
    text = text.replace("\\", "\\\\") if any(ch in text for ch in "\n\r\t") else text
    text = text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    text = safe_text(" ".join(text.split()))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{fence}{pad}{text}{pad}{fence}"
