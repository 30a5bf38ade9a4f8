"""Command line: `anchorcheck check | anchors | refs | graph | index | merge-order |
facts | fix | notes | rules | demo`. The entry point: the click group (cli/app.py)
with every command (cli/commands/), and what turns errors into one line."""

from __future__ import annotations

import gc
import sys

import click
from click.utils import PacifyFlushWrapper

import anchorcheck.cli.commands  # noqa: F401  (registers the commands)
from anchorcheck.cli.app import EXIT_BROKEN_PIPE, EXIT_ERROR, EXIT_FINDINGS, cli
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_text


def _print_traceback() -> None:
    # Imported only here: traceback brings linecache, tokenize and textwrap (~3 ms of
    # every start), and only --debug prints one.
    import traceback

    traceback.print_exc()


def main() -> None:
    try:
        _main()
    finally:
        # At exit Python collects every object still tracked, walking the whole heap (a
        # merge order: 2.6% of its instructions; more after a cold check). Nothing left
        # needs it: the cache is closed, git's processes waited for, output flushed by
        # the interpreter as always; freezing only keeps the collector from walking.
        gc.freeze()


def _utf8_output() -> None:
    """Standard output in UTF-8 whatever the locale, when it goes to a program or a
    file: JSON, SARIF, JUnit and Markdown are UTF-8 by their definitions, and `-o FILE`
    writes UTF-8 already. Under a Latin-1 locale (or PYTHONIOENCODING, or a Windows
    pipe's code page) a piped `--format json` was Latin-1 and `--format sarif` stopped
    at its first `…` (internal error, exit 2). A terminal keeps its own encoding, what it
    cannot show escaped; so does standard error."""
    for stream, to_utf8 in ((sys.stdout, True), (sys.stderr, False)):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding in ("utf-8", "utf8") or reconfigure is None:
            continue
        if to_utf8 and not stream.isatty():
            reconfigure(encoding="utf-8")
        else:
            reconfigure(errors="backslashreplace")


def _main() -> None:
    debug = "--debug" in sys.argv[1:]
    _utf8_output()
    try:
        cli.main(prog_name="anchorcheck", standalone_mode=False)
    except SystemExit as exc:
        # Click ends a write to a closed pipe (`anchorcheck refs | head -1`) with exit
        # 1, the code for findings; git's 141 (128 + SIGPIPE) says the reader left.
        if exc.code == EXIT_FINDINGS and isinstance(sys.stdout, PacifyFlushWrapper):
            sys.exit(EXIT_BROKEN_PIPE)
        raise
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_ERROR)
    except click.exceptions.Abort:
        click.echo("anchorcheck: aborted", err=True)
        sys.exit(EXIT_ERROR)
    except AnchorcheckError as exc:
        if debug:
            _print_traceback()
        click.echo(f"anchorcheck: error: {safe_text(str(exc))}", err=True)
        sys.exit(EXIT_ERROR)
    except BrokenPipeError:
        # `anchorcheck anchors | head`, written after click's own handling: the reader
        # left; that is not an error of ours, nor a clean run whose output was read.
        sys.stderr.close()
        sys.exit(EXIT_BROKEN_PIPE)
    except Exception as exc:  # a bug of ours: one line unless asked for more
        if debug:
            _print_traceback()
        click.echo(f"anchorcheck: internal error: {type(exc).__name__}: {safe_text(str(exc))} "
                   "(run with --debug for a traceback)", err=True)
        sys.exit(EXIT_ERROR)
