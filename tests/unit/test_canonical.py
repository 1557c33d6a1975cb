"""The canonical text: obfuscations do not change what the gate's rules read."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.canonical import fold_characters, for_claims
from engram.lexicon import is_known_word
from gateway.truthfulness import find_absence_claims
from tests.unit.truthfulness_cases import CASES

_WORD_RX = re.compile(r"[A-Za-z]{3,}")
_CYRILLIC = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}
_LEET = {"e": "3", "o": "0", "a": "4"}
_KEY_WORDS = ("never", "nothing", "record", "mentioned", "found", "told", "search")

Transform = Callable[[str], str]


def _pick(text: str, index: int) -> re.Match[str] | None:
    words = list(_WORD_RX.finditer(text))
    preferred = [m for m in words if m.group().lower() in _KEY_WORDS] or words
    return preferred[index % len(preferred)] if preferred else None


def _on_word(fn: Callable[[str], str]) -> Callable[[str, int], str]:
    def apply(text: str, index: int) -> str:
        m = _pick(text, index)
        if m is None:
            return text
        return text[: m.start()] + fn(m.group()) + text[m.end() :]

    return apply


def _zero_width(word: str) -> str:
    return word[0] + "\u200b" + word[1:]


def _soft_hyphen(word: str) -> str:
    return word[:2] + "\u00ad" + word[2:]


def _homoglyph(word: str) -> str:
    return "".join(_CYRILLIC.get(c, c) for c in word) if set(word) & set(_CYRILLIC) else word


def _full_width(word: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) for c in word)


def _spaced(word: str) -> str:
    return " ".join(word) if word.lower() in _KEY_WORDS else word


def _leet(word: str) -> str:
    return "".join(_LEET.get(c, c) for c in word) if word.lower() in _KEY_WORDS else word


def _dotted_leet(word: str) -> str:
    if word.lower() not in _KEY_WORDS:
        return word
    return ".".join(_LEET.get(c, c) for c in word)


def _newline_inside(text: str, index: int) -> str:
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    i = spaces[index % len(spaces)]
    return text[:i] + "\n" + text[i + 1 :]


def _emoji_between(text: str, index: int) -> str:
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    i = spaces[index % len(spaces)]
    return text[:i] + " \U0001f648 " + text[i + 1 :]


def _alternating_case(word: str) -> str:
    if word.lower() not in _KEY_WORDS:
        return word
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(word))


def _with_next_word(fn: Callable[[str, str], str]) -> Callable[[str, int], str]:
    """Rewrite a key word and the known word after it together (when there is one)."""

    def apply(text: str, index: int) -> str:
        m = _pick(text, index)
        if m is None or m.group().lower() not in _KEY_WORDS:
            return text
        nxt = re.match(r" ([A-Za-z]{2,})\b", text[m.end() :])
        if nxt is None or not is_known_word(nxt.group(1)):
            return text
        end = m.end() + nxt.end()
        return text[: m.start()] + fn(m.group(), nxt.group(1)) + text[end:]

    return apply


def _camel(first: str, second: str) -> str:
    return first[0].upper() + first[1:].lower() + second[0].upper() + second[1:].lower()


def _dotted_words(first: str, second: str) -> str:
    return ".".join(first) + " " + ".".join(second)


# Armenian and Greek letters Unicode's confusables table maps to Latin ones.
_OTHER_SCRIPT = {"n": "\u0578", "u": "\u057d", "h": "\u0570", "o": "\u03bf", "i": "\u03b9"}


def _other_script(word: str) -> str:
    if not set(word) & set(_OTHER_SCRIPT):
        return word
    return "".join(_OTHER_SCRIPT.get(c, c) for c in word)


def _enclosed(word: str, base: int) -> str:
    if word.lower() not in _KEY_WORDS:
        return word
    return "".join(chr(base + ord(c) - ord("a")) if "a" <= c <= "z" else c for c in word)


def _escaped(word: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in word) if word.lower() in _KEY_WORDS else word


def _mixed_escaped(word: str) -> str:
    """Every other letter as a literal escape ("\\u006ee\\u0076e\\u0072")."""
    if word.lower() not in _KEY_WORDS:
        return word
    return "".join(f"\\u{ord(c):04x}" if i % 2 == 0 else c for i, c in enumerate(word))


def _percent_encoded(word: str) -> str:
    """Every other letter URL-encoded ("%6Ee%76e%72")."""
    if word.lower() not in _KEY_WORDS or not word.isascii():
        return word
    return "".join(f"%{ord(c):02X}" if i % 2 == 0 else c for i, c in enumerate(word))


def _joiners(word: str) -> str:
    return "\u2060".join(word) if word.lower() in _KEY_WORDS else word


def _zwnj_zwj(word: str) -> str:
    if word.lower() not in _KEY_WORDS:
        return word
    marks = ("\u200d", "\u200c")
    return "".join(c + marks[i % 2] for i, c in enumerate(word[:-1])) + word[-1]


def _alternating_spaced(word: str) -> str:
    return " ".join(_alternating_case(word)) if word.lower() in _KEY_WORDS else word


def _shouting(text: str, index: int) -> str:
    return re.sub(r"\.$", "!!!", text.upper())


def _spaced_pair(first: str, second: str) -> str:
    return " ".join(first + second)


def _prose_fence(text: str, index: int) -> str:
    if len(re.findall(r"[.!?](?:\s|$)", text)) > 1 or not re.search(r"[.!?]$", text):
        return text
    return f"```text\n{text}\n```"


TRANSFORMS: dict[str, Callable[[str, int], str]] = {
    "other_script_homoglyph": _on_word(_other_script),
    "parenthesized_letters": _on_word(lambda w: _enclosed(w, 0x249C)),
    "circled_letters": _on_word(lambda w: _enclosed(w, 0x24D0)),
    "literal_unicode_escapes": _on_word(_escaped),
    "mixed_unicode_escapes": _on_word(_mixed_escaped),
    "url_percent_encoding": _on_word(_percent_encoded),
    "word_joiner": _on_word(_joiners),
    "zwnj_zwj_alternating": _on_word(_zwnj_zwj),
    "alternating_case_spaced": _on_word(_alternating_spaced),
    "spaced_two_words": _with_next_word(_spaced_pair),
    "shouting": _shouting,
    "prose_code_fence": _prose_fence,
    "alternating_case": _on_word(_alternating_case),
    "camel_case_join": _with_next_word(_camel),
    "dotted_words": _with_next_word(_dotted_words),
    "zero_width": _on_word(_zero_width),
    "soft_hyphen": _on_word(_soft_hyphen),
    "homoglyph": _on_word(_homoglyph),
    "full_width": _on_word(_full_width),
    "bold": _on_word(lambda w: f"**{w}**"),
    "italic": _on_word(lambda w: f"_{w}_"),
    "inline_code": _on_word(lambda w: f"`{w}`"),
    "html": _on_word(lambda w: f"<b>{w}</b>"),
    "terminal_escape": _on_word(lambda w: f"\x1b[1m{w}\x1b[0m"),
    "emoji_inside_word": _on_word(lambda w: w[:2] + "\U0001f642" + w[2:] if len(w) > 3 else w),
    "slashed_letters": _on_word(lambda w: "/".join(w) if len(w) > 3 else w),
    "spaced": _on_word(_spaced),
    "leet": _on_word(_leet),
    "dotted_leet": _on_word(_dotted_leet),
    "stretched": _on_word(lambda w: w + w[-1] * 3),
    "newline": _newline_inside,
    "emoji": _emoji_between,
}

# Cases whose meaning a transform cannot touch: single-line prose without code or
# quotation marks (a transform inside a quotation would be a different text).
PLAIN = [c for c in CASES if "\n" not in c.text and not re.search(r"[`\"'\u2018\u201c>]", c.text)]
BLOCKED = [c for c in PLAIN if c.expect]
BENIGN = [c for c in PLAIN if not c.expect]


def _scopes(text: str) -> frozenset[object]:
    return frozenset(c.scope for c in find_absence_claims(text))


@settings(max_examples=400, deadline=None)
@given(
    case=st.sampled_from(BLOCKED),
    name=st.sampled_from(sorted(TRANSFORMS)),
    index=st.integers(min_value=0, max_value=50),
)
def test_obfuscating_a_blocked_claim_keeps_it_blocked(case: object, name: str, index: int) -> None:
    text = case.text  # type: ignore[attr-defined]
    disguised = TRANSFORMS[name](text, index)
    assert _scopes(disguised) == _scopes(text), (name, disguised)


@settings(max_examples=400, deadline=None)
@given(
    case=st.sampled_from(BENIGN),
    name=st.sampled_from(sorted(TRANSFORMS)),
    index=st.integers(min_value=0, max_value=50),
)
def test_obfuscating_a_benign_text_keeps_it_released(case: object, name: str, index: int) -> None:
    text = case.text  # type: ignore[attr-defined]
    disguised = TRANSFORMS[name](text, index)
    assert _scopes(disguised) == _scopes(text), (name, disguised)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_canonical_forms_are_idempotent(text: str) -> None:
    once = fold_characters(text)
    assert fold_characters(once) == once
    claims = for_claims(text)
    assert for_claims(claims) == claims


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Zürich", "Zürich"),
        ("São Paulo", "São Paulo"),
        ("北京", "北京"),
        ("Москва", "Москва"),  # a whole word in another script is left alone
        ("n\u0435ver", "never"),  # one Cyrillic letter in a Latin word
        ("ｎｅｖｅｒ", "never"),
        ("nev\u00ader", "never"),
        ("\x1b[1mnever\x1b[0m told", "never told"),  # terminal bold
        ("\x1b[38;5;196mnothing\x1b[39m", "nothing"),
        ("\x1b]8;;https://x.example\x1b\\never\x1b]8;;\x1b\\", "never"),  # OSC 8 link
        ("ne\x00ver\x07", "never"),  # other control characters
        ("line\nbreak\ttab", "line\nbreak\ttab"),
    ],
)
def test_fold_characters(text: str, expected: str) -> None:
    assert fold_characters(text) == unicodedata.normalize("NFC", expected)


def test_fenced_code_and_quotes_stay_as_written() -> None:
    fenced = "```\n**never** n e v e r\n```"
    assert for_claims(fenced) == fenced
    quoted = "> you **never** told me\nfine"
    assert for_claims(quoted).startswith("> you **never** told me")


def test_case_games_and_dotted_words_are_undone_into_known_words() -> None:
    assert for_claims("You nEvEr GaVe Me your number") == "You never Gave Me your number"
    assert for_claims("YouNeverToldMe your blood type") == "You Never Told Me your blood type"
    assert for_claims("It w.a.s n.e.v.e.r m.e.n.t.i.o.n.e.d") == "It was never mentioned"
    # Names, products and abbreviations stay as written.
    for kept in ("McDonald", "iPhone", "at 10 a.m. sharp", "e.g. U.S.A.", "DO NOT unplug"):
        assert for_claims(kept) == kept


def test_spacing_and_digits_are_undone_only_into_known_words() -> None:
    assert for_claims("You n e v e r told me") == "You never told me"
    assert for_claims("I found n0thing") == "I found nothing"
    assert for_claims("R2 D2 and k l m n zzz") == "R2 D2 and k l m n zzz"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I \u249f\u24aa\u24a9'\u24af know", "I don't know"),
        ("it has \u24dd\u24d4\u24e5\u24d4\u24e1 come up", "it has never come up"),
        ("I \\u0064\\u006f\\u006e\\u0027\\u0074 know", "I don't know"),
        ("path C:\\\\u00zz stays", "path C:\\\\u00zz stays"),
        ("I \\u0071u\\u0065r\\u0069e\\u0064 it: \\u007ae\\u0072o hits", "I queried it: zero hits"),
        ("a NUL \\x00 in C:\\x00data stays", "a NUL \\x00 in C:\\x00data stays"),
        (
            "I %73e%61r%63h%65d and %6Eo%74h%69n%67 %6Da%74c%68e%64",
            "I searched and nothing matched",
        ),
        ("Growth was 100%25, use %20 for a space", "Growth was 100%25, use %20 for a space"),
        ("a lone %6E stays", "a lone %6E stays"),
        ("YOU HAVE NEVER TOLD ME ABOUT IT!!!", "you have never told me about it!!!"),
        ("The NASA and ESA budgets are fine.", "The NASA and ESA budgets are fine."),
        ("There is n o r e c o r d of it", "There is no record of it"),
        ("You n e v e r s a i d a word", "You never said a word"),
        ("Your b.i.r.t.h.d.a.y i.s.n.'.t here", "Your birthday isn't here"),
        ("a b c d e f", "a b c d e f"),
        ("Dein Vater wird im Juni siebzig, ya que", "Dein Vater wird im Juni siebzig, ya que"),
        ("F r 0 m   w h 4 7   y 0 u   5 h 4 r 3 d", "From what you shared"),
        ("Room 1 2 3 a b c", "Room 1 2 3 a b c"),
        ("You'd _ment_ioned your _sur_gery", "You'd mentioned your surgery"),
        ("call my_var_name or snake_case_id", "call my_var_name or snake_case_id"),
        (
            "You h a v e n ' t   m e n t i o n e d a p a r t n e r",
            "You haven't mentioned a partner",
        ),
        ("You ne\U0001f642ver told me", "You never told me"),  # an emoji inside a word
        ("You ne\tver told me", "You never told me"),
        ("You ne\u2800ver told me", "You never told me"),  # braille blank
        ("No\u2028thing came up", "Nothing came up"),  # line separator inside a word
        ("You ne\u3164ver told me", "You never told me"),  # hangul filler
        ("rock\U0001f3b8roll stays apart", "rock roll stays apart"),
        ("You n/e/v/e/r told me", "You never told me"),
        ("You n\u2022e\u2022v\u2022e\u2022r told me", "You never told me"),
        ("a/b/c and km/h stay", "a/b/c and km/h stay"),
        ("You ne%76er told me", "You never told me"),
        ("It returned n%6F r%65s%75lts", "It returned no results"),  # an escape at the end
        ("Keep x%6F and 100%25", "Keep x%6F and 100%25"),  # no known word
        ("You \U0001f1f3\U0001f1ea\U0001f1fb\U0001f1ea\U0001f1f7 told me", "You never told me"),
        ("Flags \U0001f1e9\U0001f1ea\U0001f1eb\U0001f1f7 stay symbols", "Flags stay symbols"),
        ("You \u13ac\u13d9\u13ac\u13a1 told", "You \u13ac\u13d9\u13ac\u13a1 told"),  # no known word
        ("Москва is big", "Москва is big"),
        ("You nev\u200aer told me", "You never told me"),  # a hair space inside a word
        ("No\u00a0thing came up", "Nothing came up"),
        ("Nombre\u00a0: 12, « le\u00a0chat »", "Nombre : 12, « le chat »"),
    ],
)
def test_more_disguises_are_undone(text: str, expected: str) -> None:
    assert for_claims(text) == expected


def test_a_prose_fence_around_one_sentence_is_prose_and_code_stays_code() -> None:
    prose = "```text\nYou have never told me about your sister.\n```"
    assert for_claims(prose).strip() == "You have never told me about your sister."
    for code in (
        "```python\nprint('You never told me')\n```",
        "```\nNo results found.\n```",
        "```text\nYou never told me. I have no record.\n```",
    ):
        assert for_claims(code) == code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("u nvr told me u had a scooter", "you never told me you had a scooter"),
        ("thank u, u told me ur dog is 3", "thank you, you told me your dog is 3"),
        # Dutch writes the formal "you" as "u".
        ("die heeft u nooit vermeld", "die heeft u nooit vermeld"),
        ("Heeft u dat ooit gezegd?", "Heeft u dat ooit gezegd?"),
        ("Dank u wel", "Dank u wel"),
    ],
)
def test_text_speak_you_is_not_dutch_u(text: str, expected: str) -> None:
    assert for_claims(text) == expected


def test_french_dont_is_not_text_speak() -> None:
    assert for_claims("dans ce dont nous avons parlé") == "dans ce dont nous avons parlé"
    assert for_claims("I dont have that") == "I don't have that"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Non%20mi%20hai%20mai%20detto", "Non mi hai mai detto"),
        ("a single%20space stays", "a single%20space stays"),
        ("Visto che M_a_t_t_e_o gioca", "Visto che Matteo gioca"),
        ("my_var_name stays", "my_var_name stays"),
        ("Nó állérgíés óf yours", "No allergies of yours"),
        ("Él es mi tío, ¿y aí?", "Él es mi tío, ¿y aí?"),
    ],
)
def test_encoded_spaces_underscored_letters_and_sprinkled_accents(text: str, expected: str) -> None:
    assert for_claims(text) == expected


def test_percent_encoded_words_with_encoded_spaces_are_decoded_when_known() -> None:
    assert for_claims("Innsbruck: n%6F%20r%65s%75lts.") == "Innsbruck: no results."
    assert for_claims("100%25 sure, a%20b") == "100%25 sure, a%20b"
    # a topic word the lexicon lacks among known ones
    assert (
        for_claims("for s%65%61t%20pr%65f%65r%65nc%65%20%61nd%20f%6Fund%20n%6Fthing.")
        == "for seat preference and found nothing."
    )


def test_a_line_break_inside_japanese_joins_without_a_space() -> None:
    assert (
        for_claims("結婚記念日は見つ\nかりませんでした。") == "結婚記念日は見つかりませんでした。"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # short leet beside leet words; alone a unit or a paper size stays
        ("Nunc4 m3 d1j1573 tu talla.", "Nunca me dijiste tu talla."),
        ("Y0u n3v3r t0ld m3.", "You never told me."),
        ("Buy A4 paper and 3 m3 of sand.", "Buy A4 paper and 3 m3 of sand."),
        # characters of an unspaced script spaced out one by one
        ("については一　度　も　伺　っ　て　い　ま　せ　ん。", "については一度も伺っていません。"),
        ("山田　太郎さん", "山田 太郎さん"),
        # a word cut into quoted pieces, joined only into a known word
        ('Você "nun" "ca" me falou de "aler" "gias".', "Você nunca me falou de alergias."),
        ("«nun» «ca» me dijiste", "nunca me dijiste"),
        ('She said "rock" "roll" twice.', 'She said "rock" "roll" twice.'),
    ],
)
def test_short_leet_spaced_ideographs_and_quoted_pieces(text: str, expected: str) -> None:
    assert for_claims(text) == expected
    assert for_claims(expected) == for_claims(text)


def test_slashed_letters_of_a_claim_word_join_into_it() -> None:
    assert for_claims("I have no r/e/c/o/l/l/e/c/t/i/o/n of you telling me that.") == (
        "I have no recollection of you telling me that."
    )


@pytest.mark.parametrize(
    "code",
    ["`ORA-01403: no data found`", "`user.id`", "`f(x)`", "`a_b`", "`SELECT * FROM t`"],
)
def test_inline_code_that_only_code_has_stays_code(code: str) -> None:
    assert code in for_claims(f"{code} is what the log shows.")


def test_inline_code_of_words_is_unwrapped() -> None:
    assert for_claims("You `never` told me, and `n3v3r` mentioned it.") == (
        "You never told me, and never mentioned it."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # short look-alike words beside folded ones
        ("Ι dοn't rеmеmbеr уоυ еνеr sауіng sο.", "I don't remember you ever saying so."),
        # Hangul fillers between words are spaces, inside a word nothing
        ("Nuncaㅤmeㅤdijisteㅤnada.", "Nunca me dijiste nada."),
        ("neㅤver", "never"),
        # letter spacing with wider gaps between the words
        ("Your notes: n o   r e s u l t s for Graz.", "Your notes: no results for Graz."),
        # single letters spaced by thin spaces are letter spacing, not word pieces
        (
            "and f\u2009o\u2009u\u2009n\u2009d n\u2009o\u2009t\u2009h\u2009i\u2009n\u2009g",
            "and found nothing",
        ),
        # a negation spelt in look-alikes alone
        ("Νο memory entries mention it.", "No memory entries mention it."),
        # a two-letter word among underscored letters
        ("and f_o_u_n_d n_o r_e_c_o_r_d of it", "and found no record of it"),
    ],
)
def test_short_look_alikes_fillers_and_wide_letter_spacing(text: str, expected: str) -> None:
    assert for_claims(text) == expected
    assert for_claims(expected) == expected


@pytest.mark.parametrize(
    "text",
    ["Ο Γιάννης είπε ότι δεν ήρθε.", "She said Москва is cold in winter.", "Plan A  B  C"],
)
def test_real_greek_cyrillic_and_wide_gaps_between_words_stay(text: str) -> None:
    assert for_claims(text).split() == text.split()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one look-alike that confusables.txt does not list, among ones it does
        (
            "N\u13c6\u13acN\u13a2\u13ac di ciò che mi hai raccontato",
            "NIENTE di ciò che mi hai raccontato",
        ),
        # a two-character negation in leet or letter-spaced before a word
        ("I searched your notes: n0 results.", "I searched your notes: no results."),
        ("N0 matches for Recife.", "No matches for Recife."),
        (
            "I hold n o information about your tax advisor.",
            "I hold no information about your tax advisor.",
        ),
        # a line break inside one word; two words of their own stay two words
        ("The search came up em\npty.", "The search came up empty."),
        ("Non ho nu\nlla in archivio.", "Non ho nulla in archivio."),
        ("I keep a note\nbook of it.", "I keep a note book of it."),
        ("I went to the\nstore", "I went to the store"),
        # a first line of one word that makes a word with the next line's first
        ("Now\nhere in our conversations", "Nowhere in our conversations"),
        ("Na\nda do que você me contou", "Nada do que você me contou"),
        ("Hi\nthere", "Hi there"),
        # unless that word has one letter ("I" + "do" is no Spanish "ido")
        ("I\ndo not have any records of it.", "I do not have any records of it."),
        ("N\never mentioned.", "Never mentioned."),
        # upside-down writing, read backwards; a run of it reversed whole
        ("You've ɹǝʌǝu told me your birthday.", "You've never told me your birthday."),
        ("I found sʇlnsǝɹ ou for that.", "I found no results for that."),
        ("ɐpɐu me dijiste", "nada me dijiste"),
        ("a schwa ǝ, São Paulo", "a schwa ǝ, São Paulo"),
        # a word marked on most letters is its bare word, or keeps one mark of its own;
        # names and words with a mark or two keep theirs
        ("\u01f8\u016bn\u0306c\u0330\u0203 me mencionaste", "Nunca me mencionaste"),
        ("J\u0307a\u0323m\u0308a\u0301\u0330s\u0307 mencionaste", "Jamás mencionaste"),
        ("São Paulo, Zürich, élève, Ñandú", "São Paulo, Zürich, élève, Ñandú"),
    ],
)
def test_look_alikes_short_negations_line_breaks_and_marks(text: str, expected: str) -> None:
    assert for_claims(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Stage T2 N0 M0 means no spread to the lymph nodes.",  # a tumour stage, not leet
        "I read Київ and Москва on the map.",  # real Cyrillic words with unlisted letters
    ],
)
def test_unlisted_letters_and_stage_codes_stay_when_no_single_word_fits(text: str) -> None:
    assert for_claims(text) == text
