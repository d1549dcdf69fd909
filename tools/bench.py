"""Print how long a cold build takes and how heavy a typical page is. Figures, not assertions.

    make bench
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/browser.py (also when imported by path)
from browser import launch, serve_site  # noqa: E402

PAGES = ["/ch3/softmax/", "/en/ch3/softmax/"]


def cold_builds(site: Path) -> None:
    shutil.rmtree(ROOT / ".cache" / "figures", ignore_errors=True)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    for config, target in (("mkdocs.yml", site), ("mkdocs.en.yml", site / "en")):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", config, "-d", str(target)],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        print(f"cold build {config:14s} {time.perf_counter() - start:6.1f} s")


def page_weight(site: Path) -> None:
    with serve_site(site) as base, launch() as browser:
        for path in PAGES:
            page = browser.new_page()
            sizes: dict[str, int] = {}

            def record(response):
                try:
                    sizes[response.url] = len(response.body())
                except Exception:
                    pass

            page.on("response", record)
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            kinds: dict[str, int] = {}
            for url, size in sizes.items():
                ext = Path(url.split("?")[0]).suffix or ".html"
                kinds[ext] = kinds.get(ext, 0) + size
            detail = ", ".join(f"{ext} {size / 1024:.0f} KiB" for ext, size in sorted(kinds.items(), key=lambda kv: -kv[1]))
            print(f"page {path:22s} {sum(sizes.values()) / 1024:7.0f} KiB in {len(sizes)} files ({detail})")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        cold_builds(site)
        page_weight(site)
