"""Remembered personal facts presented as known, without a telling verb.

"With your knee injury, skip the lunges", "Ahead of your half marathon in October, taper
for two weeks", "Since you're vegetarian, I swapped the chicken", "Your son Leo starts
school in September, right?": each presupposes a fact about the user that the answer can
only know from memory, so it is a recollection and needs a record like "as you told me".

A clause counts when three things hold together (each alone is common in general advice):

1. **the user is the owner or the subject**: a second-person possessive or pronoun of one
   of the eight gate languages ("your", "ton", "tu", "dein", "tuo", "teu", "je",
   "あなたの"), or, in the languages that drop pronouns, a second-person verb after a
   presupposition trigger ("como trabajas", "visto che fai");
2. **a presupposition frame**: a trigger before it ("given", "with", "ahead of", "since",
   "now that", "vu", "compte tenu de", "dado que", "ya que", "angesichts", "wegen", "da",
   "visto che", "in vista di", "já que", "gezien", "met het oog op"...), or the possessive
   as the subject of a statement ("Your marathon's in October"), or "you have / you are"
   stated of the user;
3. **a specific personal detail**: a word from the personal-fact vocabulary below
   (family, pets, health, life events, plans, home, work arrangements, diets), and, for
   the bare statement frames, also a date, a number or a name.

Four frames count by their structure, each with a detail general advice lacks: a name in
apposition to a possessive role ("Your landlord, Mr. Okafor, ..."); someone named, after a
frame, with an age up to 19 or a school start ("Because Chloé starts kindergarten in
September", "Pour les 10 ans de Zoé": children and pets, not famous people's
anniversaries); the user's workplace as the frame ("Working at Embraer, ...", "Als
Siemens-Mitarbeiterin ..."); an injured body part with a definite article after "with"
("Con el tobillo aún recuperándose del esguince": the article presents the injury as the
one both know; "with a sprained ankle" is advice).

General advice ("your muscles need rest", "with your doctor's approval", "since you
asked") has no personal-fact word, or a generic one; the current message and the user's
pasted artefacts ("your message says", "the contract you just pasted") are excluded as
they are for telling frames.
"""

from __future__ import annotations

import re

from engram.lexicon import is_given_name, is_place_name
from gateway.recollection import negated, searched
from gateway.topics import is_stop_word

__all__ = [
    "about_someone_public",
    "addresses_the_user",
    "describes_a_relative",
    "presupposed_fact",
]

# Personal-fact vocabulary (word starts; each language's own words). A word here names
# something only the user's own history holds: a relative, a pet, a condition, a planned
# event, a chosen arrangement.
_FACTS_EN = (
    r"son|daughter|kids?|children|child|baby|babies|twins|toddler|wife|husband|partner"
    r"|fianc[ée]+|girlfriend|boyfriend|mum|mom|mother|dad|father|parents?|sister|brother"
    r"|siblings?|grand(?:mother|father|ma|pa|parents?|son|daughter|kids?|children)|aunt|uncle"
    r"|cousin|nephew|niece|in-laws?|dog|puppy|cat|kitten|pets?|horse|rabbit|parrot|hamster"
    r"|allerg\w*|intoleran\w*|injur\w*|surgery|operation|diagnos\w*|diabet\w*|asthma"
    r"|migraines?|arthritis|pregnan\w*|condition|knee|ankle|back\s+pain|hip|shoulder"
    r"|tinnitus|insomnia|anxiety|depression|phobia|fear\s+of|vertigo|eczema|coeliac|celiac"
    r"|blood\s+pressure|cholesterol|medication|therapy|physio\w*|wedding|honeymoon"
    r"|anniversary|birthday|marathon|half\s+marathon|race|triathlon|exam|thesis|defen[cs]e"
    r"|interview|move|relocation|trip|holiday|vacation|flight|conference|retirement"
    r"|mortgage|loan|lease|landlord|tenancy|deposit|commute|shifts?|night\s+shifts?"
    r"|new\s+job|job|promotion|business|shop|startup|degree|course|dissertation|budget"
    r"|cap|diet|garden|allotment|flat|apartment|house|renovation|car|bike|boat"
    r"|goal|plan|training|band|orchestra|choir|team|club|visa|pension|divorce|separation"
    r"|school|nursery|kindergarten|university|college|employer|boss|manager|salary|savings"
    r"|emergency\s+fund|rent|debts?|landlady"
)
_FACTS_FR = (
    r"fils|fille|enfants?|b[ée]b[ée]|jumeaux|femme|mari|conjoint|compagn\w+|fianc[ée]+|m[èe]re"
    r"|p[èe]re|parents|s[œo]e?ur|fr[èe]re|grand-\w+|tante|oncle|cousin\w*|neveu|ni[èe]ce"
    r"|chien\w*|chat(?:te|on)?s?|lapin|cheval|allergi\w*|intol[ée]ran\w*|blessure|entorse"
    r"|op[ée]ration|chirurgie|diagnostic|diab[èe]te|asthme|migraines?|arthrose|grossesse"
    r"|genou|cheville|dos|hanche|[ée]paule|acouph[èe]nes|insomnie|anxi[ée]t[ée]|phobie"
    r"|peur\s+(?:de|du|des)|vertige|traitement|kin[ée]\w*|mariage|anniversaire|marathon"
    r"|semi-marathon|course|examen|th[èe]se|soutenance|entretien|d[ée]m[ée]nagement|voyage"
    r"|vacances|vol|conf[ée]rence|retraite|pr[êe]t|emprunt|bail|propri[ée]taire|caution"
    r"|trajet|horaires?|nuits?|poste|travail|boulot|entreprise|boutique|dipl[ôo]me|budget"
    r"|plafond|r[ée]gime|jardin|potager|appartement|maison|travaux|voiture|v[ée]lo|objectif"
    r"|projet|entra[îi]nement|groupe|orchestre|ch[œo]eur|[ée]quipe|club|visa|divorce"
    r"|[ée]cole|cr[èe]che|coll[èe]ge|lyc[ée]e|fac|universit[ée]|[ée]tudes|employeur|patronne?"
    r"|salaire|[ée]pargne|loyer|dettes?"
)
_FACTS_ES = (
    r"hij[oa]s?|beb[ée]|gemel\w+|mujer|esposa|esposo|marido|pareja|novi[oa]|prometid[oa]"
    r"|madre|padre|mam[áa]|pap[áa]|padres|herman[oa]s?|abuel[oa]s?|t[íi][oa]s?|prim[oa]s?"
    r"|sobrin[oa]s?|suegr[oa]s?|perr[oa]s?|gat[oa]s?|mascotas?|caballo|conejo|alergi\w*"
    r"|al[ée]rgic\w*|intoleran\w*|lesi[óo]n|esguince|operaci[óo]n|cirug[íi]a|diagn[óo]stico"
    r"|diabetes|asma|migra[ñn]as?|artrosis|embarazo|rodilla|tobillo|espalda|cadera|hombro"
    r"|ac[úu]fenos|insomnio|ansiedad|fobia|miedo\s+a|v[ée]rtigo|tratamiento|fisio\w*"
    r"|boda|luna\s+de\s+miel|aniversario|cumplea[ñn]os|marat[óo]n|media\s+marat[óo]n|carrera"
    r"|examen|tesis|oposiciones|entrevista|mudanza|traslado|viaje|vacaciones|vuelo|congreso"
    r"|jubilaci[óo]n|hipoteca|pr[ée]stamo|alquiler|casero|fianza|trayecto|turnos?|guardias?"
    r"|trabajo|empleo|empresa|negocio|tienda|t[íi]tulo|carrera|presupuesto|tope|dieta|huerto"
    r"|jard[íi]n|piso|apartamento|casa|reforma|coche|moto|bici\w*|meta|objetivo|proyecto"
    r"|entrenamiento|grupo|orquesta|coro|equipo|club|visado|divorcio|colegio|escuela"
    r"|guarder[íi]a|instituto|universidad|casera|jef[ea]|sueldo|salario|ahorros|deudas?"
    r"|celiaqu[íi]a"
)
_FACTS_DE = (
    r"sohn|s[öo]hne|tochter|t[öo]chter|kinder?|kind|baby|zwillinge|frau|mann|ehemann|ehefrau"
    r"|partner|partnerin|freundin|freund|verlobte|verlobter|mutter|vater|mama|papa|eltern|schwester|bruder"
    r"|geschwister|gro(?:ß|ss)(?:mutter|vater|eltern)|oma|opa|tante|onkel|cousin|cousine|neffe|nichte|schwieger(?:mutter|vater|eltern)"
    r"|hund|hunde|katze|katzen|kater|haustier|haustiere|pferd|kaninchen|allergie|unvertr[äa]glichkeit"
    r"|verletzung|zerrung|operation|diagnose|diabetes|asthma|migr[äa]ne"
    r"|arthrose|schwangerschaft|knie|kn[öo]chel|r[üu]cken|h[üu]fte|schulter|tinnitus"
    r"|schlafst[öo]rungen|angst|phobie|schwindel|therapie|physiotherapie|hochzeit"
    r"|flitterwochen|jahrestag|geburtstag|marathon|halbmarathon|pr[üu]fung"
    r"|examen|staatsexamen|abschlussarbeit|doktorarbeit|bewerbungsgespr[äa]ch"
    r"|vorstellungsgespr[äa]ch|umzug|reise"
    r"|urlaub|flug|konferenz|messe|ruhestand|rente|hypothek|kredit|zinsbindung|mietvertrag"
    r"|vermieter|vermieterin|kaution|pendelstrecke|arbeitsweg|schicht|schichtdienst|nachtschicht|job|stelle"
    r"|firma|gesch[äa]ft|laden|onlineshop|studium|budget|obergrenze|di[äa]t|garten"
    r"|schrebergarten|wohnung|haus|renovierung|auto|fahrrad|ziel|training"
    r"|orchester|chor|verein|mannschaft|visum|scheidung|schule|kita|kindergarten|gymnasium"
    r"|uni|universit[äa]t|arbeitgeber\w*|chef|chefin|gehalt|ersparnisse|miete|schulden"
    r"|notgroschen"
)
_FACTS_IT = (
    r"figli[oa]?|figlie|bambin[oi]|neonat[oa]|gemelli|moglie|marito|compagn[oa]|fidanzat[oa]"
    r"|madre|padre|mamma|pap[àa]|genitori|sorell[ae]|fratell[oi]|nonn[oaie]|zi[oaie]|cugin[oaie]"
    r"|nipot[ei]|suocer[oa]|cane|cagnolin[oa]|gatt[oa]|gattin[oa]|animali|cavallo|coniglio"
    r"|allergi\w*|intolleran\w*|infortunio|distorsione|operazione|intervento|diagnosi|diabete"
    r"|asma|emicrani\w*|artrosi|gravidanza|ginocchio|caviglia|schiena|anca|spalla|acufeni"
    r"|insonnia|ansia|fobia|paura\s+(?:di|del|della|dei)|vertigini|terapia|fisio\w*"
    r"|matrimonio|luna\s+di\s+miele|anniversario|compleanno|maratona|mezza\s+maratona|gara"
    r"|esame|tesi|colloquio|trasloco|trasferimento|viaggio|vacanz\w+|volo|convegno|pensione"
    r"|mutuo|prestito|affitto|padrone\s+di\s+casa|cauzione|tragitto|pendolare|turn[oi]"
    r"|lavoro|impiego|azienda|negozio|laurea|budget|tetto|dieta|orto|giardino|appartamento"
    r"|casa|ristrutturazione|macchina|auto|bici\w*|obiettivo|progetto|allenamento|gruppo"
    r"|orchestra|coro|squadra|visto|divorzio|scuola|asilo|nido|liceo|universit[àa]"
    r"|datore\s+di\s+lavoro|stipendio|risparmi|debiti?|padrona\s+di\s+casa"
)
_FACTS_PT = (
    r"filh[oa]s?|beb[êe]|g[êe]meos|mulher|esposa|esposo|marido|companheir[oa]|namorad[oa]"
    r"|noiv[oa]|m[ãa]e|pai|pais|irm[ãa]o?s?|av[óô]s?|ti[oa]s?|prim[oa]s?|sobrinh[oa]s?"
    r"|sogr[oa]s?|c[ãa]o|c[ãa]es|cachorr[oa]s?|gat[oa]s?|bichos?\s+de\s+estima[çc][ãa]o"
    r"|cavalo|coelho|alergi\w*|al[ée]rgic\w*|intoler[âa]ncia|les[ãa]o|entorse|cirurgia"
    r"|opera[çc][ãa]o|diagn[óo]stico|diabetes|asma|enxaquecas?|artrose|gravidez|joelho"
    r"|tornozelo|costas|quadril|anca|ombro|zumbido|ins[ôo]nia|ansiedade|fobia|medo\s+de"
    r"|vertigem|tratamento|fisio\w*|casamento|lua\s+de\s+mel|anivers[áa]rio|maratona"
    r"|meia\s+maratona|corrida|exame|tese|defesa|mestrado|doutorado|tcc|prova|entrevista"
    r"|mudan[çc]a|viagem|f[ée]rias|voo"
    r"|congresso|aposentadoria|reforma|hipoteca|financiamento|empr[ée]stimo|cr[ée]dito"
    r"|aluguel|arrendamento|senhorio|cau[çc][ãa]o|trajeto|plant[ãa]o|plant[õo]es|turnos?"
    r"|trabalho|emprego|empresa|neg[óo]cio|loja|curso|or[çc]amento|teto|dieta|horta|jardim"
    r"|apartamento|casa|obra|carro|moto|bicicleta|meta|objetivo|projeto|treino|banda"
    r"|orquestra|coro|equipe|equipa|visto|div[óo]rcio|escola|creche|faculdade|universidade"
    r"|empregador|patr[ãa]o|chefe|sal[áa]rio|poupan[çc]as?|d[íi]vidas?|senhoria"
)
_FACTS_NL = (
    r"zoon|dochter|kind(?:eren)?|baby|tweeling|vrouw|man|partner|vriend(?:in)?|verloofde"
    r"|moeder|vader|ouders|zus|broer|oma|opa|grootouders|tante|oom|neef|nicht|schoon(?:moeder|vader|ouders)"
    r"|hond|honden|kat|katten|poes|huisdier|huisdieren|paard|konijn|allergie|allergie[ëe]n"
    r"|intolerantie|blessure|operatie|diagnose|diabetes|astma|migraine|artrose"
    r"|zwangerschap|knie|enkel|rug|heup|schouder|tinnitus|slapeloosheid|angst"
    r"|fobie|therapie|fysiotherapie|bruiloft|huwelijk|verjaardag|jubileum|marathon"
    r"|examen|scriptie|sollicitatiegesprek|verhuizing|reis|vakantie|vlucht"
    r"|congres|pensioen|hypotheek|lening|huur|huurcontract|verhuurder|borg|woon-werkverkeer|reistijd"
    r"|diensten|nachtdienst|nachtdiensten|baan|bedrijf|winkel|studie|budget|dieet|tuin"
    r"|volkstuin|appartement|huis|verbouwing|auto|fiets|doel|training|orkest"
    r"|koor|team|club|visum|scheiding|school|opvang|kinderopvang|universiteit|woning"
    r"|coeliakie|glutenintolerantie|huurbaas|werkgever|baas|salaris|spaargeld|schulden"
)
_FACTS_JA = (
    r"息子|娘|お子さん|子ども|子供|赤ちゃん|奥さん|奥様|旦那さん|ご主人|パートナー|婚約者|お母さん|お母様"
    r"|お父さん|お父様|ご両親|お姉さん|お兄さん|妹さん|弟さん|おばあ|おじい|犬|猫|ペット|アレルギー"
    r"|不耐|怪我|ケガ|手術|診断|糖尿病|喘息|片頭痛|妊娠|膝|足首|腰|肩|耳鳴り|不眠|恐怖症|治療"
    r"|結婚式|記念日|誕生日|マラソン|試験|論文|面接|引っ越し|引越し|旅行|休暇|フライト|便|学会"
    r"|定年|住宅ローン|ローン|家賃|大家|敷金|通勤|夜勤|シフト|仕事|職場|会社|お店|予算|食事制限"
    r"|ベジタリアン|ヴィーガン|菜食|庭|家庭菜園|マンション|車|自転車|目標|計画|練習|小学校|学校"
    r"|苦手|お好き|おあり|お持ち|お住まい|入学|お仕事|歳|お勤め|勤務|引っ越|発表会|卒業式|入学式"
    r"|運動会|演奏会"
)
_FACTS = {
    "en": _FACTS_EN,
    "fr": _FACTS_FR,
    "es": _FACTS_ES,
    "de": _FACTS_DE,
    "it": _FACTS_IT,
    "pt": _FACTS_PT,
    "nl": _FACTS_NL,
}
# German and Dutch compound their nouns ("Glutenunverträglichkeit", "knieoperatie"): these
# words count at the end of a compound too.
_COMPOUND_HEADS = (
    r"allergie|unvertr[äa]glichkeit|operation|-op|verletzung|bandriss|meniskusriss|marathon"
    r"|bestzeit|bandscheibenvorfall|kreuzband\w*"
    r"|pr[üu]fung|umzug|hochzeit|angst|schmerzen|therapie|operatie|blessure|verhuizing"
    r"|bruiloft|pijn|intolerantie|coeliakie"
)
# In every language: a personal best with its figure, and injuries of the back and knee
# by their medical names.
_FACTS_ANY = (
    r"record\s+(?:of|de|di|von|van)\s+\d+|personal\s+best|meilleur\s+temps|marca\s+personal"
    r"|recorde\s+pessoal|persoonlijk\s+record|hernia|herniated\s+disc|slipped\s+disc|h[ée]rnia"
    r"|hernie|ernia|crociato|legamento|ligamento|ligament|menisc\w+|acl"
)
_FACT_RX = re.compile(
    r"\b(?:"
    + "|".join((*_FACTS.values(), _FACTS_ANY))
    + r")\b|\b\w+(?:"
    + _COMPOUND_HEADS
    + r")\b|(?:"
    + _FACTS_JA
    + ")",
    re.IGNORECASE,
)
# Personal states a "since you are / because you ..." frame presents as known.
_STATE_RX = re.compile(
    r"\b(?:vegetarian\w*|vegan\w*|v[ée]g[ée]tari\w+|v[ée]g[ée]talien\w*|vegetarier\w*"
    r"|veganer\w*|vegetariano?a?s?|veganos?a?s?|vegetari[ëe]r|veganist|allergic|allerg\w*"
    r"|intolerant\w*|intol[ée]rant\w*|pregnant|enceinte|embarazada|schwanger|incinta"
    r"|gr[áa]vida|zwanger|diabetic|diab[ée]tique|diab[ée]tico|diabetiker\w*|coeliac|celiac"
    r"|c[œo]liaque|cel[íi]ac[oa]|z[öo]liakie|retired|retrait[ée]e?|jubilad[oa]|pensionier\w*"
    r"|in\s+pensione|aposentad[oa]|gepensioneerd|beginner|d[ée]butant\w*|principiante"
    r"|anf[äa]nger\w*|iniciante|work(?:s|ing)?\s+(?:nights?|night\s+shifts?|shifts?|from\s+home"
    r"|as)|nights?\s+shifts?|freelanc\w*|self-employed|ind[ée]pendant\w*|aut[óo]nom[oa]"
    r"|freiberuflich|selbstst[äa]ndig|hate|hates|love|loves|can't\s+stand|d[ée]testes?"
    r"|d[ée]testez|odias?|odi|detestas?|hasst|hassen|haat|moved|decided|chose|opted"
    r"|d[ée]cid[ée]|opt[ée]|choisi|decidiste|optaste|elegiste|entschieden|scelto|optaram"
    r"|escolheram|optaste|gekozen|besloten"
    # aims ("you're working toward B1", "tu vises le B1", "du peilst ... an")
    r"|working\s+towards?|aiming\s+(?:for|at)|training\s+for|vises|visez|apuntas|peilst"
    r"|punti\s+a\w*|miras\s+a|hypertensi\w+|hipertens\w+|iperte[sn]\w+|hypertoni\w+"
    # where the user lives ("now that you live in Porto", "sinds je in Utrecht woont")
    r"|(?:live|living)\s+in\s+(?-i:[A-ZÀ-ÖØ-Þ])\w+|(?:moras?|vives?|vivi|abiti)\s+(?:em|en|no|na|a)"
    r"\s+(?-i:[A-ZÀ-ÖØ-Þ])\w+|habite[sz]?\s+(?:à|a|en|au)\s+(?-i:[A-ZÀ-ÖØ-Þ])\w+"
    r"|wohnst\s+in\s+(?-i:[A-ZÀ-ÖØ-Þ])\w+|in\s+(?-i:[A-ZÀ-ÖØ-Þ])\w+\s+(?:woont|wonen)"
    # what the user plays ("since you play the cello", "vu que vous jouez du violon")
    r"|play(?:s|ing)?\s+the\s+\w+|jou(?:es|ez)\s+(?:du|de\s+la|de\s+l')\s*\w+"
    r"|tocas\s+(?:el|la|o|a)\s+\w+|toca\s+(?:o|a)?\s*(?:saxofone|piano|guitarra|viol[ãa]o"
    r"|violino|bateria|flauta|baixo|violoncelo)|spielst\s+\w+|suoni\s+(?:il|la|lo|l')\s*\w+)\b",
    re.IGNORECASE,
)
# What the user cannot eat or tolerate: a negated fact that is still a fact ("since
# lactose doesn't agree with you", "weil du Laktose nicht verträgst").
_INTOLERANCE_RX = re.compile(
    r"\b(?:(?:can't|cannot|don't|doesn't|do\s+not|does\s+not)\s+(?:eat|drink|have|tolerate"
    r"|stand|agree\s+with)|ne\s+(?:te|vous)\s+r[ée]ussit\s+pas|ne\s+(?:manges|mangez"
    r"|supportes|supportez|bois|buvez)\s+pas|te\s+sienta\s+mal|le\s+sienta\s+mal|no\s+(?:comes"
    r"|puedes\s+comer|toleras|soportas|bebes)|nicht\s+(?:isst|essen|vertr[äa]gst|vertragen"
    r"|trinkst|magst)|non\s+(?:mangi|puoi\s+mangiare|sopporti|tolleri|digerisci|bevi"
    r"|ti\s+fa\s+bene)|n[ãa]o\s+(?:come|comes|pode\s+comer|podes\s+comer|tolera|toleras"
    r"|suporta|suportas|bebe|bebes|lhe\s+cai\s+bem|te\s+cai\s+bem)|niet\s+(?:eet|eten"
    r"|verdraagt|goed\s+bekomt|drinkt))\b",
    re.IGNORECASE,
)
# "a dog named Heidi", "une jument qui s'appelle Praline": a named pet or person.
_NAMED_RX = re.compile(
    r"\b(?:named|called|s'appelle|se\s+llama|hei(?:ß|ss)t|namens|si\s+chiama|se\s+chama"
    r"|chamad[oa]|heet|genaamd)\s+[A-ZÀ-ÖØ-Þ]",
    re.IGNORECASE,
)
# A date, a number or a name: the specific detail of a bare statement about the user.
_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november"
    r"|december|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre"
    r"|novembre|d[ée]cembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|se?tiembre"
    r"|octubre|noviembre|diciembre|januar|februar|m[äa]rz|juni|juli|oktober|dezember"
    r"|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|janeiro"
    r"|fevereiro|mar[çc]o|maio|junho|julho|setembro|outubro|novembro|dezembro|januari"
    r"|februari|maart|mei|augustus|oktober"
)
_DAYS = (
    r"mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|lundi|mardi"
    r"|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|mi[ée]rcoles|jueves|viernes"
    r"|s[áa]bados?|domingos?|montags?|dienstags?|mittwochs?|donnerstags?|freitags?"
    r"|samstags?|sonntags?|luned[ìi]|marted[ìi]|mercoled[ìi]|gioved[ìi]|venerd[ìi]|sabato"
    r"|domenica|segunda|ter[çc]a|quarta|quinta|sexta|maandag|dinsdag|woensdag|donderdag"
    r"|vrijdag|zaterdag|zondag|spring|summer|autumn|winter|printemps|[ée]t[ée]|automne|hiver"
    r"|primavera|verano|oto[ñn]o|invierno|fr[üu]hling|fr[üu]hjahr|sommer|herbst|estate"
    r"|autunno|inverno|ver[ãa]o|outono|voorjaar|zomer|najaar"
)
_DATE_RX = re.compile(rf"\d|\b(?:{_MONTHS}|{_DAYS})\b|[月日年週春夏秋冬]", re.IGNORECASE)
# A capitalised word not at the start of the clause, nor a pronoun or title: a name.
_NAME_RX = re.compile(
    r"(?<=[\w,;:]\s)(?!(?:I|Sie|Ihr\w*|Du|Dein\w*|Euer|Eure\w*|U|Uw|Mr|Mrs|Ms|Dr)\b)"
    r"[A-ZÀ-ÖØ-Þ][\w-]+"
)

# Second-person owners ("your", "ton", "dein", "Ihr" capitalised only) and subjects.
_POSS = (
    r"(?:your|yours|ton|ta|tes|votre|vos|(?:la|le)\s+(?:tienne|tien|v[ôo]tre)|tus?|tuy[oa]s?"
    r"|vuestr[oa]s?|dein\w*|euer|eur\w+"
    r"|(?-i:Ihr\w*)|tuo|tua|tuoi|tue|vostr[oaie]|teu|teus|tuas|vosso|vossa|vossos|vossas"
    r"|je|jouw|uw|jullie|die\s+van\s+(?:u|jou|jullie))"
)
# "su/sua/seu/sus" are also "his/her/their": counted only where no third person was
# named before them in the sentence (checked in code).
_POSS_AMBIGUOUS = r"(?:su|sus|sua|suas|seu|seus|suo|sua|sue|suoi)"
_SUBJ = (
    r"(?:you(?:'re|'ve|'d)?|tu|t'|vous|t[úu]|usted(?:es)?|vosotr[oa]s|du|(?-i:Sie)|ihr"
    r"|voi|lei|voc[êe]s?|o\s+senhor|a\s+senhora|jij|je|u|jullie)"
)

# Presupposition triggers before the owner or subject, by language. Causal and
# concessive ones count anywhere in the clause's lead-in; the prepositions that also
# begin ordinary advice ("talk to your sister with ...") only at the start of a sentence.
_TRIGGERS = (
    # English
    r"given(?:\s+that)?|what\s+with|ahead\s+of|in\s+the\s+run-up\s+to|considering"
    r"|because\s+of|due\s+to|going\s+by|in\s+light\s+of|in\s+view\s+of|now\s+that|since"
    r"|because|seeing\s+(?:as|that)|remembering\s+that|knowing\s+(?:that|how\s+(?:much"
    r"|little|badly))|now\s+that"
    # French
    r"|vu(?=\s+(?:que|qu'|l[ae]\s|l'|les|votre|vos|ton|ta|tes))|étant\s+donné(?:\s+que)?|en\s+vue\s+d[eu]|compte\s+tenu\s+d[eu]"
    r"|puisque|sachant\s+(?:que|combien|[àa]\s+quel\s+point)|maintenant\s+que|à\s+cause\s+d[eu]|en\s+raison\s+d[eu]"
    r"|suite\s+à|parce\s+que|vu\s+l[ae']|depuis\s+que"
    # Spanish
    r"|dad[oa]s?(?=\s+(?:que|el|la|los|las|lo|tu|tus|su|sus)\b)|en\s+vista\s+de|ya\s+que|puesto\s+que|sabiendo\s+que"
    r"|ahora\s+que|sabiendo\s+lo\s+(?:poco|mucho)|debido\s+a|teniendo\s+en\s+cuenta|porque|acord[áa]ndome\s+de\s+que"
    # German
    r"|da|weil|wegen|angesichts|nachdem|jetzt,?\s+wo|eingedenk|in\s+anbetracht"
    r"|aufgrund|im\s+hinblick\s+auf"
    # Italian
    r"|(?:visto|dat[oaie])(?=\s+(?:che|il|la|lo|le|i|gli|l'|tuo|tua|tuoi|tue|suo|sua)\b|\s+l')|in\s+vista\s+d\w*|siccome|poich[ée]|dal\s+momento"
    r"\s+che|ora\s+che|considerando|per\s+via\s+d\w*|a\s+causa\s+d\w*|sapendo\s+(?:che"
    r"|quanto)"
    r"|ricordando\s+che|perch[ée]"
    # Portuguese
    r"|j[áa]\s+que|visto\s+que|dad[oa]s?(?=\s+(?:que|o|a|os|as|teu|tua|seu|sua)\b)|em\s+vista\s+d\w*|tendo\s+em\s+conta|agora\s+que|devido\s+[àa]o?"
    r"|por\s+causa\s+d\w*|sabendo\s+(?:que|o\s+quanto)|lembrando\s+que|porque"
    # Dutch
    r"|gezien|omdat|aangezien|vanwege|met\s+het\s+oog\s+op|wetend\s+dat|sinds|nu\s+(?=je|jij|u)"
)
_INITIAL_TRIGGERS = (
    r"with|as|before|around|for|avec|comme|avant|pour|con|ante|como|antes\s+de|para|mit|bei"
    r"|vor|f[üu]r|prima\s+d\w*|per|com|antes\s+d\w*|met|voor|nu"
)
_ARTICLE = (
    r"(?:(?:the|that|this|le|la|les|l'|el|los|las|lo|der|die|das|den|dem|des|il|lo|gli|o|a"
    r"|os|as|de|het)\s+)?"
)
_OWNER = rf"(?:[\w'-]+\s+){{0,3}}?(?:{_POSS}|{_SUBJ})(?=[\s'])"
# Trigger, then (within a few words) the owner or subject.
_TRIGGERED_RX = re.compile(rf"(?:^|[\s,(])(?:{_TRIGGERS})\s+{_OWNER}", re.IGNORECASE)
_INITIAL_RX = re.compile(rf"^\s*(?:{_INITIAL_TRIGGERS})\s+{_OWNER}", re.IGNORECASE)
# "With that hour-long commute", "Con ese trayecto": a demonstrative presents the thing
# as already known between the two.
_DEMONSTRATIVE_RX = re.compile(
    rf"^\s*(?:{_INITIAL_TRIGGERS})\s+(?:that|those|ce|cette|ces|ese|esa|esos|esas|diese[mnrs]?"
    r"|quel|quella|quello|quei|quelle|esse|essa|esses|essas|dat|die|deze)\s",
    re.IGNORECASE,
)
_TRIGGERED_AMBIGUOUS_RX = re.compile(
    rf"(?:^|[\s,(])(?:{_TRIGGERS})\s+(?:[\w'-]+\s+){{0,3}}?{_POSS_AMBIGUOUS}\s",
    re.IGNORECASE,
)
_INITIAL_AMBIGUOUS_RX = re.compile(
    rf"^\s*(?:{_INITIAL_TRIGGERS})\s+(?:[\w'-]+\s+){{0,3}}?{_POSS_AMBIGUOUS}\s",
    re.IGNORECASE,
)
# "the 18,000 cap you set", "le prêt que vous avez choisi", "la hipoteca que cogisteis":
# a noun the user chose, after a trigger.
_CHOSEN_RX = re.compile(
    r"(?:^|\s)(?:with|given|con|avec|mit|bei|com)\s+(?:the|that|le|la|l'|el|la|ese|esa|der"
    r"|die|den|dem|il|lo|la|o|a|esse|essa)\s+(?:[^,;]|(?<=\d),(?=\d)){2,60}?\s+(?:you|que\s+(?:vous|tu|usted)?"
    r"|die\s+(?:ihr|du|Sie)|den\s+(?:ihr|du|Sie)|für\s+die\s+(?:ihr|du|Sie)|che\s+(?:avete|hai)"
    r"|que\s+(?:voc[êe]s?)?)\s*\w+",
    re.IGNORECASE,
)
# Pronoun-dropping languages: a second-person verb right after a causal trigger
# ("como trabajas de noche", "visto che fai i turni", "já que optaram").
_PRO_DROP_RX = re.compile(
    # Spanish tú forms (present, preterite), Italian tu forms, Portuguese tu and vocês forms
    r"(?:^|\s)(?:(?:como|ya\s+que|puesto\s+que|dado\s+que|ahora\s+que)\s+(?:ya\s+)?"
    r"(?:os\s+|te\s+)?(?:(?:has|habéis)\s+[a-z]+(?:ado|ido)|[a-záéíóú]{2,}(?:as|es|aste|iste"
    r"|asteis|isteis|áis|éis|ís))"
    r"|(?:visto\s+che|dato\s+che|siccome|poich[ée]|ora\s+che|adesso\s+che)\s+(?:gi[àa]\s+)?(?:vi\s+|ti\s+)?"
    r"[a-zàèìòù]{2,}(?:i|ete|ate|ite)"
    r"|(?:j[áa]\s+que|visto\s+que|como|agora\s+que)\s+(?:j[áa]\s+)?[a-zãõâêôáéíóúç]{2,}"
    r"(?:as|es|aste|este|iste|aram|eram|iram))\b",
    re.IGNORECASE,
)
# The possessive as the subject of a statement: "Your marathon's in October", "Ton
# marathon est en octobre", "Dein Sohn heißt Jonas", "Je marathon is in oktober".
_OWNER_SUBJECT_RX = re.compile(rf"^(?:{_ARTICLE}){_POSS}\s", re.IGNORECASE)
_OWNER_SUBJECT_AMBIGUOUS_RX = re.compile(rf"^(?:{_ARTICLE}){_POSS_AMBIGUOUS}\s", re.IGNORECASE)
# "You have a dog named Heidi", "Tu es végétarienne depuis dix ans", "Du bist Vegetarier".
_YOU_ARE_RX = re.compile(
    r"^(?:and\s+)?(?:of\s+course\s+)?(?:you(?:'re|'ve\s+got|\s+have|\s+are|\s+work|\s+live"
    r"|\s+own|\s+run|\s+play|\s+train|\s+drive)|tu\s+(?:es|as|travailles|habites|vis|joues)"
    r"|vous\s+(?:êtes|avez|travaillez|habitez|vivez|jouez)|(?:t[úu]\s+)?(?:eres|tienes|trabajas"
    r"|vives|juegas)|usted\s+(?:es|tiene|trabaja|vive)|du\s+(?:bist|hast|arbeitest|wohnst"
    r"|lebst|spielst|l[äa]ufst|pendelst)|(?-i:Sie)\s+(?:sind|haben|arbeiten|wohnen|leben)"
    r"|ihr\s+(?:seid|habt|wohnt|lebt)|(?:tu\s+)?(?:sei|hai|lavori|abiti|vivi|giochi)"
    r"|voi\s+(?:siete|avete)|(?:avete)|voc[êe]s?\s+(?:é|tem|têm|trabalha|mora|vive|joga)"
    r"|tu\s+(?:és|tens|trabalhas|moras|vives)|(?:jij|je)\s+(?:bent|hebt|werkt|woont)"
    r"|u\s+(?:bent|hebt|heeft|werkt|woont))\s",
    re.IGNORECASE,
)
# The current message and the user's artefacts: what the user gave in this turn.
_CURRENT_RX = re.compile(
    r"\b(?:just|right\s+now|here|above|below|message|mail|e-?mail|letter|screenshot|photo|picture"
    r"|file|document|attachment|attached|pasted|forwarded|uploaded|sent|shared|says|said"
    r"|according|question|request|asked|asking|permission|consent|approval|message|mensaje"
    r"|correo|courriel|lettre|capture|fichier|pi[èe]ce\s+jointe|coll[ée]|transf[ée]r[ée]"
    r"|envoy[ée]|joint|Nachricht|Mail|Brief|Screenshot|Foto|Datei|Anhang|angeh[äa]ngt"
    r"|eingef[üu]gt|weitergeleitet|geschickt|hochgeladen|messaggio|lettera|allegat\w*"
    r"|incollat\w*|inoltrat\w*|inviat\w*|mensagem|carta|anexo|anexad\w*|colad\w*"
    r"|encaminhad\w*|enviad\w*|bericht|brief|bijlage|geplakt|doorgestuurd|gestuurd|selon"
    r"|seg[úu]n|laut|secondo|segundo|volgens|venir\s+de|vient(?!\s+d'avoir)|viens|acabas?"
    r"|gerade|eben|appena|agora(?!\s+que)|zojuist|hypothetically|imagine|suppose|say"
    # what the user writes or asks in this turn, what a third party says
    r"|writing|write|indiques|indiquez|[ée]cris|[ée]crivez|escribes|escreves|chiedi|pides"
    r"|perguntas|fragst|schreibst|sagst|zegt|says|meinte|sagt|behauptet|dice|dit|diz"
    r"|scrivi|scrivete|racconti|dici|escribe|escreve|schrijft|schrijf"
    r"|scritto|escribi[óo]|[ée]crit|wrote|thinks|pense|piensa|pensa|denkt|vindt"
    r"|sagte|meint|frage\w*|domand\w*|pregunt\w*"
    r"|pergunt\w*|demand\w*|dices|suggerit\w*|sugg[ée]r[ée]|sugerido|acab\w*|angenommen"
    r"|supposons|supongamos|supponiamo|suponhamos|stel\s+dat"
    r"|now\s+that\s+you(?:'ve|\s+have)\s+(?:told|said|mentioned|shared))\b",
    re.IGNORECASE,
)
# Advice, offers and the future before the fact: nothing is presented as known ("you
# should talk to your sister", "when you've spoken to your brother").
_MODAL_RX = re.compile(
    r"\b(?:should|could|would|might|can|will|solltest|sollten|k[öo]nntest|kannst|kann"
    r"|dovresti|potresti|posso|puoi|deber[íi]as|podr[íi]as|puedo|puedes|devrais|pourrais"
    r"|peux|peut|deveria|poderia|pode|podes|zou|zouden|kunt|kan|when|whenever|cuando"
    r"|quando|quand|wanneer|sobald|hayas|avrai|tiver|tiveres|zou|zouden|zoudt)\b",
    re.IGNORECASE,
)
# Generic second-person advice nouns: "your body", "your muscles", "your doctor".
_GENERIC_RX = re.compile(
    rf"^(?:{_ARTICLE}){_POSS}\s+(?:body|muscles?|skin|heart|brain|doctor|GP|bank|provider"
    r"|insurer|insurance|browser|computer|phone|account|password|settings|options|choice"
    r"|choices|question|request|needs|taste|preference|case|situation|k[öo]rper|arzt"
    r"|[äa]rztin|corps|m[ée]decin|cuerpo|m[ée]dico|corpo|lichaam|arts|huisarts)\b",
    re.IGNORECASE,
)
_THIRD_PERSON_BEFORE_RX = re.compile(
    r"\b(?:el|la|il|o|a|os|as|los|las|le|lo)\s+[a-záéíóúàèìòùâêôãõç]+\s*$|\b[A-Z][a-z]+\s*$"
)
_JAPANESE_RX = re.compile(
    r"とのことなので|とのことでした(?:ので|ね|よね)|お話を踏まえると|と伺って"
)
# Japanese drops the pronoun: an honorific state of the user given as a reason ("夜勤を
# されているので"), a fact asked back ("...でしたよね"), or a fact ahead of which advice
# is given ("引っ越しに向けて").
_JAPANESE_FRAME_RX = re.compile(
    r"(?:されている|されてる|なさっている|いらっしゃる|お持ちの?)(?:ので|から)"
    r"|(?:され|なさっ)た(?:ことですし|ので|から)"
    r"|(?:でした|です|ました|ましたっけ)よね|に向けて|を控えて|に備えて|に合わせて"
    r"|(?:ちゃん|くん|君)(?:の|が|は)[^。]{0,20}?(?:発表会|卒業式|入学式|運動会|演奏会|誕生日|学校"
    r"|幼稚園|保育園)"
    rf"|(?:{_FACTS_JA})(?:な|だ|です|中な)?(?:ので|から)"
)


# "a small bakery like yours", "comme la tienne", "come la tua", "als die van u"
_LIKE_YOURS_RX = re.compile(
    r"\b(?:like\s+yours|comme\s+(?:la|le)\s+(?:tienne|tien|v[ôo]tre)|como\s+(?:la|el)"
    r"\s+(?:tuy[oa]|suy[oa])|come\s+(?:la|il)\s+(?:tu[oa]|su[oa])|wie\s+(?:deine[rs]?|Ihre[rs]?)"
    r"|como\s+(?:a|o)\s+(?:tua|teu|sua|seu)|als\s+die\s+van\s+(?:u|jou))\b",
    re.IGNORECASE,
)
# "Being lactose intolerant, you ...", "En tant que végétarienne, tu ...", "Als
# Linkshänder kommst du ...": a state of the user in apposition to the second person.
_APPOSITION_RX = re.compile(
    r"^(?:being|as\s+an?|en\s+tant\s+qu[e']|[ée]tant|al\s+ser|siendo|como|als|essendo|da"
    r"|sendo|como)\s",
    re.IGNORECASE,
)
_HANDED_RX = re.compile(
    r"\b(?:left-handed|gaucher\w*|zurd[oa]s?|linksh[äa]nder\w*|mancin[oa]|canhot[oa]"
    r"|linkshandig)\b",
    re.IGNORECASE,
)


# A name in apposition right after the clause ("Your landlord, Mr. Okafor, ...", "Tu
# casera, doña Pilar, ...", "O seu senhorio, o Sr. Gonçalves"): the detail that makes a
# possessive role the user's own, not general advice about landlords.
_APPOSED_NAME_RX = re.compile(
    r"^\s*[,(]\s*(?:(?:the|il|la|o|a|el|de)\s+)?(?:(?:mr|mrs|ms|dr|m|mme|mlle|herr|frau|don|doña"
    r"|signor[ae]?|signore|sig|sr|sra|dona|meneer|mevrouw|dhr|mevr|se[ñn]or[a]?|senhor[a]?"
    r"|monsieur|madame)\.?\s+)?(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+",
    re.IGNORECASE,
)
# Someone of the user's life by name, with an age or a school start only the user's
# history holds ("Because Chloé starts kindergarten in September", "Pour les 10 ans de
# Zoé", "Mit Bello, der bald 12 wird"). Ages up to 19: children and pets, not the
# anniversaries of famous people.
_AGE = r"(?:1?\d)"
_AGE_RX = re.compile(
    rf"\b(?:turn(?:s|ing)?\s+{_AGE}\b|{_AGE}(?:st|nd|rd|th)?\s+birthday|{_AGE}\.\s+geburtstag"
    rf"|{_AGE}\s+(?:ans|años|anni|anos|jaar|jahre)\b|cumpl\w*\s+{_AGE}\b|compi\w*\s+{_AGE}\b"
    rf"|fa\s+{_AGE}\s+anni|faz(?:er)?\s+{_AGE}\b|{_AGE}\s+wird\b|wird\s+(?:bald\s+)?{_AGE}\b"
    rf"|wordt\s+{_AGE}\b|avoir\s+{_AGE}\s+ans"
    # an age stated in words ("Omdat Daan pas vijf is", "since Noor is only six")
    r"|\b(?:is|ist|è|é|es|est)\s+(?:(?:pas|erst|only|just|solo|s[óo]|seulement|nur|ancora|still"
    r"|nog|already|al|schon|gi[àa]|j[áa]|ya|d[ée]j[àa])\s+)?(?:two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve|twee|drie|vier|vijf|zes|zeven|acht|negen|tien|elf|twaalf|zwei|drei"
    r"|f[üu]nf|sechs|sieben|neun|zehn|zw[öo]lf)\b"
    r"|\b(?:pas|erst)\s+(?:twee|drie|vier|vijf|zes|zeven|acht|negen|tien|zwei|drei|vier|f[üu]nf"
    r"|sechs|sieben|acht|neun|zehn|\d{1,2})\s+(?:is|ist|jaar|Jahre)\b)",
    re.IGNORECASE,
)
_SCHOOL_START_RX = re.compile(
    r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|entre|entrera|commence|empieza|empezar[áa]|comienza"
    r"|entra|kommt|inizia|comincia|come[çc]a|begint|gaat)\b.{0,25}?\b(?:school|kindergarten"
    r"|nursery|preschool|CP|CE1|maternelle|cr[èe]che|coll[èe]ge|lyc[ée]e|colegio|guarder[íi]a"
    r"|escuela|instituto|schule|kita|gymnasium|asilo|scuola|nido|elementari|escola|creche"
    r"|basisschool|kleuterschool|brugklas)\b",
    re.IGNORECASE,
)
# The user's workplace as the frame ("Working at Embraer, ...", "Als Siemens-Mitarbeiterin
# solltest du", "As an Airbus engineer, you ...").
_WORKPLACE_RX = re.compile(
    r"^\s*(?:(?:working\s+(?:at|for)|travaillant\s+(?:chez|pour)|trabajando\s+(?:en|para)"
    r"|trabalhando\s+(?:na|no|em|para)|lavorando\s+(?:in|per|da|presso|alla|al|nella|nel)"
    r"|werkend\s+(?:bij|voor))\s+(?-i:[A-ZÀ-ÖØ-Þ])"
    r"|(?:as\s+an?|en\s+tant\s+qu[e']|als|in\s+quanto)\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w&.]*[- ]"
    r"(?:employee|engineer|staffer|mitarbeiter\w*|angestellte\w*|ingenieur\w*|medewerker|salari[ée]e?))",
    re.IGNORECASE,
)
# An injury or operation of a body part named with a definite article after a frame
# ("Con el tobillo aún recuperándose del esguince", "Mit der frisch operierten
# Schulter"): the article presents it as the one both know about ("with a sprained
# ankle" is general advice).
_DEFINITE_FRAME_RX = re.compile(
    r"^\s*(?:with\s+the|avec\s+(?:le|la|l')|con\s+(?:el|la|il|lo|l')|mit\s+(?:der|dem|den)"
    r"|com\s+(?:o|a)|met\s+(?:de|het))(?:\s|(?<='))",
    re.IGNORECASE,
)
_BODY_PART_RX = re.compile(
    r"\b(?:knee|ankle|wrist|shoulder|back|hip|elbow|foot|arm|leg|neck|genou|cheville|poignet"
    r"|[ée]paule|dos|hanche|coude|pied|bras|jambe|rodilla|tobillo|mu[ñn]eca|hombro|espalda"
    r"|cadera|codo|pie|brazo|pierna|knie|kn[öo]chel|handgelenk|schulter|r[üu]cken|h[üu]fte"
    r"|ellbogen|fu(?:ß|ss)|bein|ginocchio|caviglia|polso|spalla|schiena|anca|gomito|piede"
    r"|braccio|gamba|joelho|tornozelo|pulso|ombro|costas|quadril|cotovelo|perna|enkel|pols"
    r"|schouder|rug|heup|elleboog|voet|been)\b",
    re.IGNORECASE,
)
_INJURY_STATE_RX = re.compile(
    r"\b(?:heal\w*|recover\w*|sprained|broken|injured|operated|in\s+a\s+cast|convalescen\w*"
    r"|bless[ée]e?|cass[ée]e?|op[ée]r[ée]e?|pl[âa]tr[ée]e?|recuper\w*|esguinzad[oa]|rot[oa]"
    r"|lesionad[oa]|operad[oa]|escayolad[oa]|operiert\w*|verletzt\w*|gebrochen\w*"
    r"|verstaucht\w*|eingegipst\w*|ingessat[oa]|rott[oa]|infortunat[oa]|operat[oa]"
    r"|engessad[oa]|partid[oa]|machucad[oa]|geopereerd\w*|gebroken|verstuikt|gegipst)\b",
    re.IGNORECASE,
)


# A sentence opened by nothing but a trigger ("Because | Chloé starts school ...").
_BARE_TRIGGER_RX = re.compile(rf"\s*(?:{_TRIGGERS}|{_INITIAL_TRIGGERS})\s*", re.IGNORECASE)


# A named person's occasion ("For Anna's recital on the 14th", "Zu Marlenes Klavierabend",
# "Para a formatura do Gustavo em dezembro").
_OCCASION_RX = re.compile(
    r"\b(?:recital|concert|show|performance|play|graduation|party|match|tournament|audition"
    r"|christening|communion|baptism|spectacle|gala|f[êe]te|remise\s+des\s+dipl[ôo]mes"
    r"|soutenance|actuaci[óo]n|funci[óo]n|concierto|graduaci[óo]n|comuni[óo]n|fiesta|festival"
    r"|auff[üu]hrung|konzert|klavierabend|vorspiel|abschlussfeier|taufe|feier|saggio|recita"
    r"|concerto|laurea|festa|battesimo|apresenta[çc][ãa]o|formatura|batizado|voorstelling"
    r"|uitvoering|diploma-uitreiking|feest|\w+abend)\b",
    re.IGNORECASE,
)
# "your brother Tomás", "dein Bruder Jonas", "Deine Schwiegermutter Heike": a relative or a
# pet of the user named, whatever the clause then advises or denies.
_KIN = (
    r"(?:brother|sister|son|daughter|wife|husband|partner|mum|mom|mother|dad|father|aunt|uncle"
    r"|cousin|nephew|niece|grand\w+|mother-in-law|father-in-law|boss|dog|cat|puppy|kitten"
    r"|fr[èe]re|s[œo]eur|fils|fille|femme|mari|m[èe]re|p[èe]re|tante|oncle|cousine?|neveu"
    r"|ni[èe]ce|belle-m[èe]re|beau-p[èe]re|chien(?:ne)?|chat(?:te)?|herman[oa]|hij[oa]|espos[oa]"
    r"|marido|mujer|madre|padre|t[íi][oa]|prim[oa]|sobrin[oa]|suegr[oa]|perr[oa]|gat[oa]"
    r"|bruder|schwester|sohn|tochter|frau|mann|mutter|vater|tante|onkel|cousine?|neffe|nichte"
    r"|schwieger\w+|hund|katze|kater|fratello|sorella|figli[oa]|moglie|marito|madre|padre|zi[oa]"
    r"|cugin[oa]|nipote|suocer[oa]|cane|gatt[oa]|irm[ãa]o?|filh[oa]|esposa|marido|m[ãa]e|pai"
    r"|ti[oa]|prim[oa]|sobrinh[oa]|sogr[oa]|cachorr[oa]|c[ãa]o|broer|zus|zoon|dochter|vrouw"
    r"|moeder|vader|oom|neef|nicht|schoon\w+|hond|kat|poes)"
)
_KIN_NAME_RX = re.compile(
    rf"(?:^|[\s,(])(?:{_POSS}|^\s*{_POSS_AMBIGUOUS})\s+(?:(?:little|older|younger|big|petite?|grande?|kleine[rn]?"
    rf"|piccol[oa]|pequen[oa]|pequeñ[oa]|jongere|oudere)\s+)?{_KIN}\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+",
    re.IGNORECASE,
)
# A temporal frame before the user's scheduled event with its date ("after your knee
# surgery in March", "J'attendrais ton opération du genou en mars").
_TEMPORAL_RX = re.compile(
    rf"\b(?:after|before|until|till|around|wait\s+for|apr[èe]s|avant|jusqu'[àa]|attendr\w+"
    rf"|despu[ée]s\s+de|antes\s+de|hasta|esperar\w*|nach|vor|bis|abwarten|dopo|prima\s+d\w*"
    rf"|fino\s+a\w*|aspetter\w*|depois\s+d\w*|antes\s+d\w*|at[ée]|esperaria|na|voor|tot)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?(?:{_POSS}|{_POSS_AMBIGUOUS})\s",
    re.IGNORECASE,
)


_CALENDAR_WORD_RX = re.compile(rf"(?:{_MONTHS}|{_DAYS})", re.IGNORECASE)

# Someone named after a causal frame, with what they fear or have ("Since Heidi gets so
# scared during storms", "Vu que Filou panique pendant les orages", "Weil Bruno sich an
# Silvester verkriecht", "Como o Tobias fica apavorado"): a pet or a person the answer
# knows from the user's history, not from the question.
_CAUSAL = (
    r"since|because|as|given\s+that|now\s+that|vu\s+que|puisque|comme|parce\s+que|ya\s+que"
    r"|como|porque|dado\s+que|puesto\s+que|weil|da|nachdem|visto\s+che|poich[ée]|siccome"
    r"|perch[ée]|dato\s+che|j[áa]\s+que|visto\s+que|omdat|aangezien"
)
_FEARS = (
    r"scared|afraid|frightened|terrified|anxious|nervous|panics?|panicking|hides|trembles"
    r"|shakes|peur|paniqu\w*|angoiss\w*|tremble|terroris\w*|se\s+cache|asusta\w*|miedo"
    r"|p[áa]nico|tiembla|aterr\w+|lo\s+pasa\s+fatal|se\s+esconde|angst|[äa]ngstlich"
    r"|verkriecht|zittert|panisch|panik|f[üu]rchtet|paura|trema|spavent\w*|terrorizz\w*"
    r"|si\s+nasconde|medo|pavor|apavorad\w*|assust\w*|treme|bang|angstig|paniek|trilt|verstopt"
    r"|allerg\w*|intol[ée]ran\w*|diab[ée]t\w*|asthm\w*|asma|c[œo]eliac\w*|celiac\w*"
    r"|cel[íi]ac\w*|z[öo]liak\w*"
)
_NAMED_CAUSE_RX = re.compile(
    rf"(?:^|[\s,(])(?:{_CAUSAL})\s+(?:(?:el|la|il|lo|o|a|der|die|le)\s+)?"
    r"(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+)\b(?P<rest>.*)",
    re.IGNORECASE,
)
_FEARS_RX = re.compile(rf"\b(?:{_FEARS})\b", re.IGNORECASE)
_NOT_NAMES = frozenset(
    [
        "I",
        "Sie",
        "Du",
        "Ihr",
        "Ihre",
        "Ihnen",
        "Dein",
        "Deine",
        "Mr",
        "Mrs",
        "Ms",
        "Dr",
        "You",
        "Vous",
        "Tu",
        "Usted",
        "Você",
        "Lei",
        "Voi",
        "U",
        "Jij",
        "Je",
        "Il",
        "Elle",
        "Er",
        "Es",
        "Ella",
        "Él",
        "Ele",
        "Ela",
        "Hij",
        "Zij",
        "We",
        "Wir",
        "Nous",
        "They",
        "Ils",
    ]
)


def _named_with_a_fear(clause: str) -> bool:
    m = _NAMED_CAUSE_RX.search(clause)
    if not m or m.group("name") in _NOT_NAMES or _CALENDAR_WORD_RX.fullmatch(m.group("name")):
        return False
    return bool(_FEARS_RX.search(m.group("rest")))


# "Last time you were stressed about your thesis", "La última vez estabas agobiado", "L'ultima
# volta eri in ansia per la tesi": the user's own past, dated by an earlier conversation.
_LAST_TIME_RX = re.compile(
    r"\b(?:last\s+time|la\s+[úu]ltima\s+vez|l'ultima\s+volta|la\s+volta\s+scorsa"
    r"|la\s+derni[èe]re\s+fois|na\s+[úu]ltima\s+(?:vez|conversa)|da\s+[úu]ltima\s+vez"
    r"|letztes\s+mal|beim\s+letzten\s+mal|vorige\s+keer|de\s+vorige\s+keer)\b",
    re.IGNORECASE,
)
# The second person unambiguously: a pronoun or a possessive, or a verb ending only the
# second person singular has (es -abas/-aste/-iste, it -avi/-evi/-ivi/-asti/-esti, "eri").
_SECOND_PERSON_RX = re.compile(
    rf"\b(?:{_SUBJ}|{_POSS}|\w+(?:abas|aste|iste|avi|evi|ivi|asti|esti|isti)|eri|estabas"
    r"|estavas|étais|\w+iez)\b",
    re.IGNORECASE,
)
# The assistant's own act last time ("I told you last time", "Comme je vous l'ai proposé la
# dernière fois") is no fact about the user.
_FIRST_PERSON_RX = re.compile(
    r"\b(?:(?-i:I)|I've|I'd|yo|ich|io|eu|ik)\b|\bj'|\bje\s+(?:vous|te|t'|l'|les|lui|leur|suis"
    r"|ai|avais)\b",
    re.IGNORECASE,
)
# The user's named possession with its date ("Je Polo moet in april voor de APK", "La
# revisione della tua Panda scade a giugno"): a name after a second-person possessive.
_POSS_NAME_RX = re.compile(rf"(?:^|[\s,(']){_POSS}\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w-]+", re.IGNORECASE)


# Someone named, with their event ("Luca's Saturday soccer practice", "Lenas Geigenvorspiel",
# "la visite de Minou chez le vétérinaire jeudi", "o aniversário do Rafael em julho"):
# an occasion, or an appointment or practice with its day, of a person or pet the user
# has spoken of. A name after another capitalised word ("Taylor Swift's concert") is
# more likely someone famous and does not count.
_EVENTS = (
    r"recital|concert|audition|graduation|party|match|game|tournament|practice|training"
    r"|appointment|check-?up|wedding|birthday|christening|visit|surgery|r[ée]cital|f[êe]te"
    r"|mariage|anniversaire|visite|rendez-vous|entra[îi]nement|examen|concierto"
    r"|audici[óo]n|boda|cumplea[ñn]os|fiesta|partido|entrenamiento|revisi[óo]n|visita|cita"
    r"|consulta|saggio|concerto|matrimonio|compleanno|festa|partita|allenamento"
    r"|appuntamento|audi[çc][ãa]o|casamento|anivers[áa]rio|jogo|treino|\w*vorspiel|\w*konzert"
    r"|geburtstag|hochzeit|\w*termin|\w*spiel|\w*training|verjaardag|bruiloft|\w*wedstrijd"
    r"|afspraak|uitvoering|bapt[êe]me|bautizo|taufe|battesimo|batizado|doop|laurea"
    r"|graduaci[óo]n|formatura|soutenance|communion|comuni[óo]n|kommunion|konfirmation"
    r"|firmung|cresima|crisma|diploma-uitreiking"
)
_PERSON = r"(?-i:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)"
_EVENT_OF_NAMED_RX = re.compile(
    rf"(?:(?:^|(?<=[\s,(])){_PERSON}(?:'s|s)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?(?:{_EVENTS})\b"
    rf"|\b(?:{_EVENTS})\s+(?:[\w-]+\s+){{0,2}}?(?:(?:de|do|da|di|del|della|dello|van|von)\s+"
    rf"(?:(?:la|el|le|il|lo|o|a)\s+)?|d'|dell')(?-i:[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)\b(?!\s+{_PERSON}))",
    re.IGNORECASE,
)
_OCCASIONS_ALONE_RX = re.compile(
    r"\b(?:recital|concert|audition|graduation|wedding|birthday|r[ée]cital|mariage"
    r"|anniversaire|concierto|audici[óo]n|boda|cumplea[ñn]os|saggio|concerto|matrimonio"
    r"|compleanno|audi[çc][ãa]o|casamento|anivers[áa]rio|\w*vorspiel|\w*konzert|geburtstag"
    r"|hochzeit|verjaardag|bruiloft)\b",
    re.IGNORECASE,
)


_CAPITALISED_BEFORE_RX = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ])[\w.-]*\s+$")
_PERSON_RX = re.compile(_PERSON)
# Where a named possession was ("Ton Erasmus à Kraków").
_AT_PLACE_RX = re.compile(rf"\s+(?:à|a|en|in|em|nach|naar)\s+{_PERSON}")


def _event_of_someone_named(sentence: str) -> bool:
    m = _EVENT_OF_NAMED_RX.search(sentence)
    names = _PERSON_RX.findall(m.group()) if m else []
    if not m or any(w in _NOT_NAMES for w in names):
        return False
    if m.group()[0].isupper() and _CAPITALISED_BEFORE_RX.search(sentence[: m.start()]):
        return False  # "Taylor Swift's concert"
    if _CALENDAR_WORD_RX.fullmatch(names[0].rstrip("s")):
        return False
    return bool(_OCCASIONS_ALONE_RX.search(m.group()) or _DATE_RX.search(sentence))


# The user's past, dated ("Since you left the bank last year", "Desde que dejaste la
# aseguradora el año pasado", "Depuis ta démission de la banque l'an dernier", "Dalle tue
# dimissioni dalla banca l'anno scorso"): a since-frame of the user's own act with a past
# time. "Since 2020, you can apply online" has no act of the user after "since".
_SINCE_YOU_RX = re.compile(
    r"\b(?:since\s+you(?:r)?|desde\s+que\s+(?:voc[êe]\s+)?\w+(?:aste|iste|ou|eu|iu|ei)?"
    r"|depuis\s+(?:que\s+(?:tu|vous)|ta|ton|tes|votre|vos)|(?:dalle|dal|dalla)\s+tu[eoa]i?"
    r"|da\s+quando\s+(?:hai|sei)|seit\s+(?:du|deine[mr]?|dem\s+du)|sinds\s+(?:je|jij|u|jouw)"
    r")\b",
    re.IGNORECASE,
)
_PAST_TIME_RX = re.compile(
    r"\b(?:last\s+(?:year|month|spring|summer|autumn|winter)|(?:el|al)\s+(?:año|mes)\s+pasado"
    r"|l'an\s+dernier|l'ann[ée]e\s+derni[èe]re|le\s+mois\s+dernier|l'anno\s+scorso"
    r"|il\s+mese\s+scorso|(?:no\s+)?(?:ano|m[êe]s)\s+passado|letzte[ns]?\s+(?:Jahr|Monat|Sommer)"
    r"|vorig(?:e)?\s+(?:jaar|maand|zomer)|(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "Your eight years running the bakery", "Tes dix ans à la tête d'une boulangerie": the
# user's years at something, counted.
_NUMBER_WORDS = (
    r"\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|deux"
    r"|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|dos|tres|cuatro|cinco"
    r"|seis|siete|ocho|nueve|diez|doce|quince|veinte|zwei|drei|vier|f[üu]nf|sechs|sieben"
    r"|acht|neun|zehn|zw[öo]lf|zwanzig|due|tre|quattro|cinque|sei|sette|otto|nove|dieci"
    r"|dodici|quindici|venti|dois|duas|tr[êe]s|quatro|oito|dez|doze|vinte|twee|drie|vijf"
    r"|zes|zeven|negen|tien|twaalf|twintig"
)
_YOUR_YEARS_RX = re.compile(
    rf"(?:^|[\s,(]){_POSS}\s+(?:{_NUMBER_WORDS})\s+(?:years|ans|a[ñn]os|anni|anos|Jahre|jaar)\b",
    re.IGNORECASE,
)


# German capitalises every noun, so a capital after "dein" or "euer" names nothing.
_GERMAN_POSS_RX = re.compile(r"\s*(?:dein\w*|euer|eur\w+|ihr\w*)\s", re.IGNORECASE)


# The user's own thing with where it is ("Desde tu nuevo piso en Gràcia", "From your flat
# in Leith", "Com a tua casa em Sintra"): general advice says "your flat", not where it is.
_POSS_FACT_AT_PLACE_RX = re.compile(
    r"^\W*(?:from|near|with|for|since|desde|depuis|de|von|vom|vanaf|da|dal|dalla|dallo|con"
    r"|avec|com|mit|met|para|pour|per|f[üu]r|voor|seit|sinds|pr[èe]s\s+de|cerca\s+de|perto\s+de)"
    rf"\s+(?:(?:la|le|el|il|lo|a|o|der|die|das|dem|den|het|de)\s+)?{_POSS}\s+(?:[\w-]+\s+)?(?:{_FACT_RX.pattern})\s+(?:in|en|à|a|em|no|na"
    rf"|nach|naar|at|au|im|bei|near|près\s+de|cerca\s+de|vicino\s+a|perto\s+de)\s+{_PERSON}",
    re.IGNORECASE,
)


# The user's workplace stated of them ("now that you work at ASML", "Nu je bij ASML
# werkt", "da quando lavori da Ferrero", "weil du bei Bosch arbeitest"): a named employer
# after a second-person work verb.
_WORKS_AT_RX = re.compile(
    r"\b(?:you\s+(?:now\s+|still\s+)?work(?:ing)?\s+(?:at|for)|tu\s+travailles\s+(?:chez|pour|[àa])"
    r"|vous\s+travaillez\s+(?:chez|pour|[àa])|trabajas\s+(?:en|para)|arbeitest\s+(?:bei|f[üu]r)"
    r"|lavori\s+(?:da|presso|per|alla|al|nella|nel|in)|trabalhas\s+(?:na|no|em|para)"
    r"|voc[êe]\s+trabalha\s+(?:na|no|em|para)|(?:je|jij|u)\s+werkt\s+(?:bij|voor))\s+"
    r"(?-i:[A-ZÀ-ÖØ-Þ])"
    r"|\bdu\s+(?:jetzt\s+|ja\s+|nun\s+)?bei\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w&.-]*\s+(?:\w+\s+)?arbeitest\b"
    r"|\b(?:je|jij|u)\s+(?:nu\s+)?bij\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w&.-]*\s+(?:\w+\s+)?werkt\b",
    re.IGNORECASE,
)


_POSS_MODEL_RX = re.compile(
    rf"(?:^|[\s,(])(?:{_POSS}|{_POSS_AMBIGUOUS})\s+(?-i:[A-ZÀ-ÖØ-Þa-z])[\w-]*(?-i:[A-Z])[\w-]*\s+[A-Za-z]*\d[\w-]*"
    rf"|(?:^|[\s,(])(?:{_POSS}|{_POSS_AMBIGUOUS})\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w-]+\s+(?-i:[A-Z])[\w-]*\d[\w-]*",
    re.IGNORECASE,
)


def _named_possession(clause: str) -> bool:
    if _POSS_MODEL_RX.search(clause) and not _GERMAN_POSS_RX.match(clause):
        return True  # a possession's model: "seu ThinkPad T14", "your iPhone 12"
    m = _POSS_NAME_RX.search(clause)
    if _POSS_FACT_AT_PLACE_RX.match(clause):
        return True
    if not m or _GERMAN_POSS_RX.match(m.group().lstrip(" ,(')")):
        return False
    name = m.group().split()[-1]
    if _CALENDAR_WORD_RX.fullmatch(name):
        return False
    return bool(_DATE_RX.search(clause)) or bool(_AT_PLACE_RX.match(clause, m.end()))


def _names_someone(text: str) -> bool:
    """A capitalised word that is not a month or a day (those are capitalised too)."""
    return any(not _CALENDAR_WORD_RX.fullmatch(m.group()) for m in _NAME_RX.finditer(text))


def _named_life_event(clause: str) -> bool:
    return _names_someone(clause) and bool(
        _AGE_RX.search(clause) or _SCHOOL_START_RX.search(clause) or _OCCASION_RX.search(clause)
    )


def _known_injury(clause: str) -> bool:
    return bool(
        _DEFINITE_FRAME_RX.search(clause)
        and _BODY_PART_RX.search(clause)
        and _INJURY_STATE_RX.search(clause)
    )


def _has_fact(text: str) -> bool:
    return bool(_FACT_RX.search(text) or _STATE_RX.search(text))


def _has_detail(text: str) -> bool:
    return bool(_DATE_RX.search(text) or _NAME_RX.search(text))


# The second person in the main clause after an apposition ("..., you'll want", "..., tu
# peux", "kommst du", "te van a", "ti troverai", "você vai").
_SECOND_PERSON_AFTER_RX = re.compile(
    rf"\b(?:{_SUBJ}|te|ti|tu|ton|ta|your|dich|dir|deine?\w*|kannst|kommst|hast|bist"
    r"|puedes|vas|podr[áa]s|puoi|potrai|troverai|podes|vais|kun|heb)\b",
    re.IGNORECASE,
)


# A capitalised word of any Latin script, possibly with a possessive "'s" ("Joe's").
_LONE_NAME_RX = re.compile(r"(?<![\w'\u2019-])[^\W\d_]+(?=(?:['\u2019]s)?(?![\w'\u2019-]))")
_WORD_BEFORE_RX = re.compile(r"([\w'-]+)[\s,]*$")
_PLACE_BEFORE_RX = re.compile(
    r"\b(?:in|at|to|from|near|à|au|en|em|no|na|nach|naar|aus|via|para\s+o|da|dal|vers)\s+$",
    re.IGNORECASE,
)
_NAME_FOLLOWED_RX = re.compile(r"(?:['\u2019]s)?\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w-]")
# Framed as a person in the user's life: a gift, an errand or company for them ("for",
# "ask", "bring", "per", "para a", "für", "voor") before the name, or a description of
# them after it ("Júlia, que ainda está no terceiro ano", "Ugo, alla sua età").
_PERSON_FRAME_BEFORE_RX = re.compile(
    r"\b(?:for|ask|tell|bring|invite|with|für|frag|frage|mit|per|para|pour|avec|chiedi|porta"
    r"|invita|pergunte|pergunta|leve|traga|demande|emm[èe]ne|pregunta|preg[úu]ntale|lleva"
    r"|voor|vraag|neem|met|aan)\s+(?:(?:doch|mal|ruhig|gerne?|even|gerust)\s+)?"
    r"(?:(?:the|o|a|la|il|lo|le|der|die|dem|den|el|de)\s+)?$",
    re.IGNORECASE,
)
# A relative by the family's own title ("Grandpa Joe", "Oma Hildegard", "nonno Salvatore",
# "tía Carmen").
_KIN_TITLE_BEFORE_RX = re.compile(
    r"\b(?:grandpa|grandma|granny|grandad|granddad|nana|aunt|auntie|uncle|oma|opa|tante|onkel"
    r"|nonna|nonno|zio|zia|t[íi]a|t[íi]o|abuela|abuelo|mamie|papy|papi|mamy|tata|tonton"
    r"|vov[óô]|av[óô]|oom)\s+$",
    re.IGNORECASE,
)
# Someone named as the subject of a reason ("Since Dmitri holds an Irish passport",
# "Puisque Karim a la nationalité algérienne", "Como o Kwame é ganês"), unless the name
# is also a large place's ("Since Paris is expensive"); "as" and "comme" also compare
# ("as Florence did"), and stay out.
_CAUSAL_BEFORE_RX = re.compile(
    r"\b(?:since|because|puisque|parce\s+qu'|parce\s+que|ya\s+que|porque|puesto\s+que|dado\s+que"
    r"|weil|da|visto\s+che|poich[ée]|siccome|dato\s+che|omdat|aangezien|j[áa]\s+que"
    r"|como\s+(?:o|a|el|la))\s+(?:(?:o|a|el|la|il|lo|der|die|de)\s+)?$",
    re.IGNORECASE,
)
# Someone singled out by a cleft ("C'est Karim qui gère la compta").
_CLEFT_BEFORE_RX = re.compile(r"\b(?:c'est|c\u2019est|it's|it\u2019s|it\s+is)\s+$", re.IGNORECASE)
_CLEFT_AFTER_RX = re.compile(r"\s+(?:qui|who|que|quien|che|der|die)\b", re.IGNORECASE)
_PERSON_FRAME_AFTER_RX = re.compile(
    r"\s*,\s*(?:who|que|qui|die|der|che|wie|dat|alla\s+sua|à\s+son|a\s+su|at\s+(?:his|her)"
    r"|in\s+seinem|in\s+ihrem|op\s+zijn|op\s+haar|na\s+idade|com\s+a\s+idade)\b"
    r"|\s+(?:is|ist|est|es|è|é|wird|will|turns|cumple|compie|fait|faz|heeft|has|hat|tiene|ha|tem)"
    r"\s+(?:pas\s+|erst\s+|only\s+|just\s+|ya\s+|già\s+|déjà\s+|já\s+|nur\s+)?"
    rf"(?:{_NUMBER_WORDS}|one|een|ein|un|uno|um|eleven|elf|onze)\b",
    re.IGNORECASE,
)


def _known_by_name(before: str, clause: str, after: str) -> bool:
    """Someone the user knows, named by a given name alone ("Since Dmitri holds an Irish
    passport", "para a Júlia, que ainda está no terceiro ano", "Femke is pas zes",
    "Grandpa Joe", "C'est Karim qui ..."): a person the answer can only know from
    the user. A name next to another capitalised word ("Angela Merkel", "Gabriel García
    Márquez", "Uncle Tom's Cabin") is more likely someone public or a title, and one after
    a place preposition a place ("in Florence")."""
    for m in _LONE_NAME_RX.finditer(clause):
        name = m.group()
        if not name.istitle():
            continue
        if (
            name in _NOT_NAMES
            or not is_given_name(name)
            or _CALENDAR_WORD_RX.fullmatch(name)
            or is_stop_word(name)
        ):
            continue
        head, tail = before + clause[: m.start()], clause[m.end() :] + after
        if _NAME_FOLLOWED_RX.match(tail) or _PLACE_BEFORE_RX.search(head):
            continue
        if _KIN_TITLE_BEFORE_RX.search(head):
            return True  # "Oma Hildegard": the title is capitalised, not a first name
        prev = _WORD_BEFORE_RX.search(head)
        if prev and prev.group(1)[:1].isupper():
            first_of_sentence = not head[: prev.start()].strip()
            if not first_of_sentence or (
                is_given_name(prev.group(1)) and not is_stop_word(prev.group(1))
            ):
                continue
        if (
            _PERSON_FRAME_BEFORE_RX.search(head)
            or _PERSON_FRAME_AFTER_RX.match(tail)
            or (_CAUSAL_BEFORE_RX.search(head) and not is_place_name(name))
            or (_CLEFT_BEFORE_RX.search(head) and _CLEFT_AFTER_RX.match(tail))
        ):
            return True
    return False


def presupposed_fact(clause: str, before: str = "", tagged: bool = False, after: str = "") -> bool:
    """Whether ``clause`` (canonical, asserted) presents a personal fact about the user
    as known (module docstring); ``before`` is its sentence up to the clause; ``tagged``
    when it is asked back with a confirmation tag ("Jonas starts school in May, right?"),
    which presents the fact as known whoever owns it; ``after`` is the rest of the
    sentence."""
    if _JAPANESE_RX.search(clause):
        return True
    if _JAPANESE_FRAME_RX.search(clause):
        return bool(_FACT_RX.search(clause)) and not negated(clause)
    if _CURRENT_RX.search(clause) or _CURRENT_RX.search(before[-40:]):
        return False
    if _KIN_NAME_RX.search(clause) and not searched(before + " " + clause):
        return True
    # the apposition spans the splitter's commas: the clause it starts in is the claim
    at = _relative_described_at(before + clause + after)
    if at >= 0 and len(before) - 1 <= at < len(before) + len(clause):
        return True
    if not before.strip(" ,-\u2013\u2014") and _framed_state(clause):
        return True
    aged = _AGE_FRAME_RX.match(clause + after) if not before.strip(" ,-\u2013\u2014") else None
    if aged and not _CALENDAR_WORD_RX.fullmatch(aged.group().split()[-1]):
        return True
    temporal = _TEMPORAL_RX.search(clause)
    if (
        temporal
        and _FACT_RX.search(clause[temporal.end() :])
        and _DATE_RX.search(clause[temporal.end() :] + " " + after[:30])
    ):
        return not negated(before + " " + clause)
    # A negation makes it an absence claim ("your flight isn't in my notes") or leaves
    # the fact unknown; either way the absence check and the classifier read it.
    if searched(before + " " + clause):
        return False
    if negated(before + " " + clause) and not _INTOLERANCE_RX.search(clause):
        return False
    if _known_by_name(before, clause, after):
        return True
    lead = before[-30:] + " " + clause
    sentence_so_far = before + " " + clause
    if not _MODAL_RX.search(lead) and (
        _named_with_a_fear(lead)
        or (
            _LAST_TIME_RX.search(sentence_so_far)
            and _SECOND_PERSON_RX.search(clause)
            and not _FIRST_PERSON_RX.search(clause)
        )
        or _named_possession(clause)
        or _event_of_someone_named(before[-40:] + " " + clause + " " + after[:30])
        or (_SINCE_YOU_RX.search(sentence_so_far) and _PAST_TIME_RX.search(sentence_so_far))
        or _YOUR_YEARS_RX.search(clause)
    ):
        return True
    window = clause[:80]
    opening = before.strip(" ,-\u2013\u2014") == ""
    triggered = _TRIGGERED_RX.search(lead) or (opening and _INITIAL_RX.search(clause))
    if not triggered and opening:
        triggered = _CHOSEN_RX.search(clause) or _INITIAL_AMBIGUOUS_RX.search(clause)
    m = None if triggered else _TRIGGERED_AMBIGUOUS_RX.search(lead)
    if m and not _THIRD_PERSON_BEFORE_RX.search(lead[: m.start()]):
        triggered = m
    if not triggered:
        triggered = _PRO_DROP_RX.search(lead)
    if not triggered and opening and _DEMONSTRATIVE_RX.search(clause):
        triggered = _DEMONSTRATIVE_RX.search(clause)
        if triggered and not _FACT_RX.search(clause):
            triggered = None
    if opening and (_WORKPLACE_RX.search(clause) or _known_injury(clause)):
        return True
    if _WORKS_AT_RX.search(clause) and not _MODAL_RX.search(clause):
        return True
    if _compared_with_the_users_past(clause, after):
        return True
    framed = opening or bool(_BARE_TRIGGER_RX.fullmatch(before))
    if (
        (triggered or framed)
        and _named_life_event(before[-30:].rstrip() + " " + clause + " " + after[:40])
        and not _MODAL_RX.search(lead)
    ):
        return True
    if triggered:
        if _MODAL_RX.search(lead[: triggered.end()]):
            return False
        tail = lead[triggered.start() :]
        if _GENERIC_RX.search(clause):
            return False
        return _has_fact(tail) or bool(_DATE_RX.search(tail))
    if (
        opening
        and _APPOSITION_RX.search(clause)
        and _SECOND_PERSON_AFTER_RX.search(after)
        and not _MODAL_RX.search(clause)
    ):
        return bool(_STATE_RX.search(clause) or _HANDED_RX.search(clause))
    if _LIKE_YOURS_RX.search(clause):
        return True
    if tagged and (_FACT_RX.search(window) or _NAMED_RX.search(window)):
        return _has_detail(window) or bool(_NAMED_RX.search(window))
    if _GENERIC_RX.search(clause) or _MODAL_RX.search(lead):
        return False
    # A capitalised "Ihr" opening a sentence is also "her"/"their", like "su/sua/suo".
    apposed = bool(_APPOSED_NAME_RX.search(after)) or bool(_STATE_RX.search(after[:40]))
    if _OWNER_SUBJECT_RX.search(clause) and not (opening and clause.startswith("Ihr")):
        return bool(_FACT_RX.search(window)) and (_has_detail(window) or apposed)
    if opening and (_OWNER_SUBJECT_AMBIGUOUS_RX.search(clause) or clause.startswith("Ihr ")):
        # "Su vuelo a Buenos Aires del día 20", "Ihr Passat": also "his/her/their", so
        # only with a personal-fact word and a date or number (or a name in apposition)
        return bool(_FACT_RX.search(window)) and (bool(_DATE_RX.search(window)) or apposed)
    if _YOU_ARE_RX.search(clause):
        if _NAMED_RX.search(window):
            return True
        known = _has_detail(window) or bool(_STATE_RX.search(window))
        return (_has_fact(window) or bool(_STATE_RX.search(window))) and (
            known or bool(re.search(r"\b(?:that|this)\s", window))
        )
    return False


# A relative of the user's described in apposition ("Your dad, being an electrician,",
# "Tu padre, al ser electricista,", "A tua mãe, sendo farmacêutica,", "Tu hermana, que da
# clases de matemáticas", "je broer, die bij de belastingdienst werkt") or named beside the
# possessive role ("Tomás, ton frère,", "Martín, tu primo,", "La dottoressa Ferraris, il
# tuo capo,", "Rodrigo, seu cunhado eletricista"): what the user has told of them.
_FAMILY = (
    r"(?:brother|sister|son|daughter|wife|husband|partner|mum|mom|mother|dad|father|aunt|uncle"
    r"|cousin|nephew|niece|grand\w+|\w+-in-law|boss|fr[èe]re|s[œo]eur|fils|fille|femme|mari"
    r"|m[èe]re|p[èe]re|tante|oncle|cousine?|neveu|ni[èe]ce|beau-\w+|belle-\w+|chef(?:fe)?"
    r"|herman[oa]|hij[oa]|espos[oa]|marido|mujer|madre|padre|t[íi][oa]|prim[oa]|sobrin[oa]"
    r"|suegr[oa]|cu[ñn]ad[oa]|jef[ae]|bruder|schwester|sohn|tochter|frau|mann|mutter|vater"
    r"|onkel|neffe|nichte|schwager|schw[äa]gerin|schwieger\w+|chef(?:in)?|fratello|sorella"
    r"|figli[oa]|moglie|marito|zi[oa]|cugin[oa]|nipote|suocer[oa]|cognat[oa]|capo"
    r"|irm[ãa]o?|filh[oa]|esposa|m[ãa]e|pai|ti[oa]|prim[oa]|sobrinh[oa]|sogr[oa]|cunhad[oa]"
    r"|chefe|broer|zus|zoon|dochter|vrouw|moeder|vader|oom|neef|nicht|zwager|schoon\w+|baas)"
)
_DESCRIBED = (
    r"being|who(?:'s|\s+is|\s+works|\s+teaches|\s+runs)|qui\s+(?:est|travaille|bosse|enseigne)"
    r"|que\s+(?:es|trabaja|da|tiene|lleva)|al\s+ser|siendo|sendo|que\s+(?:é|trabalha|d[áa])"
    r"|der|die|das|welche[rs]?|che\s+(?:è|lavora|fa|insegna)|facendo|essendo|die\s+(?:bij|als)"
    r"|als|en\s+tant\s+qu[e']|como"
)
_FAMILY_DESCRIBED_RX = re.compile(
    rf"(?:^|[\s,(']){_POSS}\s+(?:[\w-]+\s+)?{_FAMILY}\s*,\s*(?:{_DESCRIBED})\b"
    rf"|(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+\s*,\s*(?:(?:la|le|el|il|o|a|de|der|die)\s+)?{_POSS}\s+"
    rf"(?:[\w-]+\s+)?{_FAMILY}\b"
    rf"|(?:^|[\s,(']){_POSS}\s+{_FAMILY}\s*,\s*(?:(?:il|la|le|el|o|a|der|die|de|the)\s+)?"
    r"(?:(?:dott\w*|dr\.?|doctor\w*|docteur|professor\w*|prof\.?|herr|frau|signor\w*|se[ñn]or\w*"
    r"|senhor\w*|monsieur|madame|mrs?\.?|ms\.?|meneer|mevrouw)\s+)?(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+\s*,"
    rf"|(?:^|[\s,(']){_POSS}\s+{_FAMILY}\s+\w+\s*,\s*(?:{_DESCRIBED})\b"
    # a former trade in apposition ("Ton père, ancien cheminot à la SNCF,"), a participle
    # without a comma ("Ta belle-mère étant notaire"), someone named "being" something
    rf"|(?:^|[\s,(']){_POSS}\s+(?:[\w-]+\s+)?{_FAMILY}\s*,\s*(?:ancien(?:ne)?|former|retired|ex"
    r"|jubilad[oa]|pensionat[oa]|aposentad[oa]|ehemalige[rs]?|gepensioneerde|oud)[\s-]+\w+"
    rf"|(?:^|[\s,(']){_POSS}\s+(?:[\w-]+\s+)?{_FAMILY}\s+(?:[ée]tant|being|siendo|sendo|essendo)\b"
    rf"|(?:^|[\s,(']){_POSS}\s+(?:[\w-]+\s+)?{_FAMILY}\s+(?:eletricista|electricista|electrician"
    r"|farmac\w+|pharmac\w+|m[ée]dic[oa]|doctor|arzt|[äa]rztin|nurse|enfermer[oa]|infirmi\w+"
    r"|krankenpfleger\w*|infermier[ea]|verpleegkundige|abogad[oa]|advogad[oa]|avvocat[oa]"
    r"|lawyer|anwalt|anw[äa]ltin|mechanic|mec[áa]nic[oa]|meccanico|mechaniker|profesor[a]?"
    r"|professor[a]?|teacher|lehrer\w*|insegnante|leraar|juf|meester|ingenieur\w*|engineer)\b",
    re.IGNORECASE,
)

# A named person or pet with their age as the frame ("At fourteen, Pippa would ...", "À
# quatorze ans, Moustache mérite ...", "A quattordici anni Briciola ...", "Mit zwölf Jahren
# braucht Bello ...", "Con catorce años, Canela ...").
_AGE_WORDS = (
    r"\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|un|deux|trois|quatre|cinq|six"
    r"|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|uno|dos|tres|cuatro|cinco"
    r"|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|eins|zwei|drei|vier|f[üu]nf"
    r"|sechs|sieben|acht|neun|zehn|elf|zw[öo]lf|dreizehn|vierzehn|f[üu]nfzehn|due|tre|quattro"
    r"|cinque|sei|sette|otto|nove|dieci|undici|dodici|tredici|quattordici|quindici|dois|tr[êe]s"
    r"|quatro|oito|dez|doze|treze|catorze|quinze|twee|drie|vier|vijf|zes|zeven|negen|tien"
    r"|twaalf|dertien|veertien|vijftien"
)
_AGE_FRAME_RX = re.compile(
    rf"^\W*(?:at|[àa]|a|con|mit|aos|op|with)\s+(?:(?:sus|seus|ses|his|her|its|seinen|ihren"
    rf"|i\s+suoi|os\s+seus|zijn|haar)\s+)?(?:{_AGE_WORDS})(?:\s+(?:years?|ans|a[ñn]os|anni"
    rf"|anos|jahren|jaar))?(?:\s+old)?\s*,?\s+(?-i:[A-ZÀ-ÖØ-Þ])[a-zà-öø-ÿ]+",
    re.IGNORECASE,
)

# A comparison with the user's own past, named or counted ("a much shorter commute than
# your old one into Göteborg", "plus simple que ton trajet actuel jusqu'à La Défense",
# "más suave que la subida al Teide que hiciste en octubre", "so lang wie dein täglicher
# Arbeitsweg von Baden nach Zürich", "più facile del Sentiero degli Dei che hai fatto a
# giugno", "gunstiger dan wat je betaalde voor je vorige huis in Zwolle").
_COMPARED_RX = re.compile(
    r"\b(?:than|que|qu'|als|dan|wie|di|del|della|dello|do\s+que|da\s+que|a\s+(?:la|el)|al)\s+"
    r"(?P<rest>.{0,80})",
    re.IGNORECASE,
)
_USERS_PAST_RX = re.compile(
    rf"(?:^|[\s,(']){_POSS}\s|\b(?:you|tu|vous|voc[êe]|je|jij|du)\s+(?:\w+\s+)?(?:had|used|paid|did"
    r"|lived|drove|took|hiked|ran|spent|avais|payais|as\s+fait|avez\s+fait"
    r"|gastou|pagou|fez|betaalde|deed|hattest|bezahlt|gezahlt)\b"
    r"|\b(?:hiciste|pagas|pagabas|pagaste|subiste|hai\s+fatto|hai\s+pagato|pagavi|hai\s+speso"
    r"|gastaste|fizeste|pagavas)\b",
    re.IGNORECASE,
)


# The same with "su/seu/suo", also "his/her": only where no third person was named before.
_FAMILY_NAMED_AMBIGUOUS_RX = re.compile(
    rf"(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+\s*,\s*{_POSS_AMBIGUOUS}\s+(?:[\w-]+\s+)?{_FAMILY}\b",
    re.IGNORECASE,
)


def describes_a_relative(sentence: str) -> bool:
    """Whether ``sentence`` (canonical, masked) names or describes one of the user's
    relatives in apposition ("Est-ce que ton chef, Laurent, sera ...?"): read in questions
    too, which are otherwise not read for presupposed facts."""
    return _relative_described_at(sentence) >= 0


# Someone named "being" something in a sentence addressed to the user ("Kenji, being an
# architect in 大阪, would have opinions on that floor plan; send it before you sign"); a
# sentence without the second person is about anyone ("Einstein, being a physicist, ...").
_NAMED_BEING_RX = re.compile(
    r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+\s*,\s*(?:being|[ée]tant|siendo|sendo|essendo)\s+\w+",
    re.IGNORECASE,
)


def _relative_described_at(sentence: str) -> int:
    """Where the apposition describing a relative starts in ``sentence``, or -1."""
    m = _FAMILY_DESCRIBED_RX.search(sentence)
    if m:
        return m.start()
    m = _NAMED_BEING_RX.search(sentence)
    if m and _ANY_SECOND_PERSON_RX.search(sentence[m.end() :]):
        return m.start()
    m = _FAMILY_NAMED_AMBIGUOUS_RX.search(sentence)
    if m and not _REPORTER_BEFORE_RX.search(sentence[: m.start()]):
        return m.start()
    return -1


# Someone else speaking before an ambiguous possessive ("Ele disse que o Rodrigo, seu
# cunhado, viria": his brother-in-law).
_REPORTER_BEFORE_RX = re.compile(
    r"\b(?:he|she|they|il|elle|ils|elles|él|ella|ellos|ele|ela|eles|lui|lei|loro|er|sie|hij|zij)"
    r"\s+(?:\w+\s+){0,2}?(?:said|says|told|dit|disait|a\s+dit|dijo|dice|disse|diz|ha\s+detto"
    r"|sagte|sagt|zei|zegt)\b",
    re.IGNORECASE,
)


# Before a marker other than "than" (they are also "that", "then", "of", "to the"), a
# comparative: "plus simple que", "más suave que", "so lang wie", "più facile del",
# "gunstiger dan", "abaixo do que".
_COMPARATIVE_BEFORE_RX = re.compile(
    r"\b(?:plus|moins|mieux|pire|autant|aussi|m[áa]s|menos|mejor|peor|tan|tanto|mais|melhor"
    r"|pior|t[ãa]o|abaixo|acima|pi[ùu]|meno|meglio|peggio|cos[ìi]|mehr|weniger|besser"
    r"|schlechter|so|ebenso|genauso|meer|minder|beter|slechter|even|zo|\w{3,}(?:er|ere|ger))"
    r"\b[^.;:!?]{0,40}$",
    re.IGNORECASE,
)


# The state right after the participle ("Being diabetic", "Siendo hipertenso"), not a noun
# after an article ("Being a beginner, start slowly" is advice to anyone).
_STATE_FRAME_RX = re.compile(
    r"^\W*(?:being|[ée]tant|siendo|sendo|essendo)\s+(?!(?:an?|une?|un[oa]?|um[a]?)\s)",
    re.IGNORECASE,
)


def _framed_state(clause: str) -> bool:
    """A participle opening the sentence with a personal state ("Siendo hipertenso,
    conviene ...", "Being diabetic, you ...", "Étant végétarienne, ...")."""
    m = _STATE_FRAME_RX.match(clause)
    if m is None:
        return False
    return bool(_STATE_RX.search(clause[m.end() : m.end() + 40]))


def _compared_with_the_users_past(clause: str, after: str = "") -> bool:
    """A comparison opening in ``clause`` (it may run on into ``after``) with the user's
    own past, named or counted."""
    text = clause + " " + after[:60]
    for m in _COMPARED_RX.finditer(text):
        if m.start() >= len(clause):
            break
        marker = m.group().split()[0].lower()
        if marker != "than" and not _COMPARATIVE_BEFORE_RX.search(text[: m.start()]):
            continue
        rest = m.group("rest")
        if _USERS_PAST_RX.search(rest) and (_NAME_IN_RX.search(rest) or re.search(r"\d", rest)):
            return True
    return False


_NAME_IN_RX = re.compile(r"(?<=\s)(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+")


# Helpers shared with :mod:`gateway.follow_up`.
_POSS_OWNER_RX = re.compile(rf"(?:^|[\s,(']){_POSS}\s+", re.IGNORECASE)
# The capitalised words that follow an article or a possessive in German are nouns, not
# names ("Wie war die Prüfung?"); other languages capitalise names only.
_GERMAN_DETERMINER_BEFORE_RX = re.compile(
    r"\b(?:der|die|das|dem|den|des|(?:ein|kein|mein|dein|sein|ihr|unser)(?:e[mnrs]?)?"
    r"|euer|eure[mnrs]?|zum|zur|beim|vom|im|am)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)


_EVENT_RX = re.compile(rf"\b(?:{_EVENTS})\b", re.IGNORECASE)


def fact_word(text: str) -> bool:
    """Whether ``text`` holds a word of the personal-fact vocabulary or names an event
    (a recital, an appointment, a wedding)."""
    return bool(_FACT_RX.search(text) or _EVENT_RX.search(text))


def possessive_owner(text: str, context: str = "") -> int | None:
    """Where the word after the first second-person possessive of ``text`` starts (Dutch
    "je" counts only where ``context``, the sentence around it, reads as Dutch: in French
    it is "I")."""
    for m in _POSS_OWNER_RX.finditer(text):
        if m.group().strip(" ,(')").lower() == "je" and not reads_as_dutch(context or text):
            continue
        return m.end()
    return None


_DUTCH_RX = re.compile(r"\b(?:het|een|van|niet|wel|nog|met|voor|naar|hoe|ging|je\s+\w+\s+is)\b")


def reads_as_dutch(text: str) -> bool:
    """Whether ``text`` holds one of the commonest Dutch words (so "je" is "your")."""
    return bool(_DUTCH_RX.search(text))


_PLACE_BEFORE_RX = re.compile(
    r"\b(?:in|at|to|from|near|à|au|aux|en|em|no|na|nach|naar)\s+$",
    re.IGNORECASE,
)


def someone_named(text: str) -> bool:
    """Whether ``text`` names someone: a capitalised word inside it that is not a pronoun,
    a title, a month or a day, nor a German noun after its article."""
    for m in _NAME_RX.finditer(text):
        word = m.group().removesuffix("'s").removesuffix("’s")
        if word in _NOT_NAMES or _CALENDAR_WORD_RX.fullmatch(word):
            continue
        if _GERMAN_DETERMINER_BEFORE_RX.search(text[: m.start()]):
            continue
        if _PLACE_BEFORE_RX.search(text[: m.start()]):
            continue  # a place ("the weather in Lisbon"), not someone the user knows
        return True
    return False


# Someone named in full ("Rafael Nadal", "Jannik Sinner") with a public life's verb (won,
# was born, wrote, founded): how answers state public people's facts; the user's own people
# go by their first names ("Anna's recital", "Tomás in Porto") and by what they do now.
_FULL_NAME_RX = re.compile(r"(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+\s+(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+")
_PUBLIC_LIFE_RX = re.compile(
    r"\b(?:won|wins|was\s+born|born|died|wrote|founded|invented|painted|composed|directed"
    r"|scored|starred|played|jug[óo]|jogou|gioc[òo]|spielte|joua|speelde|gan[óo]|naci[óo]"
    r"|muri[óo]|escribi[óo]|fund[óo]|invent[óo]|pint[óo]"
    r"|compuso|dirigi[óo]|ha\s+vinto|vinse|[èe]\s+nat[oa]|nacque|[èe]\s+mort[oa]|mor[ìi]"
    r"|ha\s+scritto|scrisse|ha\s+fondato|fond[òo]|gewann|gewinnt|geboren|starb|schrieb"
    r"|gr[üu]ndete|erfand|malte|komponierte|a\s+gagn[ée]|gagna|est\s+n[ée]e?|naquit"
    r"|est\s+mort|mourut|a\s+[ée]crit|[ée]crivit|a\s+fond[ée]|fonda|venceu|ganhou|nasceu"
    r"|morreu|escreveu|fundou|inventou|pintou|comp[ôo]s|werd\s+geboren|stierf"
    r"|schreef|richtte|schilderde|componeerde)\b",
    re.IGNORECASE,
)
_ANY_SECOND_PERSON_RX = re.compile(rf"(?:^|[\s,(']){_POSS}\b|\b{_SUBJ}\b", re.IGNORECASE)


def addresses_the_user(sentence: str) -> bool:
    """Whether ``sentence`` (canonical, masked) has a word that can only mean the user: a
    second-person pronoun or possessive, or one of the user's relatives by name ("your
    sister Anna"). Without one, whose fact a presupposition states is open ("Because
    Bilbo leaves the Shire", "Frida Kahlo sufrió a los 18 años un accidente", and also
    "Since Leo has football on Saturdays", "Como empiezas en Siemens en marzo")."""
    return bool(_ANY_SECOND_PERSON_RX.search(sentence) or _KIN_NAME_RX.search(sentence))


def about_someone_public(sentence: str) -> bool:
    """Whether ``sentence`` (canonical, masked) states a public life's fact (won, was
    born, wrote) of someone named in full and says nothing of the user (no second person
    in it): "Rafael Nadal ganó Roland Garros catorce veces" is no recollection."""
    full = any(
        not any(w in _NOT_NAMES or is_stop_word(w) for w in m.group().split())
        for m in _FULL_NAME_RX.finditer(sentence)
    )
    if not full or not _PUBLIC_LIFE_RX.search(sentence):
        return False
    return not (_ANY_SECOND_PERSON_RX.search(sentence) or _KIN_NAME_RX.search(sentence))
