"""Blob bytes to text: what is read as text, and why the rest is not."""

from __future__ import annotations

# A NUL byte in the first 8000 bytes makes a blob binary, as git itself decides.
_BINARY_SNIFF = 8000

# Not a property of the blob but of this clone: never cached, always warned about.
UNREADABLE = "unreadable object (missing or corrupt; see git fsck)"


def decode_blob(data: bytes | None) -> tuple[str | None, str]:
    """The blob's text, or None and why it is not read as text."""
    if data is None:
        return None, UNREADABLE
    if b"\0" in data[:_BINARY_SNIFF]:
        return None, "binary"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not UTF-8"
    # Line numbers must match what editors and GitHub show: CRLF counts as one line
    # end, and a lone CR (classic Mac) as one too.
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removeprefix("\ufeff"), ""
