"""The one canonical form of text, used before every rule that reads meaning.

Two levels:

* :func:`fold_characters` -- what every comparison of words uses (routing, FindExact,
  the evidence checks, the term normaliser): Unicode NFKC (full-width letters, ligatures
  and non-breaking spaces become their plain forms), format characters removed
  (category Cf: zero-width space/joiner, soft hyphen, bidi marks, word joiner, BOM),
  terminal escape sequences (ECMA-48 CSI and OSC: ``\x1b[1m``) and the other control
  characters but tab and line breaks removed,
  combining marks that NFC could not compose onto a Latin letter removed (``n̶e̶v̶e̶r̶``),
  variation selectors removed, and letters that only *look* Latin folded to their Latin
  skeleton inside words that are otherwise Latin (a Cyrillic ``е`` in ``nеver``). The
  skeleton comes from Unicode's confusables table as shipped by the maintained
  ``confusable-homoglyphs`` package; words written wholly in another script (Greek,
  Cyrillic, Han...) are left alone, so ``Москва`` stays a Russian word.
* :func:`for_claims` -- what the truthfulness gate reads: the folded text with the
  formatting that can hide a claim undone -- HTML tags and entities, markdown emphasis
  (``**never**``, ``_never_``, ``~~never~~``), inline code and links unwrapped, emoji and
  pictographs between words removed, line breaks inside a paragraph joined, letter
  spacing (``n e v e r``, ``n.e.v.e.r``), digit-for-letter substitutions (``n3v3r``)
  and stretched letters (``neverrr``) undone where the result is a known word of
  :func:`engram.lexicon.known_words`; HTML comments, BBCode tags and LaTeX text commands
  (``\\emph{never}``) unwrapped; text-speak spellings of claim words (``u nevr told
  me``) restored; two-character leet (``m3``) beside a leet word, a word cut into
  quoted pieces (``"nun" "ca"``) and characters of an unspaced script spaced one by
  one (``一　度　も``) joined. Right-to-left override runs are read in display order. Fenced code
  blocks and block quotes are passed through untouched, so the gate can still mask them
  as a whole.

Both are pure and idempotent: ``f(f(x)) == f(x)``.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import math
import re
import unicodedata
from importlib import resources

from engram.lexicon import is_known_word
from engram.terms import UNSPACED_CLASS, lacks_word_boundaries

__all__ = ["fold_characters", "for_claims", "skeleton_char"]

_VARIATION_SELECTORS = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)] + [chr(c) for c in range(0xE0100, 0xE01F0)]
)


@functools.cache
def _skeleton_table() -> dict[str, str]:
    """Non-Latin letter -> the single ASCII letter it is confusable with."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text()
    table: dict[str, str] = {}
    for char, glyphs in json.loads(data).items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        if _script(char) == "LATIN":
            continue
        for glyph in glyphs:
            target = glyph["c"]
            if len(target) == 1 and target.isascii() and target.isalpha():
                table[char] = target.lower() if char.islower() else target
                break
    return table


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else ""


@functools.cache
def _small_capital(char: str) -> str:
    """LATIN LETTER SMALL CAPITAL N -> "n" (NFKC leaves these styled letters alone)."""
    name = unicodedata.name(char, "")
    prefix = "LATIN LETTER SMALL CAPITAL "
    if name.startswith(prefix) and len(name) == len(prefix) + 1:
        return name[-1].lower()
    return char


def skeleton_char(char: str) -> str:
    """The Latin letter ``char`` is confusable with, or ``char`` itself."""
    return _skeleton_table().get(char, char)


def _is_latin_letter(char: str) -> bool:
    return char.isalpha() and (char.isascii() or _script(char) == "LATIN")


_WORD_RX = re.compile(r"[^\W\d_]+", re.UNICODE)


def _fold_word(match: re.Match[str]) -> str:
    word = match.group()
    if word.isascii():
        return word
    latin = sum(1 for c in word if _is_latin_letter(c))
    if latin == 0 or latin == len(word):
        return word
    table = _skeleton_table()
    folded = "".join(table.get(c, c) for c in word)
    return _fill_one_letter(folded) or folded


# Confusables.txt lists only some look-alikes of a script (it maps Cherokee "Ꭼ" to "E"
# but not "Ꮖ", which writers use for "I"): in a word of four letters or more whose
# letters are all Latin or folded but one, that one may stand for the Latin letter that
# makes the word known, when exactly one letter does ("NᏆENTE" = "NIENTE").
_FILL_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _fill_one_letter(word: str) -> str | None:
    if len(word) < 4:
        return None
    foreign = [i for i, c in enumerate(word) if not _is_latin_letter(c)]
    if len(foreign) != 1:
        return None
    i = foreign[0]
    upper = word[:i].isupper() or word[i + 1 :].isupper()
    fits = [c for c in _FILL_LETTERS if is_known_word((word[:i] + c + word[i + 1 :]).lower())]
    if len(fits) != 1:
        return None
    return word[:i] + (fits[0].upper() if upper else fits[0]) + word[i + 1 :]


def _mostly_latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(map(_is_latin_letter, letters)) >= 0.8 * len(letters)


# A word wholly in another script inside Latin prose that spells a known word letter for
# letter in look-alikes ("ᏁᎬᏙᎬᎡ", "тоld") is that word; in prose of its own script it is
# left alone, and so is any word whose skeleton is not a known word of four letters or
# more (a Greek or Russian name quoted in English stays as written).
def _fold_foreign_word(match: re.Match[str]) -> str:
    word = match.group()
    if len(word) < 4 or word.isascii() or any(_is_latin_letter(c) for c in word):
        return word
    table = _skeleton_table()
    if sum(c not in table for c in word) > 1:
        return word
    latin = "".join(table.get(c, c) for c in word)
    if all(c in table for c in word):
        return latin if is_known_word(latin.lower()) else word
    return _fill_one_letter(latin) or word


_SHORT_NEGATIONS = frozenset({"no", "not", "non", "nie", "nul", "nee", "nao", "nem", "ni"})


def _fold_short_negation(match: re.Match[str]) -> str:
    """A two- or three-letter word of look-alikes spelling a negation in Latin prose."""
    folded = _fold_short_foreign_word(match)
    return folded if folded.lower() in _SHORT_NEGATIONS else match.group()


def _fold_short_foreign_word(match: re.Match[str]) -> str:
    """A word of one to three look-alike letters in Latin prose where other look-alikes
    were folded ("Ι dοn't rесаll уоυ"): the known word its skeleton spells."""
    word = match.group()
    if len(word) >= 4 or word.isascii() or any(_is_latin_letter(c) for c in word):
        return word
    table = _skeleton_table()
    if not all(c in table for c in word):
        return word
    latin = "".join(table[c] for c in word)
    if latin in ("l", "I"):  # a capital iota or its kin standing alone is "I"
        return "I"
    return latin if is_known_word(latin.lower()) else word


# A space other than U+0020 between the letters of one word ("nev\u200aer", "no\u00a0thing"):
# NFKC would make it an ordinary space and split the word, so the word is joined first
# when that makes a known word (a no-break space between two words stays a space).
# Single letters spaced by them ("g\u2009o\u2009t") are letter spacing, undone after NFKC
# (:func:`_unspace`), so both sides hold two letters or more.
_ODD_SPACE_IN_WORD_RX = re.compile(
    r"(?<![^\W\d_])([^\W\d_]{2,})[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]([^\W\d_]{2,})"
)


def _join_odd_space(match: re.Match[str]) -> str:
    first, second = match.groups()
    joined = first + second
    return joined if is_known_word(joined.lower()) else match.group()


# Hangul fillers are letters that render as nothing: a word split by one is one word when
# joined it is a known word, and two words otherwise ("Enㅤningunaㅤde" is "En ninguna de").
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
_FILLER_BETWEEN_RX = re.compile(
    "([^\\W\\d_\u115f\u1160\u3164\uffa0]+)[\u115f\u1160\u3164\uffa0]+(?=([^\\W\\d_\u115f\u1160\u3164\uffa0]+))"
)


def _unfill(text: str) -> str:
    if not any(c in _FILLERS for c in text):
        return text

    def join(match: re.Match[str]) -> str:
        first, second = match.groups()
        return first if is_known_word((first + second).lower()) else first + " "

    return _FILLER_BETWEEN_RX.sub(join, text)


# Regional indicator symbols render as letters (two of them as a flag): a run of three or
# more spelling a known word ("🇳🇪🇻🇪🇷") is that word; flags stay symbols.
_REGIONAL_RUN_RX = re.compile("[\U0001f1e6-\U0001f1ff]{3,}")


def _regional_letters(match: re.Match[str]) -> str:
    word = "".join(chr(ord(c) - 0x1F1E6 + ord("a")) for c in match.group())
    return word if is_known_word(word) else match.group()


# RIGHT-TO-LEFT OVERRIDE displays what follows reversed, up to POP DIRECTIONAL FORMATTING
# (or the end of the line): "found \u202egnihton\u202c" reads "found nothing".
_RLO_RX = re.compile("\u202e([^\u202c\n]*)\u202c?")


def _unoverride(text: str) -> str:
    return _RLO_RX.sub(lambda m: m.group(1)[::-1], text) if "\u202e" in text else text


@functools.cache
def _enclosed_letter(char: str) -> str:
    """PARENTHESIZED LATIN SMALL LETTER D, CIRCLED LATIN CAPITAL LETTER D, SQUARED/NEGATIVE
    CIRCLED ... -> the letter (NFKC would give "(d)", or leave the symbol)."""
    name = unicodedata.name(char, "")
    for kind in ("PARENTHESIZED", "CIRCLED", "SQUARED", "NEGATIVE CIRCLED", "NEGATIVE SQUARED"):
        for case in ("SMALL", "CAPITAL"):
            prefix = f"{kind} LATIN {case} LETTER "
            if name.startswith(prefix) and len(name) == len(prefix) + 1:
                letter = name[-1]
                return letter.lower() if case == "SMALL" else letter
    return char


def _unenclose(text: str) -> str:
    if text.isascii():
        return text
    return "".join(_enclosed_letter(c) if ord(c) >= 0x2460 else c for c in text)


# ECMA-48 control sequences a terminal renders as styling: CSI ("\x1b[1m", "\x1b[38;5;9m"),
# OSC up to BEL or ST (hyperlinks, titles), and two-character escapes.
_TERMINAL_ESCAPE_RX = re.compile(
    "\x1b(?:\\[[0-?]*[ -/]*[@-~]"  # CSI
    "|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?"  # OSC
    "|[@-Z\\\\-_])"  # two-character escapes
    "|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_KEPT_CONTROLS = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x85")


def _unmark_heavily_marked(match: re.Match[str]) -> str:
    """A word with a mark on most of its letters ("Ǹūn̆c̰ȃ": NFKC composes letter and mark
    into one marked letter, so no stray mark is left to drop) is the known word its bare
    letters spell; "São", "Zürich" or "được" keep their marks (too few, or no bare word)."""
    word = match.group()
    bare = [unicodedata.normalize("NFD", c)[0] for c in word]
    marked = sum(1 for b, c in zip(bare, word, strict=True) if b != c)
    if marked < 3 or 2 * marked < len(word):
        return word
    stripped = "".join(bare)
    if stripped.isascii() and is_known_word(stripped.lower()):
        return stripped
    # the word may keep one mark of its own ("J̇ạm̈á̰ṡ" = "Jamás"): each marked letter
    # bare or with one of its marks, the first combination that is a known word
    options: list[list[str]] = []
    for char in word:
        parts = unicodedata.normalize("NFD", char)
        kept = {unicodedata.normalize("NFC", parts[0] + m) for m in parts[1:]}
        options.append([parts[0], *sorted(c for c in kept if len(c) == 1)])
    if math.prod(len(o) for o in options) > 256:
        return word
    for letters in itertools.product(*options):
        candidate = "".join(letters)
        if is_known_word(candidate.lower()):
            return candidate
    return word


# Upside-down text ("You've ɹǝʌǝu told me", "sʇlnsǝɹ ou"): turned letters read backwards.
# The table is upsidedown's (MIT), inverted. Upside-down writing reverses the word order
# too, so a run of such words is read whole first ("sʇlnsǝɹ ou" = "no results"), then
# word by word; a reading is kept only when every word it makes is a known one.
@functools.cache
def _turned_table() -> dict[str, str]:
    from upsidedown import FLIP_RANGES

    table: dict[str, str] = {}
    for plain, flipped in FLIP_RANGES[:2]:  # the lower- and upper-case letters
        for letter, turned in zip(plain, flipped, strict=True):
            if turned != letter:
                table.setdefault(turned, letter)
    return table


@functools.cache
def _turned_rxs() -> tuple[re.Pattern[str], re.Pattern[str]]:
    turned = "".join(sorted(c for c in _turned_table() if not c.isascii()))
    letters = re.escape(turned) + "A-Za-z"
    # a plain word that can itself be upside-down writing: letters whose turned form is
    # a plain letter ("ou" is "no"; "me" would have been "ǝɯ")
    short = r"[bdlnopqsuxzNOSXZ]{1,4}"
    word = rf"[{letters}]*[{re.escape(turned)}][{letters}]*"
    run = rf"(?<![^\W\d_])(?:{short} )*{word}(?: (?:{word}|{short}))*(?![^\W\d_])"
    return re.compile(run), re.compile(word)


def _unturn(word: str) -> str:
    table = _turned_table()
    return "".join(table.get(c, c) for c in reversed(word))


def _known_reading(words: list[str]) -> bool:
    """Every word a known one (or a known contraction)."""
    return all(is_known_word(w.lower()) or _known_contraction(w.lower()) for w in words)


def _unturn_word(match: re.Match[str]) -> str:
    word = match.group()
    for reading in (_unturn(word), _unturn(word).replace("q", "g")):
        if _known_reading([reading]):
            return reading
    return word


def _unturn_run(match: re.Match[str]) -> str:
    run = match.group()
    whole = " ".join(_unturn(w) for w in reversed(run.split(" ")))
    if _known_reading(whole.split()):
        return whole
    return _turned_rxs()[1].sub(_unturn_word, run)


def _upside_down(text: str) -> str:
    run_rx, _ = _turned_rxs()
    return run_rx.sub(_unturn_run, text)


def fold_characters(text: str) -> str:
    """NFKC, no format characters, no stray marks, Latin skeleton in mixed words;
    enclosed letters (parenthesized, circled, squared) are their plain letters."""
    if "\x1b" in text or "\x9b" in text:
        text = _TERMINAL_ESCAPE_RX.sub("", text)
    if not text.isascii():
        text = _unfill(_ODD_SPACE_IN_WORD_RX.sub(_join_odd_space, text))
    text = unicodedata.normalize("NFKC", _unenclose(_unoverride(text)))
    if not text.isascii():
        text = _REGIONAL_RUN_RX.sub(_regional_letters, text)
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" or char in _VARIATION_SELECTORS or char in _FILLERS:
            continue
        if category == "Cc" and char not in _KEPT_CONTROLS:
            continue
        if category == "Mn" and out and _is_latin_letter(out[-1]):
            continue  # NFKC composed what belongs; what is left is decoration
        out.append(_small_capital(char) if not char.isascii() else char)
    composed = unicodedata.normalize("NFC", "".join(out))
    if not composed.isascii():
        composed = _upside_down(_WORD_RX.sub(_unmark_heavily_marked, composed))
    folded = _WORD_RX.sub(_fold_word, composed)
    if not folded.isascii() and _mostly_latin(folded):
        folded = _WORD_RX.sub(_fold_foreign_word, folded)
        if folded != composed:
            # look-alikes are in use here: short words of them too ("Ι", "уоυ")
            folded = _WORD_RX.sub(_fold_short_foreign_word, folded)
        else:
            # a negation spelt in look-alikes alone ("Νο memory entries mention ...")
            folded = _WORD_RX.sub(_fold_short_negation, folded)
    return folded


# --------------------------------------------------------------------------------------
# Formatting that hides a claim
# --------------------------------------------------------------------------------------

_FENCE_RX = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_TAG_RX = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,200})?/?>")
_HTML_COMMENT_RX = re.compile(r"<!--.{0,200}?-->", re.S)
# BBCode tags ("[b]never[/b]", "[color=red]...[/color]") and LaTeX text commands
# ("\\emph{never}", "\\textbf{no}") wrap prose.
_BBCODE_RX = re.compile(
    r"\[/?(?:b|i|u|s|em|strong|strike|color|colour|size|font|highlight|sup|sub|quote=[^\]]*)"
    r"(?:=[^\]\n]{0,40})?\]",
    re.I,
)
_LATEX_RX = re.compile(
    r"\\(?:emph|textbf|textit|textsl|textsc|texttt|textrm|textsf|underline|uline|mbox|text"
    r"|mathrm|mathbf|mathit|hbox)\s*\{([^{}\n]{0,200})\}"
)
_LATEX_GROUP_RX = re.compile(r"\{\\(?:bf|it|em|sc|tt|sl|rm)\s+([^{}\n]{0,200})\}")
_LINK_RX = re.compile(r"!?\[([^\]\n]{1,200})\]\([^)\n]{0,500}\)")
_EMPHASIS_RXS = tuple(
    re.compile(p)
    for p in (
        r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*",
        r"\*\*(?=\S)(.+?)(?<=\S)\*\*",
        r"__(?=\S)(.+?)(?<=\S)__",
        r"~~(?=\S)(.+?)(?<=\S)~~",
        r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])",
        r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])",
    )
)
# Inline code of at most a few words is prose in disguise; longer spans stay code.
# "em*pty*", "*no*thing": emphasis inside a word (asterisks only: "_" joins identifiers).
_INTRAWORD_STAR_RX = re.compile(
    r"(?<=[^\W\d_])\*{1,3}([^\W\d_]+)\*{1,3}|\*{1,3}([^\W\d_]+)\*{1,3}(?=[^\W\d_])"
)
# "_ment_ioned", "sur_gery_": underscores around part of a word, kept apart from
# identifiers by asking that the joined word be a known one.
_INTRAWORD_UNDERSCORE_RX = re.compile(
    r"(?<![\w])_([^\W\d_]+)_([^\W\d_]+)(?![\w])|(?<![\w])([^\W\d_]+)_([^\W\d_]+)_(?![\w])"
)
# Single letters joined by underscores ("M_a_t_t_e_o"): a word spelled out, never an
# identifier (snake_case pieces are words), so it is joined whether or not it is known.
_UNDERSCORED_LETTERS_RX = re.compile(r"(?<!\w)(?:[^\W\d_]_){2,}[^\W\d_](?!\w)")
_UNDERSCORED_PAIR_RX = re.compile(r"(?<!\w)[^\W\d_]_[^\W\d_](?!\w)")


def _join_underscored_pair(match: re.Match[str]) -> str:
    joined = match.group().replace("_", "")
    return joined if is_known_word(joined.lower()) else match.group()


_INLINE_CODE_RX = re.compile(r"(?<!`)`([^`\n]{1,40})`(?!`)")
# Inside inline code, what only code has: an operator or bracket, a path or a dotted name,
# a colon or two digits in a row ("`ORA-01403: no data found`", "`user.id`", "`f(x)`").
# Such a span stays code (the gate masks it); a span of words is prose in disguise.
_CODE_LIKE_RX = re.compile(r"[:;=*+(){}\[\]<>/\\|$#@%&^~]|\d\d|\w\.\w|\w_\w")
_SYMBOL_CATEGORIES = frozenset({"So", "Sk", "Co"})
_SPACES_RX = re.compile(r"[ \t]{2,}")
_BLOCK_START_RX = re.compile(r"^[ \t]*(?:[-*+\u2022]\s|\d+[.)]\s|#|>|\||`{3}|~{3})")
_SENTENCE_END_RX = re.compile(r"[.!?\u2026]\s*$")


def _is_pictograph(char: str) -> bool:
    # Emoji are So (skin-tone modifiers Sk); ASCII "`" and "^" are Sk too and stay.
    return not char.isascii() and unicodedata.category(char) in _SYMBOL_CATEGORIES


# A pictograph, tab, blank or line separator put between the letters of one word
# ("ne🙂ver", "ne\tver", "no\u2028thing"): the word is joined when that makes a known
# word, and the separator is a space otherwise.
_INSERTED_RX = re.compile(
    "([^\\W\\d_]+)((?:[\t\u2800\u2028\u2029]|[^\\x00-\\x7f](?<=[^\\w\\s]))+)([^\\W\\d_]+)"
)


def _rejoin(match: re.Match[str]) -> str:
    first, gap, second = match.groups()
    if all(c in "\t\u2800\u2028\u2029" or _is_pictograph(c) for c in gap) and is_known_word(
        (first + second).lower()
    ):
        return first + second
    return match.group()


def _strip_symbols(text: str) -> str:
    if not text.isascii() or "\t" in text:
        text = _INSERTED_RX.sub(_rejoin, text)
    return "".join(" " if _is_pictograph(c) else c for c in text)


_EDGE_WORD_RX = re.compile(r"[^\W\d_]+$")
_HEAD_WORD_RX = re.compile(r"^[^\W\d_]+")


# The words of one letter of the gate languages (the lexicon lists words of two or more).
_ONE_LETTER_WORDS = frozenset(["i", "a", "y", "o", "e", "u", "à", "è", "é"])


def _breaks_a_word(before: str, after: str) -> bool:
    """A line break inside one word ("came up em\npty", "nu\nlla"): the two pieces make
    a known word and at least one of them is no word by itself."""
    tail, head = _EDGE_WORD_RX.search(before), _HEAD_WORD_RX.match(after)
    if tail is None or head is None:
        return False
    a, b = tail.group(), head.group()
    if not is_known_word((a + b).lower()):
        return False
    if tail.start() == 0:
        # the line before is that one word alone ("Now\nhere in our conversations",
        # "Na\nda do que você me contou"): no line of prose breaks after one short word,
        # unless it is a word of one letter ("I\ndo not have": not the Spanish "ido")
        return a.lower() not in _ONE_LETTER_WORDS
    return not (is_known_word(a.lower()) and is_known_word(b.lower()))


def _join_lines(text: str) -> str:
    """Join a line break inside a paragraph unless the next line starts a block."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if (
            out
            and out[-1].strip()
            and line.strip()
            and not _BLOCK_START_RX.match(line)
            and not _BLOCK_START_RX.match(out[-1])
            and not _SENTENCE_END_RX.search(out[-1])
        ):
            before, after = out[-1].rstrip(), line.lstrip()
            # a break between two characters of a script written without spaces
            # (Japanese, Chinese, Thai...) joins without one
            unspaced = lacks_word_boundaries(before[-1]) and lacks_word_boundaries(after[0])
            out[-1] = before + ("" if unspaced or _breaks_a_word(before, after) else " ") + after
        else:
            out.append(line)
    return "\n".join(out)


# A run of single letters with separators; an apostrophe may stand as a letter inside a
# dotted word ("i.s.n.'.t").
_SPACED_RX = re.compile(
    r"(?<![^\W\d_])(?:[^\W\d_][ .\-\u00b7*/|\u2022\u2219\u2027\u22c5]"
    r"|'[ .\-\u00b7*](?=[^\W\d_])){2,}[^\W\d_](?![^\W\d_])"
)
# Spaced letters with digits standing for some of them ("y 0 u   5 h 4 r 3 d").
_SPACED_LEET_RX = re.compile(r"(?<!\S)(?:[\w@$'] ){2,}[\w@$](?!\S)")
# The same joined by dots, a pipe standing for "l" ("N.0 r.3.$.u.|.7.$" = "No results").
_DOTTED_LEET_RX = re.compile(r"(?<![\w@$|.])(?:[\w@$|]\.)+[\w@$|](?![\w@$|])")
_LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"}
_LEET_ALT = {"1": "l", "0": "o"}
_MIXED_RX = re.compile(r"(?<![\w@$])(?=[\w@$]*[^\W\d_])(?=[\w@$]*[013457@$8])[\w@$]{3,}")
_STRETCH_RX = re.compile(r"([^\W\d_])\1{2,}")
_LETTERS_RX = re.compile(r"[^\W\d_]{3,}")
_TWO_LETTERS_RX = re.compile(r"(?<![^\W\d_])[^\W\d_]{2}(?![^\W\d_])")


_LETTER_SEP_RX = re.compile(r"[.\-\u00b7*/|\u2022\u2219\u2027\u22c5]")
# Letter spacing with wider gaps between the words ("n o   m a t c h"): each group is a
# word, kept only when every group is a known one.
_WIDE_SPACED_RX = re.compile(
    r"(?<![^\W\d_])(?:[^\W\d_] )+[^\W\d_](?: {2,}(?:[^\W\d_] )*[^\W\d_])+(?![^\W\d_])"
)


def _unspace_wide(match: re.Match[str]) -> str:
    words = ["".join(group.split(" ")) for group in re.split(r" {2,}", match.group())]
    if all(is_known_word(w.lower()) or w in ("I", "a", "A") for w in words):
        return " ".join(words)
    return match.group()


def _unspace(match: re.Match[str]) -> str:
    """Join the longest stretch of spaced letters that makes a known word (a spaced run
    may begin with a real one-letter word: "I f o u n d"). When letters are joined by
    dots or hyphens and the words by spaces ("w.a.s n.e.v.e.r m.e.n.t.i.o.n.e.d"), each
    space-separated piece is a word of its own."""
    run = match.group()
    if " " in run and _LETTER_SEP_RX.search(run):
        pieces = run.split(" ")
        words = ["".join(_LETTER_SEP_RX.split(p)) for p in pieces]
        if max(map(len, words)) >= 3 and all(
            len(p) == 1 or is_known_word(w) or _known_contraction(w)
            for p, w in zip(pieces, words, strict=True)
        ):
            return " ".join(words)
    letters = re.split(r"[ .\-\u00b7*/|\u2022\u2219\u2027\u22c5]", run)
    if "'" in letters and _known_contraction("".join(letters)):
        return "".join(letters)
    if not is_known_word("".join(letters)):
        segmented = _segment("".join(letters))
        if segmented:
            return " ".join(segmented)
    for size in range(len(letters), 2, -1):
        for start in range(len(letters) - size + 1):
            joined = "".join(letters[start : start + size])
            if is_known_word(joined):
                before = " ".join(letters[:start])
                after = " ".join(letters[start + size :])
                return " ".join(p for p in (before, joined, after) if p)
    return run


def _unspace_leet(match: re.Match[str]) -> str:
    """A spaced run holding digits and letters, digits read as the letters they mimic,
    joined like any spaced run; left alone unless that makes a word."""
    run = match.group()
    if not any(c.isdigit() or c in "@$" for c in run) or not any(c.isalpha() for c in run):
        return run
    letters = "".join(_LEET.get(c, c) for c in run)
    joined = _SPACED_RX.sub(_unspace, letters)
    return joined if joined != letters else run


def _undot_leet(match: re.Match[str]) -> str:
    """A dotted run holding leet digits or signs, read as the word it spells; left alone
    unless that is a known word."""
    run = match.group()
    if not any(c.isdigit() or c in "@$|" for c in run) or not any(c.isalpha() for c in run):
        return run
    word = "".join(_LEET.get(c, "l" if c == "|" else c) for c in run.split("."))
    return word if is_known_word(word.lower()) else run


def _join_underscored(match: re.Match[str]) -> str:
    word = "".join(g for g in match.groups() if g)
    return word if is_known_word(word) or _known_contraction(word) else match.group()


_CONTRACTION_RX = re.compile(r"([^\W\d_]+)'(t|s|re|ve|ll|d|m)", re.I)


def _known_contraction(word: str) -> bool:
    m = _CONTRACTION_RX.fullmatch(word)
    return m is not None and (is_known_word(word) or is_known_word(m.group(1)))


def _segment(letters: str) -> list[str] | None:
    """``letters`` as the fewest known words, longer ones first among as few
    ("norecord" -> "no record", "neversaida" -> "never said a"; one-letter words
    only "I" and "a"), or None; two to four words, so random letters are not read as
    words."""
    n = len(letters)
    if n < 5 or n > 40:
        return None
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(1, n + 1):
        for start in range(max(0, end - 20), end):
            prev = best[start]
            piece = letters[start:end]
            if prev is None:
                continue
            if len(piece) == 1 and piece not in "IiAa":
                continue
            if len(piece) > 1 and not is_known_word(piece):
                continue
            current = best[end]
            candidate = [*prev, piece]
            # Fewest words; among as few, longer words first ("said a", not "sai da").
            if current is None or (len(candidate), [-len(w) for w in candidate]) < (
                len(current),
                [-len(w) for w in current],
            ):
                best[end] = candidate
    words = best[n]
    return words if words is not None and 2 <= len(words) <= 4 else None


# Two-character tokens with a digit ("m3", "70" is no word) are restored only beside a
# word that was itself written in leet ("Nunc4 m3 d1j1573"): alone, "m3" and "A4" are
# units and paper sizes.
_SHORT_LEET_RX = re.compile(
    r"(?<![\w@$])(?=[\w@$]*[^\W\d_])(?=[\w@$]*[013457@$8])[\w@$]{2}(?![\w@$])"
)
_TOKEN_RX = re.compile(r"\S+")


# A two-character negation in leet or letter-spaced before a word ("n0 results", "N0
# matches", "I hold n o information"); "T2 N0 M0" (a tumour stage) is followed by no word,
# so it stays. Spacing longer runs out is undone elsewhere (:func:`_unspace`); two letters
# alone are a word only here, where the pair is a negation.
_SHORT_LEET_NEGATION_RX = re.compile(r"(?<![\w@$])[nN](?:0| [0oO])(?= [^\W\d_]{3,}\b)")


def _unleet_text(text: str) -> str:
    """Leet words (``n3v3r``) read as the known words they spell, then their short
    neighbours (``m3``) where a neighbour was one."""
    text = _SHORT_LEET_NEGATION_RX.sub(
        lambda m: m.group()[0] + ("O" if m.group()[-1] == "O" else "o"), text
    )
    if not _MIXED_RX.search(text):
        return text  # no leet word, so no neighbour to restore either
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN_RX.finditer(text)]
    restored = [_MIXED_RX.sub(_unleet, t) for _, _, t in tokens]
    changed = [r != t for r, (_, _, t) in zip(restored, tokens, strict=True)]
    for i, token in enumerate(restored):
        if changed[i] or not _SHORT_LEET_RX.search(token):
            continue
        if (i > 0 and changed[i - 1]) or (i + 1 < len(tokens) and changed[i + 1]):
            restored[i] = _SHORT_LEET_RX.sub(_unleet, token)
    out: list[str] = []
    pos = 0
    for (start, end, _), token in zip(tokens, restored, strict=True):
        out.append(text[pos:start])
        out.append(token)
        pos = end
    out.append(text[pos:])
    return "".join(out)


# Characters of unspaced scripts spaced out one by one ("一　度　も　伺　っ　て"; the
# ideographic space is a plain space after NFKC): three or more such spaces in a run.
_SPACED_UNSPACED_RX = re.compile(rf"[{UNSPACED_CLASS}](?: [{UNSPACED_CLASS}]){{3,}}")


def _unspace_unspaced(text: str) -> str:
    return _SPACED_UNSPACED_RX.sub(lambda m: m.group().replace(" ", ""), text)


# A word cut into quoted pieces ('"nun" "ca"', «aler» «gias»): joined when the pieces
# spell a known word.
_QUOTE_CHARS = '"\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019'
_QUOTED_PIECES_RX = re.compile(
    rf"(?:[{_QUOTE_CHARS}][^\W\d_]{{1,15}}[{_QUOTE_CHARS}] ?){{1,}}"
    rf"[{_QUOTE_CHARS}][^\W\d_]{{1,15}}[{_QUOTE_CHARS}]"
)


_LETTER_RUN_RX = re.compile(r"[^\W\d_]+")


def _unquote_pieces(match: re.Match[str]) -> str:
    run = match.group()
    word = "".join(_LETTER_RUN_RX.findall(run))
    return word if is_known_word(word) else run


def _unleet(match: re.Match[str]) -> str:
    word = match.group()
    first = "".join(_LEET.get(c, c) for c in word)
    if is_known_word(first):
        return first
    second = "".join(_LEET_ALT.get(c, _LEET.get(c, c)) for c in word)
    return second if is_known_word(second) else word


def _unstretch(match: re.Match[str]) -> str:
    return _unstretch_word(match.group())


def _unstretch_word(word: str) -> str:
    if is_known_word(word):
        return word
    for repl in (r"\1", r"\1\1"):
        candidate = _STRETCH_RX.sub(repl, word)
        if candidate != word and is_known_word(candidate):
            return candidate
    return word


# A word whose case alternates inside it ("nEvEr", "GaVe", "nO") or several words run
# together in camel case ("YouNeverToldMe", "NothingFound"): lower case and split them when
# the result is made of known words; "iPhone", "McDonald", "NoSQL" stay.
_INNER_UPPER_RX = re.compile(r"[^\W\d_]*[^\W\d_A-Z][A-Z][^\W\d_]*|[A-Z]{2,}[a-z][^\W\d_]*")
_CAMEL_SPLIT_RX = re.compile(r"(?<=[^\W\d_])(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])")


def _uncamel(match: re.Match[str]) -> str:
    word = match.group()
    lower = word.lower()
    if is_known_word(lower):
        return word[0] + lower[1:]
    parts = [_unmark_word(_unstretch_word(p)) for p in _CAMEL_SPLIT_RX.split(word) if p]
    if min(map(len, parts)) < 2:
        return word
    if len(parts) >= 2 and sum(1 for p in parts if is_known_word(p)) >= max(2, len(parts) - 1):
        # every part known, or all but an end one ("direcciónNuncaMeLaHasDado")
        unknown = [i for i, p in enumerate(parts) if not is_known_word(p)]
        if not unknown or unknown[0] in (0, len(parts) - 1):
            return " ".join(parts)
    return word


def _unmark(match: re.Match[str]) -> str:
    """Accents sprinkled on a word ("ńev̈er̄") come off when the bare word is known and
    the accented one is not."""
    return _unmark_word(match.group())


def _unmark_text(text: str) -> str:
    """Sprinkled accents off words of three letters or more; when any came off,
    the text is sprinkled, and two-letter words lose theirs too ("óf", "úp"; a lone "él"
    or "aí" in Spanish or Portuguese stays as written). Capitalised words lose theirs only
    in a sprinkled text: a name spelt with its accent ("Sofía", "Mérida") stays as
    written, so its terms are the ones a record of it holds."""
    changed = False

    def unmark_lower(match: re.Match[str]) -> str:
        nonlocal changed
        word = match.group()
        if word[0].isupper():
            return word
        bare = _unmark_word(word)
        changed = changed or bare != word
        return bare

    text = _LETTERS_RX.sub(unmark_lower, text)
    if changed:
        text = _LETTERS_RX.sub(lambda m: _unmark_word(m.group()), text)
        text = _TWO_LETTERS_RX.sub(_unmark, text)
    return text


def _unmark_word(word: str) -> str:
    if word.isascii() or is_known_word(word) or len(word) < 2:
        return word
    bare = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
    return bare if bare != word and is_known_word(bare) else word


# Text-speak spellings of the words claims are made of ("u nevr told me ur ..."): whole
# lower-case tokens only, so "U-Bahn" or "R" stay; none that is a word of another gate
# language (German "im", Spanish "ya" stay as written).
_TEXTSPEAK = {
    "u": "you",
    "ur": "your",
    "yr": "your",
    "nvr": "never",
    "nevr": "never",
    "neva": "never",
    "nevar": "never",
    "nuthin": "nothing",
    "nothin": "nothing",
    "nthng": "nothing",
    "nuffin": "nothing",
    "nuthing": "nothing",
    "dont": "don't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "cant": "can't",
    "couldnt": "couldn't",
    "wasnt": "wasn't",
    "isnt": "isn't",
    "ive": "I've",
    "rly": "really",
    "b4": "before",
    "2day": "today",
    "msg": "message",
    "mentiond": "mentioned",
    "mentionned": "mentioned",
    "tld": "told",
    "tol": "told",
}
_TEXTSPEAK_RX = re.compile(
    r"(?<![\w'-])(?:"
    + "|".join(sorted(map(re.escape, _TEXTSPEAK), key=len, reverse=True))
    + r")(?![\w'-])"
)


# Text-speak that is a word of another gate language beside that language's words: Dutch
# writes the formal "you" as "u" ("die heeft u nooit vermeld"), French "dont" is "of
# which" ("ce dont nous avons parlé"). Words that are also English are left out.
_DUTCH_WORDS = """
heeft hebt bent kunt wilt zult zou zoudt moet mag gaat komt nooit niet ook wel zelf
dat het een mij ons graag nog toch even daar hier zich uw als wat hoe waar wanneer
omdat toen voor van met aan bij door naar op tegen zoals dank bedankt heb hebben
kan wil zal ben
"""
_FRENCH_WORDS = """
ce celui celle ceux celles ceci cela chose choses nous vous il ils elle elles on je
tu j le la les lequel laquelle un une des du personne ami amie sujet projet livre
façon manière moment jour fois raison endroit dossier question problème parlé
"""
_OTHER_LANGUAGE_BESIDE = {
    "u": frozenset(_DUTCH_WORDS.split()),
    "dont": frozenset(_FRENCH_WORDS.split()),
}
_WORD_BEFORE_RX = re.compile(r"([^\W\d_]+)[^\w]*\Z")
_WORD_AFTER_RX = re.compile(r"\A[^\w]*([^\W\d_]+)")


def _textspeak_word(match: re.Match[str]) -> str:
    word = match.group()
    other = _OTHER_LANGUAGE_BESIDE.get(word)
    if other is not None:
        text = match.string
        before = _WORD_BEFORE_RX.search(text, max(0, match.start() - 40), match.start())
        after = _WORD_AFTER_RX.match(text, match.end(), match.end() + 40)
        beside = {m.group(1).casefold() for m in (before, after) if m is not None}
        if beside & other:
            return word
    return _TEXTSPEAK[word]


def _untextspeak(text: str) -> str:
    return _TEXTSPEAK_RX.sub(_textspeak_word, text)


# Literal escapes of letters written out in the text ("\\u006e\\u0065\\u0076...",
# "\\x6e", or mixed with plain letters: "\\u0071u\\u0065r\\u0069ed"), and URL
# percent-encoding of letters ("%73e%61rched"): a word-like run is decoded when every
# escape in it stands for a letter (or a digit, apostrophe or hyphen), so "100%25" or a
# path's "\\x00" stays as written.
_ESCAPE = r"(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2})"
_ESCAPE_RUN_RX = re.compile(rf"(?:[^\W\d_]*{_ESCAPE})+[^\W\d_]*")
_ONE_ESCAPE_RX = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2}))")
# Two escapes at least: a lone "%6E" is more likely a code than an obfuscation.
_PERCENT_RUN_RX = re.compile(r"(?:[A-Za-z]*%[0-9A-Fa-f]{2}){2,}[A-Za-z]*")
_ONE_PERCENT_RX = re.compile(r"%([0-9A-Fa-f]{2})")


def _escaped_letter(code: int) -> str | None:
    char = chr(code) if code <= 0x10FFFF else ""
    if char and char.isprintable() and (char.isalnum() or char in " '\u2019-.,"):
        return char
    return None


def _unescape_run(match: re.Match[str]) -> str:
    run = match.group()
    chars = [
        _escaped_letter(int(next(g for g in m.groups() if g), 16))
        for m in _ONE_ESCAPE_RX.finditer(run)
    ]
    if not chars or None in chars:
        return run
    decoded = iter(chars)
    return _ONE_ESCAPE_RX.sub(lambda _m: next(decoded) or "", run)


def _unpercent_run(match: re.Match[str]) -> str:
    run = match.group()
    codes = [int(m.group(1), 16) for m in _ONE_PERCENT_RX.finditer(run)]
    letters = all(0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A for c in codes)
    if not letters and not all(
        0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A or c in (0x20, 0x27) for c in codes
    ):
        return run
    decoded = _ONE_PERCENT_RX.sub(lambda m: chr(int(m.group(1), 16)), run)
    # an encoded space or apostrophe ("n%6F%20r%65s%75lts"): only when every word it
    # makes is a known one
    if not letters and not _known_reading(decoded.split()):
        return run
    return decoded


# One escape inside or at either end of a word ("ne%76er", "n%6F"): decoded only when
# that makes a known word.
_PERCENT_IN_WORD_RX = re.compile(
    r"(?<![\w%])(?:[A-Za-z]+%[0-9A-Fa-f]{2}[A-Za-z]*|%[0-9A-Fa-f]{2}[A-Za-z]+)(?![\w%])"
)


def _unpercent_word(match: re.Match[str]) -> str:
    decoded = _unpercent_run(match)
    return decoded if decoded != match.group() and is_known_word(decoded.lower()) else match.group()


# URL-encoded prose ("Non%20mi%20hai%20mai%20detto"): an encoded space between letters,
# when a text holds two or more of them.
_PERCENT_SPACE_RX = re.compile(
    r"(?:(?<=[^\W\d_])|(?<=%[0-9A-Fa-f]{2}))%20(?=[^\W\d_]|%[0-9A-Fa-f]{2})"
)


def _unescape(text: str) -> str:
    if "\\" in text:
        text = _ESCAPE_RUN_RX.sub(_unescape_run, text)
    if "%" in text:
        if len(_PERCENT_SPACE_RX.findall(text)) >= 2:
            text = _PERCENT_SPACE_RX.sub(" ", text)
        text = _PERCENT_RUN_RX.sub(_unpercent_run, text)
        text = _PERCENT_IN_WORD_RX.sub(_unpercent_word, text)
    return text


# A line written in capitals ("YOU NEVER TOLD ME!!!"): its known words are lower-cased
# (acronyms in ordinary text stay: only a line that is mostly capitals of several words).
_CAPS_WORD_RX = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _unshout_line(line: str) -> str:
    words = _CAPS_WORD_RX.findall(line)
    if len(words) < 4:
        return line
    upper = sum(1 for w in words if w.isupper() and len(w) > 1)
    if upper < 0.8 * sum(1 for w in words if len(w) > 1):
        return line

    def lower(m: re.Match[str]) -> str:
        w = m.group()
        if not w.isupper():
            return w
        low = w.lower()
        if low == "i" or low.startswith("i'"):
            return "I" + low[1:]
        return low if is_known_word(low) or is_known_word(low.split("'")[0]) else w

    return _CAPS_WORD_RX.sub(lower, line)


def _unshout(text: str) -> str:
    return "\n".join(_unshout_line(line) for line in text.split("\n"))


def _unformat(text: str) -> str:
    text = _unescape(text)
    text = _LATEX_GROUP_RX.sub(r"\1", _LATEX_RX.sub(r"\1", _HTML_COMMENT_RX.sub("", text)))
    text = _BBCODE_RX.sub("", text)
    text = fold_characters(html.unescape(_TAG_RX.sub("", text)))
    text = _LINK_RX.sub(r"\1", text)
    for rx in _EMPHASIS_RXS:
        text = rx.sub(r"\1", text)
    text = _INTRAWORD_STAR_RX.sub(lambda m: m.group(1) or m.group(2), text)
    if _UNDERSCORED_LETTERS_RX.search(text):
        # letters joined by underscores are in use here: a two-letter word of them too
        # ("f_o_u_n_d n_o r_e_c_o_r_d"), when it is a known word
        text = _UNDERSCORED_PAIR_RX.sub(_join_underscored_pair, text)
    text = _UNDERSCORED_LETTERS_RX.sub(lambda m: m.group().replace("_", ""), text)
    text = _INTRAWORD_UNDERSCORE_RX.sub(_join_underscored, text)
    text = _strip_symbols(text)
    # Lines are joined before inline code is unwrapped: "`\n`" is "` `" is " " in one pass.
    text = _join_lines(text)
    text = _INLINE_CODE_RX.sub(_unwrap_prose_code, text)
    # Accents come off before digits are read as letters: "$ÈRA" is "$ERA" is "sera",
    # in one pass (the canonical text of a canonical text is itself).
    text = _unmark_text(text)
    text = _SPACED_LEET_RX.sub(_unspace_leet, text)
    text = _DOTTED_LEET_RX.sub(_undot_leet, text)
    text = _WIDE_SPACED_RX.sub(_unspace_wide, text)
    text = _SPACED_RX.sub(_unspace, text)
    text = _unleet_text(text)
    text = _QUOTED_PIECES_RX.sub(_unquote_pieces, text)
    text = _unspace_unspaced(text)
    text = _LETTERS_RX.sub(_unstretch, text)
    text = _unmark_text(text)
    text = _INNER_UPPER_RX.sub(_uncamel, text)
    text = _untextspeak(_unshout(text))
    return _SPACES_RX.sub(" ", text)


def _unwrap_prose_code(match: re.Match[str]) -> str:
    inner = match.group(1)
    return match.group() if _CODE_LIKE_RX.search(inner) else inner


def _passes_through(block: str) -> bool:
    return bool(_FENCE_RX.fullmatch(block))


# A fence declared as prose around one sentence ("```text\nYou never told me.\n```") is
# prose in a box: no code characters, several words, one sentence end. A bare fence, tool
# output and anything else stay code.
_PROSE_FENCE_RX = re.compile(
    r"[ \t]*(`{3,}|~{3,})[ \t]*(?:text|txt|plain|plaintext|md|markdown|prose)[ \t]*\n"
    r"[ \t]*([^\n]+?)[ \t]*\n[ \t]*\1[ \t]*\Z",
    re.I,
)
_CODE_CHARS_RX = re.compile(
    r"[={}<>$#|\\]|;\s*$|\b(?:def|return|import|SELECT|function)\b|\w\(|\)\s*$"
)


def _prose_in_fence(block: str) -> str | None:
    m = _PROSE_FENCE_RX.fullmatch(block.rstrip("\n"))
    if not m:
        return None
    body = m.group(2)
    if _CODE_CHARS_RX.search(body) or len(body.split()) < 4 or not _SENTENCE_END_RX.search(body):
        return None
    if len(re.findall(r"[.!?\u2026]+(?:\s|$)", body)) > 1:
        return None
    return body


def for_claims(text: str) -> str:
    """The text the truthfulness gate reads (module docstring)."""
    folded = fold_characters(text)
    pieces: list[str] = []
    pos = 0
    for fence in _FENCE_RX.finditer(folded):
        pieces.append(_unformat_outside_quotes(folded[pos : fence.start()]))
        prose = _prose_in_fence(fence.group())
        if prose is None:
            pieces.append(fence.group())
        else:
            # Same length as the fence, so offsets map back: the prose, then padding.
            pieces.append(_unformat(prose).ljust(len(fence.group()))[: len(fence.group())])
        pos = fence.end()
    pieces.append(_unformat_outside_quotes(folded[pos:]))
    return "".join(pieces)


_QUOTE_LINE_RX = re.compile(r"^[ \t]*>")


def _unformat_outside_quotes(text: str) -> str:
    """Unformat prose; block-quote lines (quoted mail) stay as written."""
    out: list[str] = []
    prose: list[str] = []
    for line in text.split("\n"):
        if _QUOTE_LINE_RX.match(line):
            if prose:
                out.append(_unformat("\n".join(prose)))
                prose = []
            out.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(_unformat("\n".join(prose)))
    return "\n".join(out)
