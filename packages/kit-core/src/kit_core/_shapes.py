"""The catalogue of secret shapes redaction looks for in text, and the scanner that finds them.

Every shape is a regular expression that **starts with a literal** (the engine then
skips to each occurrence of it at C speed) and uses only possessive quantifiers,
bounded repeats and atomic tests, so a failed attempt never rescans what an earlier
attempt covered: finding every shape is linear in the text, whatever the text. The part
of a match that is replaced is its ``secret`` group (the whole match when it has none).

Shapes marked ``folded`` run over an ASCII-lower-cased copy of the text, of the same
length, so ``Authorization``, ``X-API-KEY`` and ``apiKey`` are all found by one
lower-case pattern; the others run over the text as it is.

Each example a shape must mask is written as its vendor prefix joined to the rest
(``"AKIA" + "..."``), so this file holds no credential-shaped literal: hermes' install
scan (``tools/plugin_guard.py``, from 0.21.3) reads such a literal as a leaked key and
refuses, beyond ``--force``, a plugin that vendors the kit.
"""

from __future__ import annotations

import functools
import re
from typing import Final

__all__ = ["KEY_WORDS", "Shape", "catalogue", "merge_spans", "secret_spans"]


class Shape:
    """One kind of secret text: what it is, how it is found, and texts it must mask.

    ``folded``: the pattern runs over the ASCII-lower-cased copy of the text.
    """

    __slots__ = ("examples", "folded", "name", "pattern")

    def __init__(
        self, name: str, pattern: str, examples: tuple[str, ...], folded: bool = False
    ) -> None:
        self.name = name
        self.pattern = pattern
        self.examples = examples
        self.folded = folded


KEY_WORDS: Final = (
    "token",
    "secret",
    "password",
    "passwd",
    "pass phrase",
    "pwd",
    "api key",
    "auth",
    "credential",
    "private key",
    "bearer",
    "cookie",
    "access key",
    "account key",
    "subscription key",
)
"""The words that make a key secret, in dict keys and in ``key=value`` text alike. A
space marks where a separator (``-``, ``_``, ``.`` or a space) may stand; ``auth`` does
not count inside ``author`` or ``authority`` (it does inside ``authorization``)."""

QUERY_KEYS: Final = ("key", "sig", "signature")
"""Query parameters whose value is a secret though their name holds no key word."""

AUTH_NOT_AUTHOR: Final = "auth(?!or(?!i[sz]))"

_VALUE: Final = (
    r"""\\{0,8}+["']?+(?P<secret>"""
    r"""(?<=\\")(?:[^"\\\r\n]|\\[^"\r\n])++"""  # JSON inside a JSON string: to the \"
    r"""|(?<=")(?:[^"\\\r\n]|\\[^\r\n])++"""  # quoted: \" and other escapes stay inside
    r"""|(?<=')(?:[^'\\\r\n]|\\[^\r\n])++"""
    r"""|[^\s"',;&\\]++)"""
)
"""A value after ``key=`` or ``key:``: quoted (to the closing quote, past escaped ones,
or the end of the line), quoted with escaped quotes (JSON text inside a JSON string,
``\\"password\\": \\"…\\"``: to the next ``\\"``), or bare (to whitespace, a quote,
``,``, ``;``, ``&`` or a backslash). The quotes stay."""

_SEPARATOR: Final = (
    r"""[a-z0-9_.-]{0,64}+\\{0,8}+["']?+[ \t]{0,16}+[:=][ \t]{0,16}+"""
    r"(?:(?:bearer|basic|token|digest)[ \t]{1,16}+)?+"
)
"""From the key word to the value: the rest of the key, a closing quote, ``:`` or ``=``,
and an HTTP auth scheme word when one stands before the value."""


def _key_word_pattern(word: str) -> str:
    literal = AUTH_NOT_AUTHOR if word == "auth" else word.replace(" ", "[-_. ]?")
    value = r"(?P<secret>[^\r\n]++)" if word == "cookie" else _VALUE  # a cookie: the line
    return literal + _SEPARATOR + value


def _cases(word: str) -> tuple[str, ...]:
    return (word.lower(), word.capitalize(), word.upper())


_TOKEN_BODY: Final = "[A-Za-z0-9_-]"


@functools.cache
def catalogue() -> tuple[Shape, ...]:
    """Every shape found in text (docs/redaction.md publishes this catalogue); built on first
    use, since only a log line or an error needs it."""
    return (
        *(
            Shape(
                f"a value after a key holding {word!r}",
                _key_word_pattern(word),
                (f"{word.replace(' ', '_')}=swordfish42", f'"X-{word.title()}": "two words"'),
                folded=True,
            )
            for word in KEY_WORDS
        ),
        *(
            Shape(
                f"a secret query parameter ({name}=)",
                rf"{name}=(?<=[?&;]{name}=)(?P<secret>[^\s&#\"']++)",
                (f"https://api.example/v1?{name}=AbC123xyz&x=1",),
                folded=True,
            )
            for name in QUERY_KEYS
        ),
        Shape(
            "a bearer token",
            r"bearer(?<![a-z0-9]bearer)[ \t]{1,16}+"
            r"(?P<secret>[^\s\"',;<>]{8,}+|[a-z]*+[^\sa-z\"',;<>][^\s\"',;<>]*+)",
            ("Authorization: Bearer abc=xyz", "bearer eyJhbGciOi"),
            folded=True,
        ),
        *(
            Shape(
                "HTTP Basic credentials",
                rf"{case}(?<![A-Za-z0-9]{case})[ \t]{{1,16}}+"
                r"(?![A-Z]?[a-z]*+(?![A-Za-z0-9+/=])|[A-Z]++(?![A-Za-z0-9+/=]))"
                r"(?P<secret>[A-Za-z0-9+/]{4,}+={0,2}+)",
                (f"{case} dXNlcjpwYXNz",),
            )
            for case in _cases("basic")
        ),
        Shape(
            "credentials in a URL (scheme://user:password@host)",
            r"://(?<=[A-Za-z0-9+.-]://)(?P<secret>[^\s/?#@:\"'<>]*+:[^\s/?#\"'<>]*)@",
            ("postgres://app:hunter2@db.internal/app",),
        ),
        Shape(
            "a PEM or PGP private key block",
            r"-----BEGIN[ A-Z0-9]{0,40}?PRIVATE KEY(?: BLOCK)?-----"
            r"(?s:.*?-----END[ A-Z0-9]{0,40}?PRIVATE KEY(?: BLOCK)?-----|.*+)",
            (
                "-----BEGIN "
                + "PGP PRIVATE KEY BLOCK-----\nxcLYBF\n-----END PGP PRIVATE KEY BLOCK-----",
            ),
        ),
        *(
            Shape(
                "a Telegram bot token (its secret part, after the bot id; also with %3A)",
                rf"{colon}(?<=[0-9]{{6}}{colon}){_TOKEN_BODY}{{30,}}+",
                (
                    f"123456789{colon}AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
                    f"https://api.telegram.org/bot123456{colon}ABC-DEF1234ghIkl-zyx57W2v1u123ew11/x",
                ),
            )
            for colon in (":", "%3A", "%3a")
        ),
        Shape(
            "a JSON Web Token (or other base64url JSON starting eyJ)",
            r"eyJ" + _TOKEN_BODY + r"{5,}+(?:\." + _TOKEN_BODY + r"{5,}+(?:\."
            r"" + _TOKEN_BODY + r"*+)?+)?+",
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",),
        ),
        Shape(
            "an OpenAI or Anthropic key (sk-…)",
            r"sk-(?<![A-Za-z0-9_]sk-)" + _TOKEN_BODY + "{16,}+",
            ("sk-proj-" + "AbCdEfGhIjKlMnOpQrSt",),
        ),
        Shape(
            "an sk-… key glued to a word (with a digit and a capital in it)",
            r"sk-(?<=[A-Za-z0-9_]sk-)(?=[A-Za-z_-]{0,40}+[0-9])(?=[a-z0-9_-]{0,40}+[A-Z])"
            + _TOKEN_BODY
            + "{16,}+",
            ("tokensk-" + "AbC123defGHI456jkl",),
        ),
        *(
            Shape(
                "a Stripe secret or restricted key",
                rf"{kind}_(?:live|test)_[A-Za-z0-9]{{10,}}+",
                (f"{kind}_live_4eC39HqLyjWDarjtT1zdp7dc",),
            )
            for kind in ("sk", "rk")
        ),
        Shape(
            "a GitHub token",
            r"gh[pousr]_[A-Za-z0-9]{20,}+",
            ("ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345",),
        ),
        Shape(
            "a GitHub fine-grained token",
            r"github_pat_[A-Za-z0-9_]{20,}+",
            ("github_pat_" + "11AAAAAAA0aBcDeFgHiJkL_mn",),
        ),
        Shape(
            "a GitLab token",
            r"glpat-" + _TOKEN_BODY + "{16,}+",
            ("glpat-" + "aBcDeFgHiJkLmNoPqRsT",),
        ),
        Shape(
            "a Slack token (xoxb-, xoxp-, xapp- …)",
            r"x(?:ox[abposrce]|app)-[A-Za-z0-9-]{10,}+",
            ("xoxb-" + "123456789012-abcdefABCDEF", "xapp-" + "1-A012345-6789-abcdef"),
        ),
        Shape(
            "an AWS access key id",
            r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])",
            ("AKIA" + "IOSFODNN7EXAMPLE",),
        ),
        Shape(
            "a Google API key",
            r"AIza" + _TOKEN_BODY + "{30,}+",
            ("AIza" + "SyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU",),
        ),
        Shape(
            "a Google OAuth access token",
            r"ya29\." + _TOKEN_BODY + "{20,}+",
            ("ya29.a0AfH6SMBx1234567890abcdef",),
        ),
        Shape(
            "a Hugging Face token", r"hf_[A-Za-z0-9]{20,}+", ("hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ",)
        ),
        *(
            Shape(
                f"an Azure connection string's {field}=",
                rf"{field.lower()}[ \t]{{0,16}}+=[ \t]{{0,16}}+(?P<secret>[^;\s\"']++)",
                (f"Endpoint=sb://kit.example/;{field}=AbC+dEf/123==;x=y",),
                folded=True,
            )
            for field in ("AccountKey", "SharedAccessKey", "SharedAccessSignature")
        ),
        Shape(
            "a Slack webhook URL's secret path",
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9/_-]{8,}+)",
            ("https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",),
        ),
        Shape(
            "a Discord webhook URL's token",
            r"discord(?:app)?+\.com/api/webhooks/[0-9]{5,}+/(?P<secret>[A-Za-z0-9_-]{20,}+)",
            ("https://discord.com/api/webhooks/123456789012/AbCdEfGhIjKlMnOpQrStUvWxYz-_0123",),
        ),
        Shape(
            "a Stripe webhook signing secret",
            r"whsec_[A-Za-z0-9]{20,}+",
            ("whsec_" + "aBcDeFgHiJkLmNoPqRsTuVwX",),
        ),
        Shape(
            "a SendGrid API key",
            r"SG\.[A-Za-z0-9_-]{16,}+\.[A-Za-z0-9_-]{16,}+",
            ("SG.aBcDeFgHiJkLmNoPqRsT.uVwXyZ0123456789aBcDeFgHiJkLmNoPqR",),
        ),
        Shape(
            "a cookie's value in a cookie jar's or a Morsel's repr",
            r"<(?:cookie|morsel:)[ \t]{1,4}+[^=\s>]{1,256}+=(?P<secret>[^\s>]++)",
            ("<Cookie sessionid=abc123xyz for example.com/>", "<Morsel: sid=abc123xyz>"),
            folded=True,
        ),
        Shape(
            "a cookie's value in http.cookiejar.Cookie's repr",
            r"cookie\(version=[^)]{0,4096}?value='(?P<secret>[^']*+)'",
            ("Cookie(version=0, name='sid', value='abc123xyz', port=None)",),
            folded=True,
        ),
        Shape(
            "an npm token",
            r"npm_[A-Za-z0-9]{30,}+",
            ("npm_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",),
        ),
        Shape(
            "a PyPI token",
            r"pypi-AgE" + _TOKEN_BODY + "{40,}+",
            ("pypi-" + "AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0",),
        ),
    )


@functools.cache
def _compiled() -> tuple[tuple[tuple[re.Pattern[str], int], ...], ...]:
    """The shapes compiled on first use (only log lines and errors need them), each with
    the number of its ``secret`` group (0: the whole match): those run over the text as
    it is, and those run over its folded copy."""

    def compiled(folded: bool) -> tuple[tuple[re.Pattern[str], int], ...]:
        patterns = [re.compile(s.pattern, re.ASCII) for s in catalogue() if s.folded is folded]
        return tuple((p, p.groupindex.get("secret", 0)) for p in patterns)

    return compiled(False), compiled(True)


def _fold(text: str) -> str:
    """``text`` lower-cased in ASCII only, every other character replaced by ``?``: one
    character for one, so positions in the copy are positions in ``text``."""
    if text.isascii():
        return text.lower()
    return text.encode("ascii", "replace").decode("ascii").lower()


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a secret shape: sorted, merged ``(start, end)`` spans."""
    plain, folded = _compiled()
    spans: list[tuple[int, int]] = []
    found_by = 0
    for patterns, subject in ((plain, text), (folded, _fold(text))):
        for pattern, group in patterns:
            before = len(spans)
            spans.extend(m.span(group) for m in pattern.finditer(subject))
            found_by += len(spans) > before
    # one shape's matches are already sorted and apart
    return spans if found_by < 2 else merge_spans(spans)


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` sorted, with overlapping and touching spans made one."""
    if len(spans) < 2:
        return spans
    spans.sort()
    merged = [spans[0]]
    for start, end in spans[1:]:
        last_start, last_end = merged[-1]
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged
