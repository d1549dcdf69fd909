"""The repository's address: in the header and on the home page when REPO_URL is set (CI sets it to
the repository it builds, .github/workflows/pages.yml), nowhere when it is not, and never a request
to the GitHub API (Material's own header link asks it for stars and forks)."""

import os
import re

from book import ROOT

SITE = ROOT / "site"


def test_the_header_link_asks_github_for_nothing():
    template = (ROOT / "overrides" / "partials" / "source.html").read_text(encoding="utf-8")
    link = re.search(r"<a [^>]*>", template)[0]
    assert 'class="md-source"' in link and "data-md-component" not in link, link


def test_the_built_site_shows_the_address_it_was_built_with():
    """Read the built home pages: the address of the build's REPO_URL, or none."""
    url = os.environ.get("REPO_URL")
    for home in (SITE / "index.html", SITE / "en" / "index.html"):
        html = home.read_text(encoding="utf-8")
        header = re.findall(r'<a href="([^"]+)" title="[^"]*" class="md-source"', html)
        if url:
            assert header and set(header) == {url}, f"{home}: header links {header}, REPO_URL {url}"
            assert f'<a href="{url}">{url}</a>' in html, f"{home}: the home page does not give {url}"
        else:
            assert not header and "md-source" not in html, f"{home}: a repository link without REPO_URL"
