"""The commands, one module each: importing this package registers them all with
the click group (cli/app.py), in the order `anchorcheck --help` lists them."""

from anchorcheck.cli.commands import (  # noqa: F401
    anchors,
    check,
    demo,
    facts,
    fix,
    graph,
    index,
    merge_order,
    notes,
    refs,
    rules,
)
