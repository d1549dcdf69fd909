"""What the benchmark programs in tools/ (``make bench``) share: the load average printed beside
every time (this machine is shared), and serving a built site's sitemap from a local address."""

from __future__ import annotations

import os


def load() -> str:
    """The 1, 5 and 15 minute load averages, as printed beside a measured time."""
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def sitemap_for(base: str, site_url: str):
    """A Playwright route handler that serves the site's sitemap with ``site_url`` (its public
    address) replaced by ``base`` (the local server), so instant navigation prefetches locally."""
    def handler(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(site_url, base + "/"))
    return handler
