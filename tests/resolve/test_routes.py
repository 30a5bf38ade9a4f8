"""Site routes (resolve/routes.py, issue 40 item 3): links followed as the site that
shows the page serves them. Jekyll's URLs come from its collections' permalink patterns
and each page's front matter, not from the files' places; Sphinx (MyST) resolves a
`#target` on any page; a Markdown document in a test folder is a test's input; GitHub's
own pages (`../../graphs/contributors`) are not files."""

from __future__ import annotations

import json

from anchorcheck.git.repobuilder import commit
from anchorcheck.resolve.routes import JekyllConfig, front_matter, jekyll_url, url_key
from anchorcheck.resolve.sites import JEKYLL, detect
from tests.conftest import WorkspaceBuilder, run_cli


def _unchecked(ws: WorkspaceBuilder) -> list[dict[str, str]]:
    """The workspace's references not judged, as `refs --unresolved` lists them."""
    refs: list[dict[str, str]] = json.loads(run_cli("refs", "--unresolved", "--format", "json",
                                                    cwd=ws.root).out)["references"]
    return refs

CONFIG = """title: Site
collections:
  docs:
    permalink: "/:collection/:path/"
    output: true
  posts:
    permalink: "/news/:year/:month/:day/:title/"
    output: true
  recipes:
    output: false
"""


def test_url_keys_name_one_page_however_written() -> None:
    assert {url_key(u) for u in ("/docs/history/", "docs/history.html", "/docs/history/index.html",
                                 "/docs/history#v1", "/docs/history/?x=1")} == {"docs/history"}
    assert url_key("/") == url_key("/index.html") == ""


def test_jekyll_urls_from_collections_permalinks_and_pages() -> None:
    config = JekyllConfig.parse(CONFIG)
    assert dict(config.collections) == {"posts": "/news/:year/:month/:day/:title/", "docs": "/:collection/:path/"}
    assert jekyll_url("_docs/maintaining/triaging.md", {}, config) == "/docs/maintaining/triaging/"
    assert jekyll_url("_docs/history.md", {"permalink": "/docs/history/"}, config) == "/docs/history/"
    assert jekyll_url("_posts/2013-05-08-jekyll-1-0-1-released.markdown", {}, config) == \
        "/news/2013/05/08/jekyll-1-0-1-released/"
    assert jekyll_url("_recipes/a.md", {}, config) is None  # not output
    assert jekyll_url("_layouts/default.html", {}, config) is None
    assert jekyll_url("about.md", {}, config) == "/about.html"
    assert jekyll_url("blog/index.html", {}, config) == "/blog/"
    assert jekyll_url("img/logo.png", {}, config) == "/img/logo.png"
    # The default style for posts, with categories from the front matter.
    plain = JekyllConfig.parse("title: x\n")
    assert jekyll_url("_posts/2020-01-02-hi.md", {"categories": "news release"}, plain) == \
        "/news/release/2020/01/02/hi.html"
    assert jekyll_url("about.md", {}, JekyllConfig.parse("permalink: pretty\n")) == "/about/"


def test_front_matter_is_read_only_at_the_top() -> None:
    assert front_matter("---\npermalink: /x/\ntitle: 'a: b'\n---\n# Body\n") == {"permalink": "/x/", "title": "a: b"}
    assert front_matter("# Title\n---\npermalink: /x/\n---\n") == {}
    assert front_matter("---\n[unclosed\n---\n") == {}


def test_a_jekyll_site_is_told_from_jupyter_books_config() -> None:
    def found(files: dict[str, str]) -> list[tuple[str, str]]:
        dirs = {p.rsplit("/", i)[0] for p in files for i in range(1, p.count("/") + 1)}
        return [(s.renderer, s.root) for s in detect(files, files.get, dirs)]

    assert found({"docs/_config.yml": CONFIG, "docs/_docs/a.md": ""}) == [(JEKYLL, "docs")]
    assert found({"site/_config.yml": "title: x\n", "site/_layouts/page.html": ""}) == [(JEKYLL, "site")]
    assert found({"book/_config.yml": "title: x\nexclude: []\n", "book/_toc.yml": "root: intro\n"}) == []
    assert found({"tool/_config.yml": "title: x\n"}) == []  # no sign of a Jekyll site


def test_links_on_a_jekyll_site_follow_its_urls(ws: WorkspaceBuilder) -> None:
    ws.repo("jekyll", {
        "docs/_config.yml": CONFIG,
        "docs/_layouts/docs.html": "<html>{{ content }}</html>\n",
        "docs/_docs/history.md": "---\npermalink: /docs/history/\n---\n\n## 1.0.1\n{: #v1-0-1}\n\nFixed.\n",
        "docs/_docs/installation/ubuntu.md": "---\ntitle: Ubuntu\n---\n\n# Ubuntu\n",
        "docs/_docs/installation/other-linux.md":
            "---\npermalink: /docs/installation/other-linux/\n---\n\n"
            "Follow [Ubuntu](../ubuntu/). Or [Arch](../arch/).\n",
        "docs/_docs/maintaining/index.md": "---\npermalink: /docs/maintaining/\n---\n\n"
                                           "- [Triaging](triaging-an-issue/)\n",
        "docs/_docs/maintaining/triaging-an-issue.md": "# Triaging\n",
        "docs/_posts/2013-05-08-jekyll-1-0-1-released.markdown":
            "---\ntitle: 1.0.1\n---\n\nSee [History][].\n\n[History]: /docs/history/#v1-0-1\n",
        "docs/_posts/2013-05-12-broken.markdown":
            "---\ntitle: x\n---\n\n[gone](/docs/nowhere/) and [bad id](/docs/history/#v9-9-9)\n",
        "docs/pages/showcase.html": "---\npermalink: /showcase/\n---\n<p>x</p>\n",
        "docs/index.md": "---\nlayout: home\n---\n\n[Showcase](/showcase/), [old](/news/2013/05/08/jekyll-1-0-1-released/)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"])
    assert found == [
        ("AC101", "docs/_posts/2013-05-12-broken.markdown", 5),
        ("AC105", "docs/_docs/installation/other-linux.md", 5),
        ("AC105", "docs/_posts/2013-05-12-broken.markdown", 5),
    ]


def test_a_myst_target_on_any_page_and_a_directives_name(ws: WorkspaceBuilder) -> None:
    ws.repo("myst", {
        "docs/conf.py": "extensions = ['myst_parser']\n",
        "docs/organising.md": "(organising-content)=\n# Organising content\n",
        "docs/typography.md": "# Typography\n\nSee [the section](#organising-content) and [tip](#a-tip),\n"
                              "[fish](#fig-target), [no such](#nowhere), <project:organising.md#organising-content>\n"
                              "and <inv:sphinx:std#index>.\n",
        "docs/admonitions.md": "# Admonitions\n\n```{tip}\n:name: a-tip\nLet's give readers a helpful hint!\n```\n\n"
                               ":::{figure-md} fig-target\n![fishy](fish.png)\n:::\n",
        "docs/fish.png": "",
    })
    run = ws.check("--format", "json", "--no-cache")
    found = [(f["code"], f["path"], f["line"], f["message"]) for f in json.loads(run.out)["findings"]]
    assert [f[:3] for f in found] == [("AC101", "docs/typography.md", 4)]
    assert "#nowhere" in found[0][3]


def test_test_inputs_forge_pages_and_image_fragments_are_not_judged(ws: WorkspaceBuilder) -> None:
    ws.repo("parser", {
        "README.md": "# Parser\n\n[Contributors](../../graphs/contributors), [issues](../../issues),\n"
                     "![logo](logo.svg#only-dark), [gone](../../nope/x.md)\n",
        "logo.svg": "<svg/>\n",
        "tests/fixtures/links.md": "[a](missing.md) <img src=\"a\">\n",
        "tests/README.md": "# Tests\n\nRun [the runner](run.md).\n",
        # cloudevents' link checker's inputs, broken on purpose; a folder merely
        # starting so (`fakery/`) is no such thing.
        "tools/fake-docs/links.md": "[gone](non-existing.md)\n",
        # An HTML tag's `\` a browser reads as `/`; a Markdown link's GitHub escapes.
        "docs/USAGE.md": '# Usage\n\n<img src="..\\logo.svg"> ![logo](..\\logo.svg)\n',  # 3
        "docs/fakery/notes.md": "[gone](nope.md)\n",
        "src/refs.py": '"""Resolve ``[text](./doc.md#target)`` links."""\n',
    })
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"])
    # A test folder's README is a page a reader follows; a link leaving the repo past
    # GitHub's pages is broken.
    assert found == [("AC105", "README.md", 4), ("AC105", "docs/USAGE.md", 3), ("AC105", "docs/fakery/notes.md", 1),
                     ("AC105", "tests/README.md", 3)]
    unchecked = _unchecked(ws)
    assert sorted((r["path"], r["unchecked"]) for r in unchecked) == [
        ("README.md", "file-fragment"), ("README.md", "forge-page"), ("README.md", "forge-page"),
        ("tests/fixtures/links.md", "test-input"), ("tests/fixtures/links.md", "test-input"),
        ("tools/fake-docs/links.md", "test-input"),
    ]


def test_fragments_of_html_files_folders_and_the_top(ws: WorkspaceBuilder) -> None:
    # The cases lychee's fragment fixtures check, written anew.
    ws.repo("site", {
        "guide.md": "# Guide\n\n[word](page.html#a-word), [wrong case](page.html#A-Word),\n"
                    "[top](other.md#top), [top too](#top), [data](notes#line),\n"
                    "[in folder](web/#intro), [in folder too](web#intro), [not there](web/#outro),\n"
                    "[empty folder](empty/#x)\n",
        "page.html": '<html><body><p id="a-word">Word</p><a name=old></a></body></html>\n',
        "other.md": "# Other\n\n[readme](#readme)\n", "notes": "plain text\n",
        # GitHub shows a README in a box whose id is `readme` (loguru's logo links it).
        "README.md": '# Site\n\n<a href="#readme"><img src="other.md"></a>\n',
        "web/index.html": '<html><body><h2 id="intro">Intro</h2></body></html>\n',
        "empty/.gitkeep": "",
    })
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["code"], f["line"], f["message"]) for f in json.loads(run.out)["findings"])
    assert found == [
        ("AC101", 3, "no heading with fragment #A-Word in site:page.html"),
        ("AC101", 3, "no heading with fragment #readme in site:other.md"),  # (no README)
        ("AC101", 5, "no heading with fragment #outro in site:web/index.html"),
        ("AC101", 6, "no heading with fragment #x in site:empty"),
    ]


def test_a_declared_jekyll_site_reads_its_config(ws: WorkspaceBuilder) -> None:
    # No sign of Jekyll beside its config: found only when declared.
    ws.repo("blog", {
        "web/_config.yml": "title: x\n",
        "web/about.md": "---\npermalink: /about-us/\n---\n# About\n",
        "web/index.md": "# Home\n\n[About](/about-us/)\n",
    })
    config = ws.config()
    assert [f["code"] for f in json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]] == ["AC105"]
    config.write_text(config.read_text() + '[[site]]\nrenderer = "jekyll"\nroot = "web"\n')
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert json.loads(run.out)["findings"] == [], run.out


def test_a_mkdocs_pages_own_folder_link_is_the_page(ws: WorkspaceBuilder) -> None:
    # MkDocs serves tls/overview.md at tls/overview/: `./#x` is the page's own fragment.
    ws.repo("docs", {
        "mkdocs.yml": "site_name: x\n",
        "docs/tls/overview.md": "# Overview\n\nSee [resolvers](./#certificate-resolver), [gone](./#nope).\n\n"
                                "## Certificate Resolver\n",
        "docs/tls/options.md": "# Options\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["message"]) for f in json.loads(run.out)["findings"]] == [
        ("AC101", "no heading with fragment #nope in docs:docs/tls/overview.md")]


def test_a_docusaurus_site_with_its_docs_outside_the_website_folder(ws: WorkspaceBuilder) -> None:
    # redux's shape: docs/ at the root, served at `/` by website/docusaurus.config.ts.
    ws.repo("redux", {
        # (A site whose build only warns of a broken link: anchorcheck judges its links.)
        "website/docusaurus.config.ts": "export default { onBrokenLinks: 'warn', presets: [['classic', {\n"
                                        "  docs: { path: '../docs', routeBasePath: '/' },\n}]] }\n",
        "website/static/img/flow.png": "png",
        "docs/api/Store.md": "---\nid: store\n---\n# Store\n\n## dispatch(action)\n",
        "docs/faq/OrganizingState.md": "---\nid: organizing-state\n---\n# Organizing State\n",
        "docs/tutorials/index.md": "---\nslug: index\n---\n# Tutorials\n\n[part 1](./essentials/part-1)\n",
        "docs/tutorials/essentials/part-1.md": "# Part 1\n\n![flow](/img/flow.png) [state](../../faq/organizing-state)\n",
        "docs/understanding/Glossary.md": "# Glossary\n\n[store](api/Store.md#dispatchaction), [gone](api/Nope.md),\n"
                                          "[faq](/faq/organizing-state), [no page](/faq/nothing)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"])
    assert found == [("AC105", "docs/understanding/Glossary.md", 3), ("AC105", "docs/understanding/Glossary.md", 4)]


def test_a_vitepress_config_in_a_folder_with_its_own_attribute_delimiters(ws: WorkspaceBuilder) -> None:
    # pinia's shape: .vitepress/config/index.ts, and shared.ts sets markdown-it-attrs'
    # delimiters to `%{` `}%`.
    ws.repo("pinia", {
        "docs/.vitepress/config/index.ts": "export default defineConfig({ ...sharedConfig })\n",
        "docs/.vitepress/config/shared.ts": "export const sharedConfig = { markdown: { attrs: {\n"
                                            "  leftDelimiter: '%{',\n  rightDelimiter: '}%',\n} } }\n",
        "docs/api/pinia.md": "# 模块 %{#module-pinia}%\n\n### StateTree %{#statetree}%\n\n### \\_ActionsTree %{#actionstree}%\n",
        "docs/guide.md": "# Guide\n\n[StateTree](./api/pinia.md#statetree), [Actions](./api/pinia.md#_actionstree),\n"
                         "[ssr](./ssr/#hydration)\n",
        "docs/ssr/index.md": "# SSR\n\n## Hydration\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"], f["message"]) for f in json.loads(run.out)["findings"]] == [
        ("AC101", 3, "no heading with fragment #_actionstree in pinia:docs/api/pinia.md")]


def test_a_hugo_home_page_shows_static_files_and_dotted_page_names(ws: WorkspaceBuilder) -> None:
    ws.repo("kind", {
        "site/config.toml": 'baseURL = "https://kind.sigs.k8s.io"\n',
        "site/static/logo/logo.png": "png",
        "site/content/_index.md": "# kind\n\n<img src=\"./logo/logo.png\"> ![gone](./logo/gone.png)\n\n"
                                  "[roadmap]: /docs/contributing/1.0-roadmap\n\nSee the [roadmap].\n",
        "site/content/docs/contributing/1.0-roadmap.md": "# Roadmap\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"]) for f in json.loads(run.out)["findings"]] == [("AC105", 3)]


def test_a_doubled_hash_is_broken_on_a_site_too(ws: WorkspaceBuilder) -> None:
    # `part-4.md##x` asks for the id `#x`, which no heading and no build makes.
    ws.repo("docs", {
        "website/docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { path: '../docs' } }]] }\n",
        "docs/part-4.md": "# Part 4\n\n## Using extraReducers\n",
        "docs/part-5.md": "# Part 5\n\n[fine](./part-4.md#using-extrareducers), [doubled](./part-4.md##using-extrareducers)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC101", 3, 42)]


def test_docusaurus_versioned_docs_link_by_id_within_their_version(ws: WorkspaceBuilder) -> None:
    # react-redux's shape: website/versioned_docs/version-7.2/, linked by doc id; a
    # version versions.json does not list is not built (GitHub shows it: 6.x's link).
    ws.repo("react-redux", {
        "website/docusaurus.config.ts": "export default { onBrokenLinks: 'warn',\n"
                                        "  presets: [['classic', { docs: { path: '../docs' } }]] }\n",
        "website/versions.json": '["7.2"]\n',
        "website/versioned_docs/version-6.x/api/connect.md": "# connect\n\n[here](../using/connect-mapstate)\n",
        "website/versioned_docs/version-6.x/using/connect-extracting-data.md": "---\nid: connect-mapstate\n---\n# E\n",
        "docs/api/connect.md": "---\nid: connect\n---\n# connect\n",
        "website/versioned_docs/version-7.2/using/connect-extracting-data.md": "---\nid: connect-mapstate\n---\n# Extracting\n",
        "website/versioned_docs/version-7.2/api/connect.md":
            "---\nid: connect\n---\n# connect\n\n[here](../using/connect-mapstate), [gone](../using/connect-nothing)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"]] == [
        ("AC105", "website/versioned_docs/version-6.x/api/connect.md", 3),
        ("AC105", "website/versioned_docs/version-7.2/api/connect.md", 6)]


def test_pages_built_from_directives_and_docstrings_shown_on_a_page(ws: WorkspaceBuilder) -> None:
    # hatch's shapes: docs/cli/reference.md is a `::: mkdocs-click` directive alone (its
    # ids are the build's), and mkdocstrings shows interface.py's docstrings on
    # docs/plugins/environment/reference.md, where their `reference.md#...` links point.
    ws.repo("hatch", {
        "mkdocs.yml": "site_name: hatch\nplugins:\n  - mkdocstrings\n",
        "docs/cli/reference.md": "::: mkdocs-click\n    :module: hatch.cli\n    :command: hatch\n",
        "docs/plugins/environment/reference.md": "# Environment plugins\n\n::: hatch.env.plugin.interface.EnvironmentInterface\n",
        "docs/plugins/builder/reference.md": "# Builders\n\n::: hatchling.builders.plugin.interface.BuilderInterface\n",
        "docs/plugins/utilities.md": "# Utilities\n\n::: hatch.env.plugin.interface.FileSystemContext\n",
        "docs/intro.md": "# Intro\n\nRun [`hatch new`](cli/reference.md#hatch-new), see [tips](tips.md#nope).\n",
        "docs/tips.md": "# Tips\n\n::: warning Careful {#careful}\nx\n:::\n",
        "docs/more.md": "# More\n\n[careful](tips.md#careful)\n",
        "src/hatch/env/plugin/interface.py": '"""Environments.\n\nSee [dependencies](reference.md#hatch.env.plugin.interface.EnvironmentInterface.dependencies).\n"""\n',
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"]] == [
        ("AC101", "docs/intro.md", 3)]


def test_a_vitepress_page_shows_the_headings_it_includes(ws: WorkspaceBuilder) -> None:
    ws.repo("vitest", {
        "docs/.vitepress/config.ts": "export default {}\n",
        "docs/guide/cli.md": "# CLI\n\n<!--@include: ./cli-generated.md-->\n",
        "docs/guide/cli-generated.md": "### fileParallelism\n\nx\n",
        "docs/guide/debugging.md": "# Debugging\n\n[no parallelism](/guide/cli#fileparallelism), [gone](/guide/cli#nope)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC101", 3, 47)]


def test_docs_plugin_instances_quoted_keys_rst_labels_and_ignored_build_output(ws: WorkspaceBuilder) -> None:
    # pnpm.io's config quotes its keys and adds a second docs instance; attrs' MyST page
    # links a reST label; vue-router's /api/ pages are written by TypeDoc, git-ignored.
    ws.repo("pnpm", {
        "docusaurus.config.ts": 'export default { "onBrokenLinks": "warn", presets: [["classic", { "docs": { "path": "./docs", '
                                '"routeBasePath": "/" } }]],\n  "plugins": [["@docusaurus/plugin-content-docs",'
                                " { id: 'pnpr', path: './pnpr-docs', routeBasePath: 'pnpr' }]] }\n",
        "docs/cli/stage.md": "# stage\n",
        "pnpr-docs/introduction.md": "---\nslug: /\n---\n# pnpr\n",
        "pnpr-docs/endpoints.md": "# Endpoints\n\n[stage](/cli/stage), [pnpr](/pnpr), [gone](/cli/nothing)\n",
    })
    ws.repo("attrs", {
        "docs/conf.py": "extensions = ['myst_parser']\n",
        "docs/api.rst": "API\n===\n\n.. _api-validators:\n\nValidators\n----------\n",
        "docs/init.md": "# Init\n\n[check them out]( api-validators), [nope](api-nothing)\n",
    })
    ws.repo("router", {
        "packages/docs/.vitepress/config.ts": "export default {}\n",
        "packages/docs/.gitignore": "api\n",
        "packages/docs/guide/routing.md": "# Routing\n\n[hasRoute](/api/interfaces/RouterClassic.md#hasRoute-)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["repo"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("AC105", "attrs", 3, 36), ("AC105", "pnpm", 3, 37)]


def test_hugo_urls_astro_routes_code_spans_and_vendored_citations(ws: WorkspaceBuilder) -> None:
    # kustomize's Hugo pages live under folders with capitals and spaces, served
    # urlized; expressjs.com's Astro content is routed by code, its public/ served as is;
    # an HTML tag in a code span is shown code; valkey's vendored hiredis cites redis.
    ws.repo("kustomize", {
        "site/hugo.toml": 'baseURL = "https://kustomize.io"\ncontentDir = "content/en"\n',
        "site/content/en/docs/Reference/API/Kustomization File/resources.md": "# resources\n",
        "site/content/en/docs/Reference/API/Kustomization File/bases.md":
            "# bases\n\n[resources], [gone]\n\n[resources]: /docs/reference/api/kustomization-file/resources\n"
            "[gone]: /docs/reference/api/kustomization-file/nothing\n",
    })
    ws.repo("express", {
        "astro.config.mjs": "export default defineConfig({})\n",
        "public/images/clustering.png": "png",
        "src/content/pages/de/perf.md": "# Perf\n\n![c](/images/clustering.png) ![gone](/images/none.png) "
                                        "[api](/4x/api) `<a href=\"/nowhere\">`\n",
    })
    ws.repo("valkey", {"deps/hiredis/hiredis.c": "/* See redis/src/util.c:string2ll() for the original. */\nint x;\n",
                       "src/server.c": "/* See src/nothing.c:12 for why. */\nint y;\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["repo"], f["line"]) for f in json.loads(run.out)["findings"]) == [
        ("AC105", "express", 3), ("AC105", "kustomize", 6), ("AC105", "valkey", 1)]


def test_an_mdbook_summarys_draft_chapters_and_a_test_inputs_empty_links_are_not_judged(
        ws: WorkspaceBuilder) -> None:
    ws.repo("book", {
        "guide/book.toml": "[book]\ntitle = \"Guide\"\nsrc = \"pages\"\n\n[output.html]\nsrc = \"x\"\n",
        "guide/pages/SUMMARY.md": "# Summary\n\n- [Intro](intro.md)\n- [Draft chapter]()\n",
        "guide/pages/intro.md": "# Intro\n\nSee [nothing]().\n",
        "tests/testsuite/book/src/SUMMARY.md": "- [A]()\n",
        "README.md": "# Book\n\nAn [empty]() link.\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"])
    # Only the book's SUMMARY.md lists chapters: an empty link on a page goes nowhere.
    assert found == [("AC105", "README.md", 3), ("AC105", "guide/pages/intro.md", 3)]
    unchecked = _unchecked(ws)
    assert sorted((r["path"], r["unchecked"]) for r in unchecked) == [
        ("guide/pages/SUMMARY.md", "draft-chapter"), ("tests/testsuite/book/src/SUMMARY.md", "test-input"),
    ]


def test_another_renderers_id_on_a_page_no_site_config_claims_is_not_judged(ws: WorkspaceBuilder) -> None:
    # pandoc's doc/lua-filters.md is pandoc.org's page, built from another repo: its ids
    # keep periods (`#module-pandoc.text`), GitHub's drop them. A README is GitHub's.
    # An id that differs from GitHub's only by collapsed dashes (`#a-b` for "A & B") is
    # the common slip on GitHub: judged. So is every fragment in a repo building a site.
    page = ("# Module pandoc.text\n\n## A & B\n\n"
            "See [text](#module-pandoc.text), [gone](#module-pandoc.gone), [ab](#a-b).\n")
    repo = ws.repo("pandoc", {"doc/lua-filters.md": page, "README.md": page})
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["path"], f["message"].split(" in ")[0]) for f in json.loads(run.out)["findings"])
    assert found == [
        ("README.md", "no heading with fragment #a-b"),
        ("README.md", "no heading with fragment #module-pandoc.gone"),
        ("README.md", "no heading with fragment #module-pandoc.text"),
        ("doc/lua-filters.md", "no heading with fragment #a-b"),
        ("doc/lua-filters.md", "no heading with fragment #module-pandoc.gone"),
    ]
    unchecked = _unchecked(ws)
    assert [(r["path"], r["unchecked"]) for r in unchecked] == [("doc/lua-filters.md", "renderer-unknown")]
    commit(repo, {"docs/mkdocs.yml": "site_name: x\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert ("doc/lua-filters.md", 5) in [(f["path"], f["line"]) for f in json.loads(run.out)["findings"]
                                         if "#module-pandoc.text" in f["message"]]


def test_a_hugo_sites_definition_terms_includes_and_link_render_hook(ws: WorkspaceBuilder) -> None:
    # hugoDocs: `autoDefinitionTermID` gives each definition term an id, numbered with
    # the headings' (`#cascade-1`: a term named as a heading above it); an include
    # shortcode shows another file's terms (from the content root, under the language's
    # folder); and its own link render hook resolves links by code (`[slice](g)` is a
    # glossary entry): a link the tree lacks is counted, not judged.
    site = {
        "hugo.toml": "baseURL = 'https://gohugo.io/'\n[markup.goldmark.parser]\n  autoDefinitionTermID = true\n",
        "content/en/_common/spec.md": "`action`\n: (`string`) What to do.\n",
        "content/en/methods/Process.md": (
            "# Process\n\n## Cascade\n\n`cascade`\n: The cascade.\n\n`Get`\n: Gets it.\n\n"
            "{{% include \"/_common/spec.md\" %}}\n\n"
            "See [get](#get), [cascade](#cascade-1), [action](#action), [a slice](g), [gone](#nowhere).\n"),
        # GetPage, in the hook, looks `methods/process/` up from the (language's) content root.
        "content/en/guide/intro.md": "# Intro\n\nSee [process](methods/process/) and [none](methods/none/).\n",
    }
    hook = ('{{- $u := urls.Parse .Destination }}\n{{- if eq $u.String "g" }}glossary\n'
            '{{- else }}{{ with .Page.GetPage $u.Path }}{{ .RelPermalink }}{{ end }}{{ end }}\n')
    repo = ws.repo("hugoDocs", {**site, "layouts/_markup/render-link.html": hook})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"]] == [
        ("AC105", "content/en/guide/intro.md", 3), ("AC101", "content/en/methods/Process.md", 13)]
    unchecked = _unchecked(ws)
    assert [r["unchecked"] for r in unchecked] == ["link-render-hook"]
    # Without the hook, `g` is a missing file; without autoDefinitionTermID, terms are no ids.
    commit(repo, {"layouts/_markup/render-link.html": None,
                  "hugo.toml": "baseURL = 'https://gohugo.io/'\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("AC101", 13, 5), ("AC101", 13, 18), ("AC101", 13, 41), ("AC101", 13, 74), ("AC105", 3, 5),
        ("AC105", 3, 37), ("AC105", 13, 60)]


def test_docusaurus_root_relative_md_links_translations_and_a_versions_own_path(ws: WorkspaceBuilder) -> None:
    # helm-www: `/helm/helm.md` is looked up in the content folders (never the page's);
    # `versions: {3: {path: "v3"}}` is a version's URL, not the docs plugin's folder; a
    # locale's `i18n/de/docusaurus-plugin-content-docs/version-3/` is that version's
    # translation, a page it lacks taken from versioned_docs/version-3.
    ws.repo("www", {
        "docusaurus.config.js": "module.exports = { onBrokenLinks: 'warn', presets: [['classic', { docs: {\n"
                                "  versions: { 3: { label: '3.21', path: 'v3' } } } }]] }\n",
        "versions.json": '["3"]\n',
        "docs/helm/helm.md": "# helm\n\nSee [show](/helm/helm_show.md) and [gone](/helm/gone.md).\n",
        "docs/helm/helm_show.md": "# helm show\n",
        "versioned_docs/version-3/topics/charts.md": "# Charts\n",
        "versioned_docs/version-3/intro.md": "# Intro\n",
        "i18n/de/docusaurus-plugin-content-docs/version-3/intro.md":
            "# Einführung\n\nSiehe [Charts](/topics/charts.md), [weg](/topics/weg.md).\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["path"], f["column"]) for f in json.loads(run.out)["findings"]] == [
        ("docs/helm/helm.md", 36), ("i18n/de/docusaurus-plugin-content-docs/version-3/intro.md", 36)]


def test_an_mdbook_chapters_readme_is_its_index_page(ws: WorkspaceBuilder) -> None:
    # mdBook renders a chapter folder's README.md as its index.html (clippy's book).
    ws.repo("clippy", {
        "book/book.toml": "[book]\ntitle = \"Clippy\"\n",
        "book/src/SUMMARY.md": "- [CI](ci/README.md)\n",
        "book/src/ci/README.md": "# CI\n",
        "book/src/usage.md": "# Usage\n\nSee [CI](ci/index.md) and [none](gone/index.md).\n",
        "notes/usage.md": "# Usage\n\nSee [CI](../book/src/ci/index.md).\n",  # GitHub's: no index.md
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["path"], f["column"]) for f in json.loads(run.out)["findings"]] == [
        ("book/src/usage.md", 27), ("notes/usage.md", 5)]


def test_a_link_on_a_site_whose_build_fails_on_broken_links_is_the_builds_to_judge(ws: WorkspaceBuilder) -> None:
    # Docusaurus fails its build on a link to nothing (`onBrokenLinks: 'throw'`, its
    # default), VitePress on a dead link, MkDocs in strict mode: a page link anchorcheck
    # cannot follow there is a route it does not know, counted. Fragments are judged
    # (Docusaurus only warns of a broken anchor). A site that only warns is judged.
    pages = {"docs/a.md": "# A\n\n## Two\n", "docs/b.md": "# B\n\n[x](/route/we/do/not/know), [y](./a.md#gone)\n"}
    repo = ws.repo("site", {**pages, "docusaurus.config.js": "module.exports = { presets: [['classic', {}]] }\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC101", 29)]
    unchecked = _unchecked(ws)
    assert [r["unchecked"] for r in unchecked] == ["site-build-checked"]
    for config in ({"docusaurus.config.js": "module.exports = { onBrokenLinks: 'warn' }\n"},
                   {"docusaurus.config.js": None, "mkdocs.yml": "site_name: x\n"},
                   {"mkdocs.yml": "site_name: x\nstrict: true\nvalidation:\n  links:\n    not_found: ignore\n"}):
        commit(repo, config)
        run = ws.check("--format", "json", "--no-cache")
        assert [f["code"] for f in json.loads(run.out)["findings"]] == ["AC105", "AC101"], config
    commit(repo, {"mkdocs.yml": "site_name: x\nstrict: true\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [f["code"] for f in json.loads(run.out)["findings"]] == ["AC101"]


def test_a_web_apps_page_urls_are_its_code_and_its_public_folder_is_served(ws: WorkspaceBuilder) -> None:
    # prometheus.io is a Next.js app: `src/app/docs/[...slug]/page.tsx` serves docs/ and
    # other repos' docs fetched at build time, `public/` at the root. A page URL that is
    # a page of its own source (`/docs/concepts/data_model/`) is followed and its
    # fragment judged; one no file is (`/docs/prometheus/latest/...`, `/download`) is
    # its code's, counted; a file URL is judged. Its README is GitHub's page.
    ws.repo("docs", {
        "next.config.ts": "export default { output: 'export', trailingSlash: true };\n",
        "public/assets/x.png": "png",
        "docs/concepts/data_model.md": "# Data model\n\n## Notation\n",
        "blog/posts/2021-05-03-a.md":
            "# A\n\n[n](/docs/concepts/data_model/#notation) [gone](/docs/concepts/data_model/#nothing)\n"
            "![x](/assets/x.png) ![none](/assets/none.png) [latest](/docs/prometheus/latest/querying/api/)\n"
            "[dl](/download)\n",
        "README.md": "# Docs\n\n[dl](/download)\n",
    })
    ws.repo("ui", {"svelte.config.js": "export default { preprocess: [] };\n",
                   "guide/x.md": "# X\n\n[page](/guide/y)\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["path"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("AC101", "blog/posts/2021-05-03-a.md", 3, 42),
        ("AC105", "README.md", 3, 1),
        ("AC105", "blog/posts/2021-05-03-a.md", 4, 22),
        ("AC105", "guide/x.md", 3, 1),  # (a Svelte app's config without SvelteKit: no routes)
    ]
    assert sorted((r["line"], r["unchecked"]) for r in _unchecked(ws) if r["path"].startswith("blog/")) == [
        (4, "site-route-in-code"), (5, "site-route-in-code")]


def test_a_site_whose_links_mostly_lead_nowhere_by_the_model_is_counted_not_reported(
        ws: WorkspaceBuilder) -> None:
    # hugoDocs' render hook made 1,025 of its page links lead nowhere by the model of
    # Hugo's routes: a site that deploys has few broken links, so many is a build the
    # model does not know. Counted (site-model-gap) and named by `check -v`; a site
    # with a few broken links among many is judged link by link.
    good = "".join(f"[p{i}](/docs/p{i}/) " for i in range(30))
    pages = {f"content/docs/p{i}.md": f"# P{i}\n" for i in range(30)}
    ws.repo("gap", {"hugo.toml": 'baseURL = "https://x.org"\n', **pages,
                    "content/docs/a.md": "# A\n\n" + good + "\n\n"
                    + "".join(f"[m{i}](/docs/missing{i}/) " for i in range(25)) + "\n"})
    ws.repo("few", {"hugo.toml": 'baseURL = "https://y.org"\n', **pages,
                    "content/docs/a.md": "# A\n\n" + good + "\n\n"
                    + "".join(f"[m{i}](/docs/missing{i}/) " for i in range(3)) + "\n"})
    run = ws.check("--format", "json", "--no-cache", "-v")
    assert sorted((f["repo"], f["code"]) for f in json.loads(run.out)["findings"]) == [("few", "AC105")] * 3
    assert "gap: 25 page links of the hugo site hugo.toml not judged" in run.err
    assert "few:" not in run.err.partition("site-model-gap")[2]
    assert sorted(r["unchecked"] for r in _unchecked(ws) if r["repo"] == "gap") == ["site-model-gap"] * 25


def test_a_hugo_config_directory_its_mounts_and_its_languages_content_folders(ws: WorkspaceBuilder) -> None:
    # opentelemetry.io configures Hugo in config/_default/ (hugo.yaml, and the module
    # mounts that make content/en and content/es the content); glossary's config.toml
    # gives each language its own contentDir. Each such folder is the site's content:
    # a page URL (`../b/`, Hugo's from docs/a/) resolves there, a language's URLs are
    # under its name (`/es/docs/b/`), the default language's at the root. A mount from
    # what the repo does not hold (submodules' docs copied to tmp/ at build time) is a
    # build's pages; an include file's `#x` is the including page's.
    pages = {"docs/a.md": "# A\n\n[b](../b/) [gone](../c/) [es](/es/docs/b/) [en](/docs/b/) [nes](/es/docs/c/)\n"
                          "[spec](/docs/specs/x/) [spec2](../specs/y/) [intro](#otlp)\n",
             "docs/b.md": "# B\n", "docs/_includes/intro.md": "See [deps](#otlp), ![d](d.svg).\n"}
    # (A README under such a folder is the folder's page on GitHub: judged.)
    ws.repo("gallery", {"snippets/README.md": "# Snippets\n\n[gone](gone.md)\n"})
    ws.repo("otel", {
        "config/_default/hugo.yaml": "baseURL: https://otel.io\nlanguages:\n  en: {}\n  es: {}\n",
        "config/_default/module.yaml": "mounts:\n  - source: content/en\n    target: content\n"
                                       "  - source: content/es\n    target: content\n"
                                       "  - source: tmp/specs\n    target: content/docs/specs\n"
                                       "  - source: static\n    target: static\n",
        "config/production/hugo.yaml": "baseURL: https://otel.io\n",
        **{f"content/{lang}/{p}": text for lang in ("en", "es") for p, text in pages.items()},
    })
    ws.repo("glossary", {
        "config.toml": 'baseURL = "https://g.io/"\ncontentDir = "content/en"\n\n[languages.bn]\n'
                       'contentDir = "content/bn"\n#contentDir = "content/no"\n',
        **{f"content/{lang}/{p}": text for lang in ("en", "bn", "no") for p, text in pages.items()},
    })
    ws.repo("rclone", {"docs/config.json": '{"baseurl": "https://rclone.org", "title": "rclone"}\n',
                       "docs/content/a.md": "# A\n\n[b](/b/) [gone](/c/)\n", "docs/content/b.md": "# B\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["path"], f["column"]) for f in json.loads(run.out)["findings"] if f["repo"] == "rclone"] == [
        ("docs/content/a.md", 10)]  # (rclone.org's Hugo config is JSON)
    assert [(f["path"], f["line"]) for f in json.loads(run.out)["findings"] if f["repo"] == "gallery"] == [
        ("snippets/README.md", 3)]
    found = sorted((f["repo"], f["path"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]
                   if f["repo"] == "otel")
    broken = [(3, 12), (3, 59), (4, 45)]  # `../c/`, `/es/docs/c/`, the page's own `#otlp`
    assert found == [("otel", f"content/{lang}/docs/a.md", line, column)
                     for lang in ("en", "es") for line, column in broken]
    unchecked = sorted((r["path"], r["unchecked"]) for r in _unchecked(ws) if r["repo"] == "otel")
    assert unchecked == sorted([(f"content/{lang}/docs/a.md", "build-output") for lang in ("en", "es")] * 2
                               + [(f"content/{lang}/docs/_includes/intro.md", "included-file")
                                  for lang in ("en", "es")] * 2)
    found = sorted((f["path"], f["column"]) for f in json.loads(run.out)["findings"]
                   if f["repo"] == "glossary" and f["line"] == 3)
    assert found == [
        # (glossary has no language es: `/es/docs/b/` is no page)
        ("content/bn/docs/a.md", 12), ("content/bn/docs/a.md", 26), ("content/bn/docs/a.md", 59),
        ("content/en/docs/a.md", 12), ("content/en/docs/a.md", 26), ("content/en/docs/a.md", 59),
        # (content/no is no language's folder: GitHub's page, where `../b/` is content/no/b/)
        ("content/no/docs/a.md", 1), ("content/no/docs/a.md", 12), ("content/no/docs/a.md", 26),
        ("content/no/docs/a.md", 44), ("content/no/docs/a.md", 59),
    ]


def test_a_pull_request_templates_root_relative_link_is_a_url_of_the_forges_site(ws: WorkspaceBuilder) -> None:
    # tldr's PULL_REQUEST_TEMPLATE.md becomes the body of a pull request on github.com,
    # where `/tldr-pages/tldr/blob/main/CONTRIBUTING.md#...` is that file of the repo.
    ws.repo("tldr", {
        "CONTRIBUTING.md": "# Contributing\n\n## Commit message\n",
        ".github/PULL_REQUEST_TEMPLATE.md":
            "See [the guide](/tldr-pages/tldr/blob/main/CONTRIBUTING.md#commit-message),\n"
            "[gone](/tldr-pages/tldr/blob/main/CONTRIBUTING.md#nothing), [new](/tldr-pages/tldr/issues/new).\n",
        "docs/guide.md": "[root](/tldr-pages/tldr/blob/main/CONTRIBUTING.md)\n",
    })
    ws.with_urls("tldr-pages", "tldr")
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"]) == [
        ("AC101", ".github/PULL_REQUEST_TEMPLATE.md", 2),
        ("AC105", "docs/guide.md", 1),  # (a page of the repo: `/` is its root)
    ]



def test_a_pull_request_templates_relative_link_reads_from_the_pull_requests_page(ws: WorkspaceBuilder) -> None:
    # ory's pull_request_template.md links `../blob/master/CONTRIBUTING.md` and
    # `../security/policy`: from the pull request's page, /OWNER/REPO/pull/N, that file
    # and the repo's security page. A link that leads nowhere from there, nor from the
    # file, is broken.
    ws.repo("k8s", {
        "CONTRIBUTING.md": "# Contributing\n\n## Sign the CLA\n",
        ".github/pull_request_template.md":
            "- [ ] I read the [guide](../blob/master/CONTRIBUTING.md#sign-the-cla), [policy](../security/policy)\n"
            "- [ ] [gone](../blob/master/NOTHING.md), [bad](../blob/master/CONTRIBUTING.md#nothing)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("AC101", 2, 42), ("AC105", 2, 7)]
    assert [r["unchecked"] for r in _unchecked(ws)] == ["forge-page"]


def test_a_web_apps_content_folder_is_its_pages_readmes_too(ws: WorkspaceBuilder) -> None:
    # cert-manager.io, a Next.js app, renders content/: a section's README.md is its
    # page, its link plugin drops `.md` and `/README`, public/ is served at the root and
    # public/_redirects answers old URLs. The repo's own README is GitHub's.
    ws.repo("website", {
        "next.config.js": "module.exports = {}\n",
        "public/images/flow.png": "png", "public/_redirects": "/docs/old/*  /docs/new/:splat  301!\n",
        "content/docs/new/page.md": "# Page\n",
        "content/v1.1-docs/config.md": "# Config\n",
        "content/v1.1-docs/intro/README.md": ("# Intro\n\n![flow](/images/flow.png) [old](../../docs/old/page.md)\n"
                                             "[config](../config/README.md) [gone](./gone.md)\n"),
        "README.md": "# Website\n\n![flow](/images/flow.png)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["path"], f["line"]) for f in json.loads(run.out)["findings"]] == [
        ("AC105", "README.md", 3), ("AC105", "content/v1.1-docs/intro/README.md", 4)]
    assert [r["unchecked"] for r in _unchecked(ws)] == ["host-redirect"]

def test_a_generator_anchorcheck_does_not_model_keeps_its_page_urls_from_being_read_as_files(
        ws: WorkspaceBuilder) -> None:
    # VuePress, docsify, Zola, Quarto, GitBook, Hexo, Mintlify and Retype route pages by
    # rules anchorcheck does not model: a page URL on one (`/guide/intro/`) is counted,
    # not read as GitHub's file; a link to a file is still judged; its static folder is
    # served at the root.
    page = "# P\n\n[url](/guide/intro/) [file](missing.md) ![img](/logo.png)\n"
    layouts = {
        "vuepress": {"docs/.vuepress/config.js": "module.exports = {}\n", "docs/.vuepress/public/logo.png": "png",
                     "docs/guide/p.md": page},
        "docsify": {"docs/index.html": "<script src=\"//cdn.jsdelivr.net/npm/docsify\"></script>\n",
                    "docs/logo.png": "png", "docs/guide/p.md": page},
        "zola": {"config.toml": 'base_url = "https://z.org"\n', "static/logo.png": "png",
                 "content/guide/p.md": page},
        "quarto": {"site/_quarto.yml": "project:\n  type: website\n", "site/logo.png": "png", "site/guide/p.md": page},
        "gitbook": {".gitbook.yaml": "root: ./book/\n", "book/logo.png": "png", "book/guide/p.md": page},
        "hexo": {"_config.yml": "permalink: :year/:title/\n", "scaffolds/post.md": "---\n---\n",
                 "source/logo.png": "png", "source/guide/p.md": page},
        "mintlify": {"docs/docs.json": '{"$schema": "https://mintlify.com/docs.json"}\n', "docs/logo.png": "png",
                     "docs/guide/p.md": page},
    }
    for name, files in layouts.items():
        ws.repo(name, files)
    ws.repo("plain", {"docs/logo.png": "png", "docs/guide/p.md": page})  # GitHub's: all three are files
    run = ws.check("--format", "json", "--no-cache")
    found = sorted((f["repo"], f["column"]) for f in json.loads(run.out)["findings"])
    assert found == sorted([(name, 22) for name in layouts] + [("plain", 1), ("plain", 22), ("plain", 42)])
    counted = sorted(r["repo"] for r in _unchecked(ws) if r["unchecked"] == "site-route-in-code")
    assert counted == sorted(layouts)


def test_a_hugo_page_calling_a_markdown_shortcode_gets_anchors_from_it(ws: WorkspaceBuilder) -> None:
    # opentelemetry.io's exporters pages call `{{% docs/languages/exporters/intro %}}`,
    # whose template is Markdown: its output (headings, `## Jaeger`) is the page's own.
    ws.repo("otel", {
        "hugo.toml": 'baseURL = "https://otel.io"\n',
        "layouts/_shortcodes/docs/intro.md": "## Jaeger\n",
        "layouts/_shortcodes/note.html": "<div>{{ .Inner }}</div>\n",
        "content/a.md": "# A\n\n{{% docs/intro %}}\n\nSee [Jaeger](#jaeger).\n",
        "content/b.md": "# B\n\n{{% note %}}x{{% /note %}}\n\nSee [Jaeger](#jaeger).\n",
        # (A shortcode given an id: linkerd.io's warning box, an element its theme gives it.)
        "content/c.md": "# C\n\n{{< warning id=open-relay-warning >}}\nx\n{{< /warning >}}\n\n"
                        "See [it](#open-relay-warning).\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["path"]) for f in json.loads(run.out)["findings"]] == [("AC101", "content/b.md")]
    assert [(r["path"], r["unchecked"]) for r in _unchecked(ws)] == [("content/a.md", "built-fragment")]



def test_a_hugo_pages_ids_from_html_shortcodes_and_its_sections_layout(ws: WorkspaceBuilder) -> None:
    # fluxcd.io's home page, content/en/_index.html, calls `{{< home/calendar_dark >}}`,
    # whose template writes `<h3 id="calendar">` (an anchor of the page); its adopters
    # page is laid out by layouts/adopters/list.html, which writes an id for each data
    # file's project (the page's fragments are its build's). A shortcode or a layout
    # that writes no id gives none, nor does _default's, nor a section layout's literal
    # `<body id="docs">` (velero's) any but itself.
    ws.repo("flux", {
        "hugo.yaml": "baseURL: https://fluxcd.io\ncontentDir: content/en\n",
        "layouts/shortcodes/home/calendar_dark.html": '<h3 id="calendar">Our Team Calendar</h3>\n',
        "layouts/shortcodes/home/cncf.html": "<div>CNCF</div>\n",
        "layouts/adopters/list.html": "{{ range .Site.Data.adopters }}<h2 id={{ .project | urlize }}>{{ end }}\n",
        "layouts/_default/single.html": '<h1 id="{{ .Title | urlize }}">{{ .Title }}</h1>\n',
        "layouts/blog/list.html": '<body id="blog"><ul>{{ range .Pages }}<li>{{ .Title }}</li>{{ end }}</ul>\n',
        "content/en/_index.html": "{{< blocks/lead >}}{{< home/calendar_dark >}}{{< /blocks/lead >}}\n",
        "content/en/adopters/_index.md": "---\ntitle: Adopters\n---\n",
        "content/en/blog/_index.md": "# Blog\n\n{{< home/cncf >}}\n",
        "content/en/blog/post.md": "# Post\n\n[cal](/#calendar) [legacy](/adopters/#flux-legacy)\n"
                                   "[gone](/blog/#calendar)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"]) for f in json.loads(run.out)["findings"]] == [("AC101", 4)]
    assert sorted((r["path"], r["unchecked"]) for r in _unchecked(ws)) == [
        ("content/en/blog/post.md", "built-fragment")]

def test_the_hosts_redirects_feeds_snippet_base_paths_and_a_tags_other_attributes(ws: WorkspaceBuilder) -> None:
    # dexidp.io's netlify.toml redirects `/docs/api/`; a static/_redirects rule with a
    # splat; `/docs//x/` is `/docs/x/` to a server; knative's mkdocs rss plugin writes
    # blog/feed_rss_created.xml; its snippets come from `base_path: docs/snippets`; a
    # Medium export's `data-href` beside an href is an attribute, not prose.
    ws.repo("dex", {
        "config.toml": 'baseURL = "https://dexidp.io"\n',
        "netlify.toml": '[[redirects]]\nfrom = "/docs/api/"\nto = "/docs/configuration/api/"\n',
        # (porter's short links: a target's own query is no condition.)
        "static/_redirects": "# old\n/old/*  /docs/:splat  301\n/docs/* go-get=:go-get /golang/docs.html 200\n"
                             "/board/*  https://github.com/orgs/x/projects/1?card_filter_query=label::splat\n",
        "content/docs/using.md": "# Using\n",
        "content/docs/a.md": "# A\n\n[api](/docs/api) [old](/old/x/y/) [u](/docs//using/) [gone](/docs/none/)\n"
                             "[gfi](/board/good+first+issue)\n",
    })
    ws.repo("knative", {
        "mkdocs.yml": "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: docs/snippets\n",
        "docs/snippets/prereqs.md": "## Run the plugin\n",
        "docs/install.md": "# Install\n\n--8<-- \"prereqs.md\"\n",
        "docs/clean.md": "# Clean\n\n[run](install.md#run-the-plugin) [gone](install.md#nothing)\n",
        "docs/blog/index.md": "# Blog\n\n[feed](./feed_rss_created.xml) [img](./none.png)\n",
        "docs/blog/v3.md": '# v3\n\n<a href="index.md" data-href="../../contributing/README.md#questions">Q</a>\n',
    })
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["repo"], f["path"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("dex", "content/docs/a.md", 54), ("knative", "docs/blog/index.md", 32),
        ("knative", "docs/clean.md", 34)]
    assert sorted((r["path"], r["unchecked"]) for r in _unchecked(ws)) == [
        ("content/docs/a.md", "host-redirect"), ("content/docs/a.md", "host-redirect"),
        ("content/docs/a.md", "host-redirect"), ("docs/blog/index.md", "built-page")]



def test_a_hugo_template_that_writes_the_hosts_redirects(ws: WorkspaceBuilder) -> None:
    # keda.sh's layouts/index.redirects writes Netlify's _redirects: its rules' sources
    # are URLs the host answers, a template expression any one segment, and a splat
    # after `/` catches the folder's own URL too.
    ws.repo("keda-docs", {
        "hugo.toml": 'baseURL = "https://keda.sh"\n[outputs]\n  home = ["HTML", "REDIRECTS"]\n',
        "layouts/index.redirects": "{{ $latest := index site.Params.versions 0 -}}\n"
                                   "/http-add-on/latest/*  /http-add-on/{{ $latest }}/:splat  302\n"
                                   "{{ range .Pages }}\n/docs/scalers/{{ .Slug }}  /scalers/{{ .Slug }}\n{{ end }}\n",
        "content/docs/a.md": "# A\n\n[add-on](/http-add-on/latest/) [cron](/docs/scalers/cron/) [gone](/gone/)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC105", 60)]
    assert [r["unchecked"] for r in _unchecked(ws)] == ["host-redirect", "host-redirect"]


def test_a_folder_of_the_repo_mounted_into_a_hugo_sites_content(ws: WorkspaceBuilder) -> None:
    # gateway-api's site/hugo.toml mounts ../geps at content/geps: the GEPs are the
    # site's /geps/ pages, and their root-relative links are the site's URLs.
    ws.repo("gateway-api", {
        "site/hugo.toml": 'baseURL = "https://gateway-api.sigs.k8s.io/"\n[module]\n'
                          '  [[module.mounts]]\n    source = "content/en"\n    target = "content"\n'
                          '  [[module.mounts]]\n    source = "../geps"\n    target = "content/geps"\n',
        "site/content/en/docs/concepts/roles.md": "# Roles\n\n## Ana\n",
        "geps/gep-2/index.md": "# GEP 2\n",
        "geps/gep-1/index.md": "# GEP 1\n\n[Ana](/docs/concepts/roles/#ana) [2](/geps/gep-2/) [gone](/docs/gone/)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC105", 52)]

def test_a_hugo_sites_permalinks_give_a_sections_pages_their_urls(ws: WorkspaceBuilder) -> None:
    # linkerd.io's config/_default/permalinks.yaml serves its blog posts at
    # `/:year/:month/:day/:slug/` (the page kind's table); coredns.io's config.toml at
    # `/:year/:month/:day/:title/` (the old form), its posts with TOML front matter.
    ws.repo("linkerd", {
        "linkerd.io/config/_default/hugo.yaml": "baseURL: https://linkerd.io\n",
        "linkerd.io/config/_default/permalinks.yaml": "page:\n  blog: /:year/:month/:day/:slug/\n",
        "linkerd.io/content/blog/2019/1003-governance/index.md":
            "---\ndate: 2019-10-03T00:00:00Z\ntitle: Linkerd's Commitment to Open Governance\n---\n# G\n",
        "linkerd.io/content/docs/a.md":
            "# A\n\n[g](/2019/10/03/linkerds-commitment-to-open-governance/) [gone](/2019/10/04/nothing/)\n",
    })
    ws.repo("coredns.io", {
        "config.toml": 'baseURL = "https://coredns.io"\n[permalinks]\n  blog = "/:year/:month/:day/:title/"\n',
        "content/blog/plugins.md": '+++\ndate = "2016-12-19T00:00:00Z"\ntitle = "Writing Plugins for CoreDNS"\n+++\n',
        "content/manual/dev.md": "# Dev\n\n[w](/2016/12/19/writing-plugins-for-coredns/) [gone](/2016/12/20/x/)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert sorted((f["repo"], f["column"]) for f in json.loads(run.out)["findings"]) == [
        ("coredns.io", 47), ("linkerd", 58)]



def test_a_hugo_page_translated_by_its_file_name(ws: WorkspaceBuilder) -> None:
    # The relearn theme's exampleSite keeps each section's page as `_index.en.md` and
    # `_index.pir.md` (its languages: en, the default, and pir): `basics/customization`
    # and `/basics/branding/` are those pages. `about.old.md` is a page named so (`old` is
    # no language of the site's).
    home = ("# Home\n\n[fs](basics/customization#file-system) [logo](/basics/branding/#change-the-logo)\n"
            "[old](about.old/) [gone](basics/branding#nothing) [en](/about/)\n")
    ws.repo("theme", {
        "exampleSite/config/_default/hugo.toml": 'baseURL = "https://example.invalid/"\n'
                                                 'defaultContentLanguage = "en"\n[languages.en]\n[languages.pir]\n',
        "exampleSite/content/_index.en.md": home,
        "exampleSite/content/basics/customization/_index.en.md": "# Customization\n\n### File System\n",
        "exampleSite/content/basics/customization/_index.pir.md": "# Customizzzation\n",
        "exampleSite/content/basics/branding/_index.en.md": "# Branding\n\n## Change the Logo\n",
        "exampleSite/content/about.old.md": "# Old\n", "exampleSite/content/about.en.md": "# About\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC101", 4, 19)]

def test_vuepress_ids_and_an_m4_manuals_built_anchors(ws: WorkspaceBuilder) -> None:
    # nushell.sh (VuePress 2) slugs `### Text/Strings` as `#text-strings`, as VitePress
    # does (GitHub: `#textstrings`); hledger's manual, hledger.m4.md, is m4 input whose
    # macros include each command's page from the folders below it: its fragments may
    # be their headings, and one that is no heading of theirs either is broken.
    ws.repo("nushell", {".vuepress/config.js": "export default {}\n",
                        "book/types.md": "# Types\n\n[s](#text-strings) [gone](#nothing)\n\n### Text/Strings\n"})
    ws.repo("hledger", {"hledger/hledger.m4.md": "m4_dnl a comment\n# hledger\n\n[b](#balance) [c](#config-file)\n"
                                                 "\n_commands_\n",
                        "hledger/Commands/Balance.md": "## balance\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["repo"], f["column"]) for f in json.loads(run.out)["findings"]] == [("hledger", 15), ("nushell", 20)]


def test_a_path_through_a_bundlers_alias(ws: WorkspaceBuilder) -> None:
    # nushell.sh's `@[code](@snippets/x.sh)` is VuePress' alias for snippets/; tauri's
    # `@assets/a.svg` is tsconfig's for src/assets/. Where no folder has the alias's
    # name, the mapping is the config's code: counted.
    ws.repo("nu", {"snippets/install/x.sh": "echo\n", "src/assets/a.svg": "<svg/>",
                   "book/install.md": "# I\n\n@[code](@snippets/install/x.sh) ![a](@assets/a.svg) "
                                      "![gone](@assets/none.svg) ![other](@img/b.png)\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC105", 54)]
    assert [r["unchecked"] for r in _unchecked(ws)] == ["path-alias"]


def test_a_backslash_escape_in_a_link_destination_is_its_character(ws: WorkspaceBuilder) -> None:
    # nats.docs' GitBook export writes `[x](using-nats/request\_reply.md)`: CommonMark
    # (and GitHub, and GitBook) read `\_` as `_`.
    # GitBook's ids make a run of spaces and punctuation one dash.
    ws.repo("nats", {".gitbook.yaml": "root: ./\n",
                     "docs/jwt.md": "# JWT\n\n[v](#visualizing-export-import-relationships)\n\n"
                                    "## Visualizing Export/Import Relationships\n",
                     "docs/request_reply.md": "# Request\n",
                     # (GitBook's anchor naming itself: `<a href="x" id="x"></a>`, no link)
                     "docs/setup.md": '## Setup <a href="setup-push" id="setup-push"></a>\n',
                     "SUMMARY.md": "* [R](docs/request\\_reply.md)\n* [G](docs/gone\\_x.md)\n\n[d]: docs/request\\_reply.md\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["line"], f["message"].partition(" in ")[0]) for f in json.loads(run.out)["findings"]] == [
        (2, "no file docs/gone_x.md")]
