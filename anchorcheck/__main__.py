from __future__ import annotations

from anchorcheck.cli import main

main()
