"""A position file's bytes as the text every game's parser reads.

UTF-8, with a leading byte order mark set aside (editors on Windows write one) and every
line end (CR LF, a lone CR as old Mac editors write, LF) read as one newline, so the line
numbers of errors count the lines an editor shows. The columns of the first line count
from the character after the mark: the mark is not written text.

Inputs: a file's bytes. Defines: :func:`decode`, :data:`BOM`.
"""

from __future__ import annotations

import codecs

from .errors import Location, NotationError

BOM = codecs.BOM_UTF8


def decode(data: bytes, file: str = "<position>") -> str:
    """The text of a position file's bytes, read as UTF-8.

    Parameters
    ----------
    data:
        The file's bytes.
    file:
        The name used in error messages.

    Returns
    -------
    str
        The text without a leading byte order mark, its line ends written ``\\n``.

    Raises
    ------
    NotationError
        At the line and column of the first byte that is not UTF-8.
    """
    data = data.removeprefix(BOM)
    # A CR byte is never part of a longer UTF-8 sequence, so line ends are read before decoding.
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[start:exc.start].decode("utf-8")) + 1
        source = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
        raise NotationError(
            f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})",
            Location(file, line, column, source),
            ("UTF-8 text: save the file as UTF-8",),
        ) from None
