"""The Chinese fonts of the PDFs: Noto Sans CJK SC, cut to the book's characters and given
TrueType outlines, so that Chromium embeds them as named CID fonts.

Chromium's PDF writer embeds a font with CFF outlines (Debian's fonts-noto-cjk) as an unnamed Type 3
font, each glyph a drawing. fontTools cuts each face to the print pages' characters (about 1 500 of
65 535 glyphs: seconds, not minutes) and makes its cubic curves quadratic, as its ``otf2ttf`` example
does. :func:`fontconfig` writes the faces, under their families' names (the page draws as on screen),
and a fontconfig file that rejects every installed CJK font, for Chromium's ``FONTCONFIG_FILE``.
"""

from __future__ import annotations

import html
import io
import subprocess
from functools import cache
from importlib.metadata import version
from pathlib import Path

from .bookcache import Store, key, sources

# (family, fontconfig style): every face the print pages can ask for
FACES = [(family, style) for family in ("Noto Sans CJK SC", "Noto Sans Mono CJK SC") for style in ("Regular", "Bold")]
MAX_ERROR = 1.0                        # font units (1000 per em; fontTools' default): quadratic curves this close to the cubic ones
FONTS = Store("pdf-fonts", ".ttf")


class FontError(RuntimeError):
    pass


def _fc(command: str, *args: str) -> str:
    try:
        return subprocess.run([command, *args], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise FontError(f"fontconfig could not be asked about fonts: {error}") from None


@cache
def source_font(family: str, style: str) -> tuple[Path, int]:
    """The file and collection index of ``family`` in ``style`` (fontconfig finds it)."""
    found = _fc("fc-match", "-f", "%{file}\n%{index}\n%{family}\n%{style}", f"{family}:style={style}").split("\n")
    if len(found) < 4 or family not in found[2].split(",") or style not in found[3].split(","):
        raise FontError(f"{family} {style} is not installed: install Debian's fonts-noto-cjk (make setup does it).")
    return Path(found[0]), int(found[1] or 0)


def _quadratic(font) -> None:
    """Replace ``font``'s CFF outlines by TrueType ones, in place (fontTools' otf2ttf, condensed)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))   # CFF turns the other way
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for table in {"CFF ", "VORG"} & set(font.keys()):
        del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():     # left side bearing = the outline's left edge
        hmtx[name] = (hmtx[name][0], getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion, maxp.maxZones = 0x00010000, 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType = 3.0       # no glyph names: a PDF's CID font maps glyphs by number (and ToUnicode)
    post.extraNames, post.mapping = [], {}
    font.sfntVersion = "\x00\x01\x00\x00"


def convert(family: str, style: str, characters: str) -> bytes:
    """``family`` in ``style`` ("Regular", "Bold") with only ``characters`` (those it covers),
    as a TrueType-outline font (the bytes of a .ttf).

    >>> from fontTools.ttLib import TTFont
    >>> font = TTFont(io.BytesIO(convert("Noto Sans CJK SC", "Regular", "注意力")))
    >>> "glyf" in font and "CFF " not in font, sorted(map(chr, font.getBestCmap()))
    (True, ['力', '意', '注'])
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    path, index = source_font(family, style)
    font = TTFont(path, fontNumber=index, lazy=False)
    wanted = sorted({ord(c) for c in characters} & set(font.getBestCmap()))
    # layout features: what the browser shapes with (kerning, CJK punctuation widths)
    options = subset.Options(layout_features=["*"], name_IDs=["*"], name_legacy=True, notdef_outline=True,
                             hinting=False, desubroutinize=True)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    _quadratic(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def face(family: str, style: str, characters: str) -> bytes:
    """:func:`convert`, cached under the installed font file, the characters, this module and fontTools' version."""
    path, index = source_font(family, style)
    installed = path.stat()       # the installed font, as bookcache.environment() names it
    k = key("pdf-font", 3, sources([Path(__file__)]), version("fonttools"), str(path), installed.st_size,
            installed.st_mtime_ns, index, family, style, "".join(sorted(set(characters))))
    data = FONTS.get(k)
    if data is None:
        data = convert(family, style, characters)
        FONTS.put(k, data)
    return data


def page_characters(*pages: Path) -> str:
    """Every character the HTML files ``pages`` hold (text and attributes, entities decoded): a
    superset of what they print."""
    return "".join(sorted({c for page in pages for c in html.unescape(page.read_text(encoding="utf-8"))}))


def fontconfig(directory: Path, characters: str) -> Path:
    """Write into ``directory`` the faces (:data:`FACES`, cut to ``characters``) and a fontconfig file
    that uses them instead of every installed CJK font; return its path (for ``FONTCONFIG_FILE``)."""
    directory.mkdir(parents=True, exist_ok=True)
    for family, style in FACES:
        (directory / f"{family.replace(' ', '')}-{style}.ttf").write_bytes(face(family, style, characters))
    cjk = sorted({file for file, _, families in (line.partition("\t") for line in
                  _fc("fc-list", "-f", "%{file}\t%{family}\n").splitlines()) if "CJK" in families})   # all CFF
    rejected = "".join(f"<glob>{html.escape(path)}</glob>" for path in cjk)
    conf = directory / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <cachedir>{html.escape(str(directory / 'cache'))}</cachedir>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>{html.escape(str(directory))}</dir>
  <selectfont><rejectfont>{rejected}</rejectfont></selectfont>
</fontconfig>
""", encoding="utf-8")
    return conf
