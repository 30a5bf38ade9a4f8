"""Which renderer shows a Markdown page (resolve/sites.py): sites found from their
configs, declared ones, and the warning for a link that works only on the site."""

from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.git.repobuilder import git
from anchorcheck.resolve.sites import DOCUSAURUS, HUGO, MKDOCS, SPHINX, VITEPRESS, detect, site_of
from tests.conftest import WorkspaceBuilder, run_cli


def _detect(files: dict[str, str]) -> list[tuple[str, str]]:
    dirs = {p.rsplit("/", i)[0] for p in files for i in range(1, p.count("/") + 1)}
    return [(s.renderer, s.root) for s in detect(files, files.get, dirs)]


def test_sites_are_found_with_the_folders_their_pages_come_from() -> None:
    assert _detect({
        "mkdocs.yml": "site_name: x\ndocs_dir: 'handbook'  # pages\n",
        "web/hugo.toml": 'baseURL = "https://x/"\ncontentDir = "pages"\n',
        "site/config.toml": 'baseURL = "https://y/"\n', "site/content/a.md": "",
        "tools/config.toml": "[tool]\n", "tools/content/b.md": "",  # no Hugo site: no baseURL
        "vite/docs/.vitepress/config.ts": "export default defineConfig({ srcDir: 'src' })\n",
        "portal/docusaurus.config.js": "module.exports = {}\n",
        "api/conf.py": "extensions = ['myst_parser']\n",
        "scripts/conf.py": "x = 1\n",  # a conf.py that is no Sphinx site's
    }) == [("sphinx", "api"), ("mkdocs", "handbook"), ("docusaurus", "portal/docs"), ("docusaurus", "portal/blog"),
           ("docusaurus", "portal/src/pages"), ("hugo", "site/content"), ("vitepress", "vite/docs/src"),
           ("hugo", "web/pages")]


def test_a_mkdocs_config_under_another_name_is_its_build_with_what_it_inherits() -> None:
    # textual's: `mkdocs build -f mkdocs-online.yml`, which INHERITs mkdocs-common.yml;
    # the common file is a fragment, and the offline build is the same folder's site.
    assert _detect({
        "mkdocs-common.yml": "site_name: Textual\ndocs_dir: pages\n",
        "mkdocs-online.yml": "INHERIT: mkdocs-common.yml\nsite_url: https://x/\n",
        "mkdocs-offline.yml": "INHERIT: mkdocs-common.yml\n",
        "mkdocs-notes.yml.bak": "site_name: old\n",
        "tools/mkdocs-helper.yml": "steps: []\n",  # no MkDocs config's keys
        "api/mkdocs.insiders.yml": "INHERIT: mkdocs.yml\ndocs_dir: ref\n",
        "api/mkdocs.yml": "site_name: api\n",
    }) == [("mkdocs", "api/ref"), ("mkdocs", "api/docs"), ("mkdocs", "pages")]


def test_the_deepest_site_shows_a_page_and_redirects_are_read() -> None:
    files = {
        "mkdocs.yml": "plugins:\n  - redirects:\n      redirect_maps:\n        'old.md': 'new/page.md'\n"
                      "        guide/setup.md: guide/install.md\nnav: []\n",
        "docs/sub/.vitepress/config.js": "export default {}\n",
    }
    dirs = {"docs", "docs/sub", "docs/sub/.vitepress"}
    sites = detect(files, files.get, dirs)
    mkdocs = next(s for s in sites if s.renderer == MKDOCS)
    assert dict(mkdocs.redirects) == {"old.md": "new/page.md", "guide/setup.md": "guide/install.md"}
    assert site_of(sites, "docs/sub/a.md").renderer == VITEPRESS  # type: ignore[union-attr]
    assert site_of(sites, "docs/a.md") is mkdocs and site_of(sites, "README.md") is None
    assert {HUGO, SPHINX, DOCUSAURUS}.isdisjoint(s.renderer for s in sites)


def test_a_redirect_of_the_site_resolves_a_link_to_the_old_page(ws: WorkspaceBuilder) -> None:
    ws.repo("site", {
        "mkdocs.yml": "plugins:\n  - redirects:\n      redirect_maps:\n        'old.md': 'new.md'\n",
        "docs/new.md": "# New\n", "docs/index.md": "[old](old/) and [gone](gone/)\n",
    })
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"], f["column"]) for f in json.loads(run.out)["findings"]] == [("AC105", 1, 17)]


def test_a_readme_link_that_only_the_site_resolves_is_a_warning(ws: WorkspaceBuilder) -> None:
    ws.repo("vite", {
        "docs/.vitepress/config.ts": "export default {}\n",
        "docs/config/index.md": "# Options\n\n## build.target\n",
        "docs/README.md": "[target](config/index#build-target) and [GitHub's](config/index.md#buildtarget)\n"
                          "[file](config/index.md#build-target)\n",
        "docs/guide.md": "[target](config/index#build-target)\n",  # no README: the site's page only
    })
    run = ws.check("--format", "json", "--no-cache")
    found = json.loads(run.out)["findings"]
    assert [(f["code"], f["severity"], f["path"], f["line"]) for f in found] == \
        [("AC108", "warning", "docs/README.md", 1), ("AC108", "warning", "docs/README.md", 2)]
    assert "vitepress site docs/.vitepress/config.ts" in found[0]["message"]
    assert "where GitHub shows docs/README.md, it is broken" in found[0]["message"]
    # (Where GitHub finds the file but not the heading, the finding says which: knative's
    # `eventing-api.md#...EventType`, a page the build fills in.)
    assert found[1]["message"].endswith("its fragment #build-target names no heading there")


def test_no_site_only_warning_on_a_versions_or_a_translations_copy(ws: WorkspaceBuilder) -> None:
    # kubevela.io: each version's and each locale's README links `./2021-12-roadmap`,
    # as Docusaurus serves it; nobody reads the frozen copies on GitHub, and the current
    # page's warning stands for them.
    readme = "# Roadmap\n\n- [December](./2021-12-roadmap)\n"
    ws.repo("site", {
        "docusaurus.config.js": "module.exports = {}\n", "versions.json": '["v1.2"]\n',
        "docs/roadmap/README.md": readme, "docs/roadmap/2021-12-roadmap.md": "# Dec\n",
        "versioned_docs/version-v1.2/roadmap/README.md": readme,
        "versioned_docs/version-v1.2/roadmap/2021-12-roadmap.md": "# Dec\n",
        "i18n/zh/docusaurus-plugin-content-docs/current/roadmap/README.md": readme,
        "i18n/zh/docusaurus-plugin-content-docs/current/roadmap/2021-12-roadmap.md": "# Dec\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["path"]) for f in found] == [("AC108", "docs/roadmap/README.md")], found


def test_a_hugo_sites_heading_id_type_makes_its_ids(ws: WorkspaceBuilder) -> None:
    # falco.org: `autoHeadingIDType = "blackfriday"`, so `### get_metrics` is #get-metrics
    # and `## What's new 🗞️` is #what-s-new. (GitHub's id is taken too, as on every site.)
    page = ("# Plugins\n\n### get_metrics\n\n## What's new 🗞️\n\n"
            "[a](#get-metrics) [b](#what-s-new) [c](#get_metrics) [d](#what-s-old)\n")  # 7
    ws.repo("falco", {
        "config/_default/config.toml": 'baseURL = "/"\n[markup.goldmark.parser]\n'
                                       '  autoHeadingIDType = "blackfriday"\n',
        "content/en/docs/plugins.md": page,
    })
    ws.repo("ascii", {"hugo.toml": 'baseURL = "/"\n[markup.goldmark.parser]\nautoHeadingIDType = "github-ascii"\n',
                      "content/cafe.md": "## Café crème\n\n[a](#cafe-creme) [b](#cafe-crema)\n"})  # 3
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert sorted((f["repo"], f["code"], f["line"], f["column"]) for f in found) == [
        ("ascii", "AC101", 3, 18), ("falco", "AC101", 7, 54)], found


def test_a_hugo_sites_urls_are_lower_case(ws: WorkspaceBuilder) -> None:
    # tekton.dev: content/en/docs/Concepts/ is /docs/concepts/, its images too, and
    # /docs/pipelines/ is content/en/docs/Pipelines/, which the build syncs from another
    # repo and .gitignore names.
    ws.repo("tekton", {
        "config.toml": 'baseURL = "/"\ncontentDir = "content/en"\n',
        ".gitignore": "# Synced docs\ncontent/en/docs/Pipelines\n",
        "content/en/docs/Concepts/_index.md": "# Concepts\n",
        "content/en/docs/Concepts/runs.png": "png",
        "content/en/docs/Concepts/model.md": (
            "# Model\n\n![runs](../runs.png) ![gone](../walks.png)\n\n"  # 3
            "[install](/docs/pipelines/install/) [cli](/docs/cli/)\n"),  # 5
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("AC105", 3, 23), ("AC105", 5, 37)], found


def test_a_hugo_sites_theme_static_mounted_files_and_aliases_after_a_blank_line(ws: WorkspaceBuilder) -> None:
    # buildpacks.io: /images/ from themes/buildpacks/static, a page mounted from one
    # file into three sections, and pack/_index.md's aliases after a blank first line.
    ws.repo("bp", {
        "config.toml": ('baseURL = "/"\ntheme = "buildpacks"\n[[module.mounts]]\n  source = "content"\n'
                        '  target = "content"\n[[module.mounts]]\n  source = "content/docs/.common/bp.md"\n'
                        '  target = "content/docs/operators/bp.md"\n'),
        "themes/buildpacks/static/images/how.svg": "<svg/>",
        "content/docs/.common/bp.md": "# Buildpack\n",
        "content/docs/pack/_index.md": '\n+++\ntitle = "Pack"\naliases = [\n  "/docs/install-pack/",\n]\n+++\n',
        "content/docs/guide.md": ("# Guide\n\n![how](/images/how.svg) ![why](/images/why.svg)\n\n"  # 3
                                  "[bp](/docs/operators/bp/) [gone](/docs/authors/bp/)\n\n"  # 5
                                  "[pack][p]\n\n[p]: /docs/install-pack\n"),
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("AC105", 3, 26), ("AC105", 5, 27)], found


def test_a_material_blog_post_links_from_its_dated_url(ws: WorkspaceBuilder) -> None:
    # textual: the online build's blog plugin serves blog/posts/year-in-review.md at
    # /blog/2022/12/20/year-in-review/, so `../../../../images/x.png` is blog/images/.
    post = ("---\ndate: 2022-12-20\n---\n# A year\n\n"
            '<img src="../../../../images/demo.png"> <img src="../../../../images/gone.png">\n')  # 6
    ws.repo("textual", {
        "mkdocs-common.yml": "site_name: Textual\n",
        "mkdocs-offline.yml": "INHERIT: mkdocs-common.yml\n",
        "mkdocs-online.yml": "INHERIT: mkdocs-common.yml\nplugins:\n  blog:\n  rss:\n",
        "docs/blog/images/demo.png": "png", "docs/blog/posts/year-in-review.md": post,
        "docs/blog/posts/undated.md": '# Undated\n\n<img src="../../../../images/demo.png">\n',  # 3
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["path"], f["line"], f["column"]) for f in found] == [
        ("docs/blog/posts/undated.md", 3, 1), ("docs/blog/posts/year-in-review.md", 6, 41)], found


def test_a_hugo_link_hooks_getpage_finds_a_section_for_an_md_link(ws: WorkspaceBuilder) -> None:
    # contour: its theme's hook looks `/getting-started.md` up with GetPage, which drops
    # the `.md` and finds the section getting-started/_index.md.
    hook = "{{ with .Page.GetPage (urls.Parse .Destination).Path }}{{ .RelPermalink }}{{ end }}\n"
    ws.repo("contour", {
        "site/config.yaml": 'baseURL: "https://projectcontour.io/"\ntheme: "contour"\n',
        "site/themes/contour/layouts/_default/_markup/render-link.html": hook,
        "site/content/getting-started/_index.md": "# Getting started\n",
        "site/content/docs/deploy.md": "# Deploy\n\n[start](/getting-started.md) [gone](/guides/proxy.md)\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"], f["column"]) for f in found] == [("AC105", 3, 30)], found


def test_a_hugo_languages_content_folder_is_served_under_its_code(ws: WorkspaceBuilder) -> None:
    # kueue: `[languages.zh-CN] contentDir = "content/zh-CN"` is served at /zh-cn/, the
    # default language's folder at the root.
    ws.repo("kueue", {
        "site/hugo.toml": ('baseURL = "/"\ndefaultContentLanguage = "en"\n[languages]\n  [languages.en]\n'
                           '    contentDir = "content/en"\n  [languages.zh-CN]\n    contentDir = "content/zh-CN"\n'),
        "site/content/en/docs/tasks/_index.md": "# Tasks\n\n[zh](/zh-cn/docs/tasks/) [gone](/zh-cn/docs/gone/)\n",
        "site/content/zh-CN/docs/tasks/_index.md": "# 任务\n\n[en](/docs/tasks/) [zh](/zh-cn/docs/tasks/)\n",
        # A multilingual site on one host, with no link hook of its own, gets Hugo's
        # embedded one, whose GetPage looks `docs/tasks` up from the content root too.
        "site/content/en/docs/concepts/queues.md": "# Queues\n\n[run](docs/tasks) [gone](docs/walks)\n\n## Fair sharing\n",
        # Its GetPage reads `/docs/...` from the zh-CN page's own language: the zh-CN
        # page, whose translated heading has no `#fair-sharing`.
        "site/content/zh-CN/docs/concepts/queues.md": "# 队列\n\n## 公平共享\n",
        "site/content/zh-CN/docs/overview.md": "# 概述\n\n[公平共享](/docs/concepts/queues/#fair-sharing)\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["path"], f["line"], f["column"]) for f in found] == [
        ("site/content/en/docs/concepts/queues.md", 3, 19), ("site/content/en/docs/tasks/_index.md", 3, 26),
        ("site/content/zh-CN/docs/overview.md", 3, 1)], found


def test_a_mkdocstrings_directive_of_any_handler_builds_the_pages_ids(ws: WorkspaceBuilder) -> None:
    # fmt's C++ handler: `::: basic_memory_buffer` writes `<a id="basic_memory_buffer">`;
    # anchorcheck cannot know the ids a handler writes, so the page's fragments are its
    # build's. A VitePress container (`::: tip`) builds none.
    ws.repo("fmt", {
        "mkdocs.yml": "site_name: fmt\nplugins:\n  - mkdocstrings\n",
        "docs/api.md": "# API\n\n::: basic_memory_buffer\n\nSee [buffer](#basic_memory_buffer).\n",
    })
    ws.repo("vite", {
        "docs/.vitepress/config.ts": "export default {}\n",
        "docs/guide.md": "# Guide\n\n::: tip\nHi.\n:::\n\nSee [tip](#nowhere).\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["repo"], f["code"], f["line"]) for f in found] == [("vite", "AC101", 7)], found


def test_a_hugo_page_reading_a_symlinked_file_and_a_page_over_an_alias(ws: WorkspaceBuilder) -> None:
    # porter: guide.md is `{{% readfile file="/sources/CONTRIBUTING.md" %}}`, a symlink to
    # the root's CONTRIBUTING.md; docs/content/docs/operator is a symlink its build fills
    # (another repo's docs); `/wiring/` is wiring.md, not an alias of another page.
    repo = ws.repo("porter", {
        "CONTRIBUTING.md": "# Contributing\n\n## Find an issue\n",
        "docs/hugo.toml": 'baseURL = "https://porter.sh/"\n',
        "docs/content/docs/guide.md": '# Guide\n\n{{% readfile file="/sources/CONTRIBUTING.md" markdown="true" %}}\n',
        "docs/content/wiring.md": "# Wiring\n\n## Wiring images\n",
        "docs/content/docs/templates.md": "---\naliases: [/wiring/]\n---\n# Templates\n",
        "docs/content/docs/work.md": ("# Work\n\n[find](/docs/guide/#find-an-issue) [gone](/docs/guide/#nowhere)\n"
                                     "[op](/docs/operator/file-formats/) [wiring](/wiring/#wiring-images)\n"),
        # GitHub does not follow a symlinked folder (gateway-api's reports/v1.5.1 -> v1.5).
        "reports/v1.5/istio.md": "# Istio\n",
        "README.md": "# Porter\n\n[istio](reports/v1.5.1/istio.md)\n",
    })
    os.makedirs(repo / "docs/sources")
    os.symlink("../../CONTRIBUTING.md", repo / "docs/sources/CONTRIBUTING.md")
    os.symlink("../../sources/operator/docs/content", repo / "docs/content/docs/operator")
    os.symlink("v1.5", repo / "reports/v1.5.1")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "symlinks")
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["path"], f["code"], f["line"]) for f in found] == [
        ("README.md", "AC105", 3), ("docs/content/docs/work.md", "AC101", 3)], found


def test_docusaurus_current_docs_are_also_next_where_versions_are_released(ws: WorkspaceBuilder) -> None:
    # openkruise.io: with versions.json listing releases, the current docs are served at
    # /docs/next/, a locale's at /zh/docs/next/.
    ws.repo("site", {
        "docusaurus.config.js": "module.exports = { onBrokenLinks: 'warn' }\n", "versions.json": '["v1.9"]\n',
        "docs/cli-tool/kustomize.md": "# Kustomize\n",
        "versioned_docs/version-v1.9/intro.md": "# Intro\n\n[cli](/docs/next/cli-tool/kustomize) [gone](/docs/next/nope)\n",
        "i18n/zh/docusaurus-plugin-content-docs/current/cli-tool/kustomize.md": "# Kustomize\n",
        "i18n/zh/docusaurus-plugin-content-docs/version-v1.9/intro.md": "# 介绍\n\n[cli](/zh/docs/next/cli-tool/kustomize)\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["path"], f["column"]) for f in found] == [("versioned_docs/version-v1.9/intro.md", 38)], found


def test_a_top_level_folder_a_build_copies_into_a_hugo_sites_ignored_content(ws: WorkspaceBuilder) -> None:
    # cortex: tools/website/web-pre.sh copies docs/ into website/content/en/docs, which
    # .gitignore names: docs/ is the site's /docs/ pages, its images in website/static.
    ws.repo("cortex", {
        ".gitignore": "website/public\nwebsite/content/en/docs\n",
        "website/config.toml": 'baseURL = "https://cortexmetrics.io/"\ncontentDir = "content/en"\n',
        "website/content/en/_index.md": "# Cortex\n",
        "website/static/images/ring.png": "png",
        "docs/guides/ring.md": "# Ring\n\n![ring](/images/ring.png) ![gone](/images/gone.png)\n",  # 3
        "notes/x.md": "# X\n\n![ring](/images/ring.png)\n",  # 3: GitHub's, not copied
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["path"], f["line"], f["column"]) for f in found] == [
        ("docs/guides/ring.md", 3, 28), ("notes/x.md", 3, 2)], found


def test_a_hugo_ref_by_name_into_pages_mounted_from_a_submodule_is_the_builds(ws: WorkspaceBuilder) -> None:
    # dapr's docs: `{{< ref "python-client.md" >}}` is a page of the Python SDK's docs,
    # which the site mounts from a submodule the repo does not hold.
    ws.repo("docs", {
        "daprdocs/config.toml": ('baseURL = "https://docs.dapr.io/"\n[module]\n[[module.mounts]]\n'
                                 'source = "content/en"\ntarget = "content"\n[[module.mounts]]\n'
                                 'source = "../sdkdocs/python/daprdocs/content/en/python-sdk-docs"\n'
                                 'target = "content/developing-applications/sdks/python"\n'),
        "daprdocs/content/en/health.md": ('# Health\n\n[client]({{< ref "python-client.md#health-timeout" >}})\n'
                                          '[gone]({{< ref "nowhere.md#x" >}})\n'),
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [], found
    # (Whether either page is there, only the submodule knows: both are counted.)
    unchecked = json.loads(run_cli("refs", "--unresolved", "--format", "json", cwd=ws.root).out)["references"]
    assert [r["unchecked"] for r in unchecked] == ["build-output", "build-output"]


def test_a_site_the_detection_misses_is_declared(ws: WorkspaceBuilder) -> None:
    ws.repo("loki", {
        "docs/sources/setup/install.md": "# Install\n",
        "docs/sources/setup/upgrade.md": "See [install](../install/).\n",  # Hugo's page URL
    })
    config = ws.config()
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert [f["code"] for f in json.loads(run.out)["findings"]] == ["AC105"]  # GitHub's reading
    config.write_text(config.read_text() + '[[site]]\nrenderer = "hugo"\nroot = "docs/sources"\n')
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert json.loads(run.out)["findings"] == [], run.out
    # (Jekyll is a renderer since issue 40; Gatsby, the other web apps whose routes are
    # code and docsify, Zola and the other generators whose routes are not modelled,
    # since the twenty-third session; FrontPage is still none.)
    config.write_text(config.read_text() + '[[site]]\nrenderer = "frontpage"\n')
    bad = run_cli("check", cwd=ws.root)
    assert bad.code == 2 and "renderer 'frontpage' is not one of mkdocs, hugo" in bad.err
    assert "Traceback" not in bad.err


def test_ids_a_mkdocs_material_site_gives(ws: WorkspaceBuilder) -> None:
    page = (
        "# Navigation\n\n### Navigation path <small>Breadcrumbs</small> { id=navigation-path }\n\n"
        "### Logo\n\n=== \"Image\"\n\n    Text.\n\n"
        "    ``` { .sh .no-copy #example }\n    echo\n    ```\n\n"
        "See [path](#navigation-path), [tab](#logo-image), [code](#example), [gone](#nowhere),\n"  # 15
        "![light](logo.png#only-light) and ![dark](missing.png#only-dark).\n"  # 16
    )
    ws.repo("material", {"mkdocs.yml": "markdown_extensions:\n  - attr_list\n  - pymdownx.tabbed:\n"
                                       "      combine_header_slug: true\n",
                         "docs/setup.md": page, "docs/logo.png": "png"})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("AC101", 15), ("AC105", 16)], found
    assert "#nowhere" in found[0]["message"]


def test_mkdocs_pages_include_snippets_and_give_inline_ids(ws: WorkspaceBuilder) -> None:
    ws.repo("mkdocs", {
        "mkdocs.yml": "markdown_extensions:\n  - attr_list\n  - pymdownx.snippets\n",
        "CONTRIBUTING.md": "# Contributing\n\n## Installing for Development\n",
        "docs/about/contributing.md": '--8<-- "CONTRIBUTING.md"\n',
        "docs/user-guide/themes.md": "# Themes\n\n**`locale`**{ #mkdocs-locale }: the language.\n",
        "docs/dev-guide/translations.md": (
            "See [install](../about/contributing.md#installing-for-development),\n"
            "[locale](../user-guide/themes.md#mkdocs-locale), [gone](../about/contributing.md#nowhere),\n"  # 2
            "and a message: > Doc file 'example.md' contains a link '../foo/bar.md#some-heading'.\n"),
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("AC101", 2)], found
    assert "#nowhere" in found[0]["message"]


def test_a_link_climbing_past_a_sites_root_stops_there_as_a_browser_does(ws: WorkspaceBuilder) -> None:
    # textual's styles/grid/index.md is served at /styles/grid/: its raw HTML link
    # `../../../css_types/integer` climbs past the root and lands on /css_types/integer.
    ws.repo("textual", {
        "mkdocs-common.yml": "site_name: Textual\n",
        "mkdocs-online.yml": "INHERIT: mkdocs-common.yml\n",
        "docs/css_types/integer.md": "# Integer\n",
        "docs/styles/grid/index.md": '# Grid\n\n<a href="../../../css_types/integer">int</a>\n'
                                     '<a href="../../../css_types/float">gone</a>\n',  # 4
        "docs/styles/border.md": '# Border\n\n<a href="../../../../css_types/integer">int</a>\n',
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["path"], f["line"]) for f in found] == [
        ("AC105", "docs/styles/grid/index.md", 4)], found


_PATH_PARTS = st.sampled_from(["docs", ".vitepress", "config.ts", "config.mts", "mkdocs.yml", "conf.py", "hugo.toml",
                               "config.toml", "a.md", "x.vitepress", "config.js.bak", "", "mkdocs.yml.old"])


@settings(max_examples=300, deadline=None)
@given(paths=st.lists(st.lists(_PATH_PARTS, min_size=1, max_size=4).map("/".join), max_size=8))
def test_config_candidates_are_the_paths_named_as_a_config_or_matching_vitepress(paths: list[str]) -> None:
    import posixpath

    from anchorcheck.resolve.sites import _CONFIG_NAMES, _VITEPRESS_CONFIG, candidates

    assert candidates(paths) == sorted(
        p for p in paths if posixpath.basename(p) in _CONFIG_NAMES or _VITEPRESS_CONFIG.search(p))
