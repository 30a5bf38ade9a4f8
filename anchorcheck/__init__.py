"""anchorcheck: keep the comments that carry decisions true across repositories."""

from __future__ import annotations

__version__ = "0.1.0"
