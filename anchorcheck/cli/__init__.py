"""cli: the command line: main.py (the entry; every AnchorcheckError becomes one line
and exit code 2), app.py (the click group and what the commands share), commands/
(one module per command) and the demo workspace (demo.py).

May import: everything.
"""
