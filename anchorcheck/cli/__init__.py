"""cli: the command line (main.py, click) and the demo (demo.py). Turns every
AnchorcheckError into one line and exit code 2.

May import: everything.
"""
