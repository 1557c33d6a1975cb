"""Regenerate engram/data/lexicon.txt (see engram/lexicon.py).

Usage: python tools/build_lexicon.py [--check]
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engram" / "data" / "lexicon.txt"
CORPUS = ROOT / "training" / "gate"
_WORD_RX = re.compile(r"[^\W\d_]{2,}")

# Words the claim rules rely on, in the six gate languages, whether or not the corpus
# happens to use them.
BASE = """
never nothing nobody none nowhere no not told tell mentioned mention said say shared share
discussed discuss talked talk record records found find search searched memory notes
recollection recall remember remembered
history anything ever before previously earlier haven't hasn't didn't don't couldn't
cannot can't result results match matches entry entries trace mention mentions
jamais rien aucun aucune personne dit parlé mentionné trouvé trouve recherche mémoire
nunca nada ninguno ninguna dicho hablado mencionado encontrado búsqueda memoria
nie nichts kein keine keinen niemals gesagt erwähnt gesprochen gefunden suche
gedächtnis erinnerung mai niente nulla nessuno nessuna detto parlato menzionato trovato
ricerca memoria nunca nada nenhum nenhuma dito falado mencionado encontrei pesquisa
memória jamais
couldnt didnt dont havent hasnt hadnt cant wont wasnt werent isnt arent wouldnt shouldnt
ive youve weve id youd
"""


def words() -> list[str]:
    found = {w.casefold() for w in BASE.split()}
    for path in sorted(CORPUS.glob("*.jsonl")):
        # "\n" only: str.splitlines() also splits at U+2028 and U+0085 inside a string
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                text = unicodedata.normalize("NFKC", json.loads(line)["text"])
                found.update(w.casefold() for w in _WORD_RX.findall(text))
    return sorted(found)


def main() -> int:
    text = "\n".join(words()) + "\n"
    if "--check" in sys.argv[1:]:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/build_lexicon.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({text.count(chr(10))} words)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
