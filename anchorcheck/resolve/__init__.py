"""resolve: what each reference points at across the workspace. workspace_index.py
is the index of every repo's snapshot that resolution asks (anchors by name and file,
paths by name, site pages, includes), over site_pages.py (what the sites build of the
pages) over snapshot_files.py (paths, directories, texts read from git); resolver.py
resolves references to anchors, files and lines against it (with did-you-mean from
suggest.py), into the Resolution of resolution.py, from parts split by concern:
locations.py the files a path names, pages.py the pages and URLs of a site,
fragments.py a heading or fragment in those files, names.py a name anywhere (quoted
headings, Notes), resolver_base.py what the parts share;
graph.py builds the networkx graph; verify.py checks claims against the files they
name; history.py reads AC203's removal events from git history (the events of a
log's diffs in definition_events.py, what a definition looks like in
definition_shapes.py, which candidates are still defined in defined_among.py);
moved.py finds a moved repo's last name-search entry and the files changed since;
notes_profile.py is GHC's lint-notes, reproduced.
sites.py finds the documentation sites a repo builds, whose configs site_config.py
reads as text.

May import: index, config, extract, git, model, and the helpers at the package's top.
"""
