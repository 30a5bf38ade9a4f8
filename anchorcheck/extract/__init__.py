"""extract: text in, plain data out. One comment scanner per language family
(scanners.py; each family's patterns in families.py, the Comments built from what a
scan finds in comment_lines.py, YAML's block scalars in yaml_scalars.py), Markdown
(markdown.py; its blocks read by markdown_blocks.py), and the finders run over what
they give: headings and Notes, citations (citations.py; links in links.py), claims,
facts, symbols, suppressions. blob.py is the entry point (one blob's index);
triggers.py skips blobs that cannot hold anything.

Pure: no git, no cache, no file system, so a blob's result depends on its text and
the options alone and can be cached by blob id.

May import: model, and the helpers at the package's top.
"""
