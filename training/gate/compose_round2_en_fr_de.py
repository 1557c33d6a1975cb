#!/usr/bin/env python3
"""Compose round-2 training items (en, fr, de) for engram's clause classifier.

Deterministic, standard library only. Most items are hand-written sentences
(one per line in the blocks below); the rest come from hand-written frames
combined with hand-written topic phrases, interleaved so every frame is used.
Round 2 concentrates on hard distinctions (see TRAINING.md / LABELS.md):
about 60% benign, 15% corpus_wide, 12% query_scoped, 13% recollection.

Usage: python3 compose_round2_en_fr_de.py   (writes round2_{en,fr,de}.jsonl here)
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

TARGETS = {
    "en": {"benign": 420, "corpus_wide": 105, "query_scoped": 84, "recollection": 91},
    "fr": {"benign": 300, "corpus_wide": 75, "query_scoped": 60, "recollection": 65},
    "de": {"benign": 300, "corpus_wide": 75, "query_scoped": 60, "recollection": 65},
}
LABELS = ("benign", "corpus_wide", "query_scoped", "recollection")


def lines(block):
    return [ln.strip() for ln in block.strip().splitlines() if ln.strip()]


def cap(s):
    return s[0].upper() + s[1:] if s else s


def rotate_fill(frames, topics, step=1):
    """Frame i takes topics (k*step + i) % n in round k: every frame gets used."""
    out = []
    n = len(topics)
    for k in range(n):
        for i, fr in enumerate(frames):
            out.append(cap(fr.format(t=topics[(k * step + i) % n])))
    return out


def pair_fill(frames, pairs):
    """pairs: list of dicts; frames use named fields."""
    out = []
    n = len(pairs)
    for k in range(n):
        for i, fr in enumerate(frames):
            out.append(cap(fr.format(**pairs[(k + i) % n])))
    return out


def interleave(*groups):
    out = []
    m = max(len(g) for g in groups)
    for k in range(m):
        for g in groups:
            if k < len(g):
                out.append(g[k])
    return out


# =============================================================== ENGLISH
EN_BENIGN = lines('''
Nothing in the contract mentions pets.
The report never says who approved it.
There's no record of that flight on the airline's site.
No results came back from the web search.
Your inbox search shows no invoices from March.
The database returned 0 rows.
Google Scholar has no entries for that title.
The lease doesn't say anything about subletting.
The minutes never record who voted against.
PubMed lists no trials for that drug combination.
The registry has no record of a company by that name.
Your bank statement shows no charge from the hotel.
The court archive holds nothing from before 1950.
There's no mention of a deposit anywhere in the agreement.
The changelog never mentions the breaking change.
The airline's app shows no booking under that reference.
The shipment tracker has had no updates since Tuesday.
The recipe never tells you how long to rest the dough.
Nobody at the embassy could find your file.
The logs contain no errors after midnight.
grep returned nothing for that pattern.
Your calendar export has no events on the 14th.
The museum's catalogue has no record of the painting.
No one in the thread mentioned a budget.
The email from HR doesn't mention overtime.
The parish records from Kraków have no entry for that surname.
Amazon shows no listings for that model.
The insurance policy says nothing about flood damage.
The spreadsheet has no rows for Q2.
The witness never said she saw the car.
The press release never names the buyer.
Wikipedia has no article on that village.
The API returned an empty list.
"No items found." is what PubMed printed.
The query SELECT * FROM orders WHERE id = 42 came back empty.
The stack trace never mentions your module.
Your Drive search shows no file called budget.xlsx.
The timetable lists no train to Bern on Sundays.
The Slack channel has no messages from him since Friday.
There's no trace of the package in the DHL system.
The land register in Zürich shows no lien on the flat.
The manual never explains what the red light means.
The translation leaves out the second paragraph entirely.
The doctor's letter doesn't mention any allergies.
None of the reviews talk about noise.
The hotel's website says nothing about breakfast.
Spotify shows no podcast by that name.
Your phone's call log shows no calls from that number.
The city's open data portal has no figures for 2023.
The receipt doesn't list a tip.
I only looked at the last two weeks.
I checked our chats from this month.
I'll search your notes for it.
Let me look through our earlier conversations.
I searched the conversations from January onward.
I'm going to check what you told me about the lease.
I went through the notes tagged "travel".
My search covered only the chats since your move.
I'll look for the recipe you sent and get back to you.
I'm scanning our history for anything on Zürich.
I looked at the two conversations about your thesis.
I'll check my notes before answering.
I searched for "Falcon" and for "project F".
I'm only going back as far as last summer.
Let me pull up what we discussed about the mortgage.
I restricted the lookup to messages mentioning Kraków.
I'll run a quick search of our past chats.
I checked the notes from your last three sessions.
I'm looking at our conversations from the spring right now.
First I'll search for the flight number, then the hotel.
Once I've searched, I'll tell you what I find.
I'll check whether you mentioned the allergy before.
Let me see if we covered this in March.
I'm going to look through my notes on your thesis.
Before I answer, I'll search our chats for the address.
I'll only search conversations from this year.
I'm checking now whether you shared the recipe.
I searched the notes tagged "health" first.
So far I've looked at the chats from last week.
Next I'll check the conversations from April.
Wondering whether you ever told me your sister's name.
In case you haven't mentioned it yet, what's your budget.
Should you never have told me, I'd just ask now.
I'm curious whether we ever discussed your pension.
Not sure if you've shared your address before.
If you never mentioned the deadline, I'd have no way to know it.
Had you told me about the allergy, I'd have flagged the recipe.
Whether or not you mentioned it before, it's worth repeating.
Did you ever tell me where your parents live?
Have we talked about your visa before?
I wonder if you ever brought up your landlord.
In case we never covered it, here's how escrow works.
Unless you've told me otherwise, I'll assume two guests.
Ask me whether you've mentioned it and I'll check.
Remind me if you ever told me your blood type.
Was it you who told me about the Kyōto hotel, or someone else?
If it turns out you never told me, no harm done.
Even if you've never mentioned your diet, I can suggest options.
Suppose you never told me your dates; I'd still need them.
Perhaps you could tell me whether we've covered this.
I'm not sure whether you've told me this before.
It's possible you mentioned it and I just can't see that session.
Could you tell me again where the wedding is?
Feel free to repeat it if you've mentioned it before.
Just checking whether you ever shared your home address with me.
Have you ever told me your partner's birthday?
Would you mind telling me the launch date again?
Did you never tell me about Rome?
Your landlord said nobody told him about the leak.
The bank says it has no record of the transfer.
Your doctor told you there was nothing on the scan.
Your sister claims she never got the invitation.
The airline insists you never checked in.
Your manager said no one had read the proposal.
According to the clerk, nothing was ever filed.
The plumber told you he never received the deposit.
Your neighbour says she never saw the parcel.
The school says it has no note about the absence.
Your colleague wrote that nobody mentioned the outage.
The vet said there's no sign of infection.
Your accountant claims she never got the receipts.
The police told you nobody reported the bike stolen.
The hotel replied that they have no reservation under your name.
You just asked about your flight to Zürich.
In your message you mention a budget of 3,000 euros.
The text you pasted doesn't mention a deadline.
Your question is about the lease, not the deposit.
The email you pasted says nobody approved it.
You wrote above that the meeting is on Friday.
In the log you pasted, there are no errors after 14:02.
The screenshot you shared shows zero results.
Your message doesn't say which city you mean.
The paragraph you quoted never names the author.
You're asking whether the contract covers pets.
From what you've written here, the deadline is Monday.
The CSV you attached has no header row.
Your last line says "nothing found", which is the script's output.
In this message you say you've never been to Lisbon.
Right now you're telling me the trip is off.
The SQL output you pasted reads "0 rows affected".
You're telling me now that you never liked Rome.
I can't access your calendar.
My memory search timed out, so I can't tell whether you mentioned it.
I only searched part of our history and may have missed it.
The lookup failed, so I don't know yet.
I don't have access to your email.
My notes from before June aren't available right now.
The memory service is down, so I can't check what you told me.
I can't browse the airline's site for you.
I haven't searched yet, so I can't say.
The search is still running.
I can't see attachments from earlier sessions.
My search only covered titles, so details may be missing.
I couldn't run the search because the index is rebuilding.
You don't need a visa for Japan.
Don't forget to bring your passport.
There's never traffic in Rome at 6 a.m.
The function never returns null.
Nobody knows the answer for sure.
You never have to pay for the first bag on that route.
There's no direct train to Bern from here.
Never store passwords in plain text.
No one expects you to finish by Friday.
You shouldn't mention your salary in the interview.
Nothing beats a walk after lunch.
You haven't missed anything important in the film.
There's no need to apologize.
You never need to tell me anything you'd rather keep private.
That museum has no entry fee on Sundays.
The pharmacy in São Paulo doesn't open until nine.
A lease that says nothing about pets usually defaults to the house rules.
If the search returns nothing, check the spelling first.
No news from the clinic is usually good news.
Nothing needs to change in your code.
The Kraków office never closes for lunch.
You don't have to share your address with me.
There are no ferries to the island in winter.
Most tourists never visit the old town at night.
The cat never eats dry food, according to the breeder.
The buses in Rome never run on time.
Tell me about Rome whenever you're ready.
print("no results found for", query)
ERROR: no entries found for key 'user_42'
Query OK, 0 rows returned (0.01 sec)
return [] if not matches else matches
grep: no matches found
404 Not Found: no record with that ID
assert len(results) == 0, "expected no results"
No items found.
Your search - kraków flats 2 rooms - did not match any documents.
if not rows: print("nothing to report")
The test output says "0 passed, 0 failed".
SELECT count(*) FROM invoices returned 0.
Empty set (0.00 sec)
I searched the web for Rome hotels and found nothing under 100 euros.
I searched the web for your flight number and found nothing.
The airline's search for your booking came back empty.
Your Gmail search for "Kraków" came back empty.
My web search returned no results for that quote.
A Google search for the startup's name turns up nothing.
I looked for reviews of the clinic online and found none.
Nothing turned up on the shipping site for that tracking number.
The company register lists no director by that name.
Your Notion workspace has no page called "Budget".
The hospital's portal shows no appointments for you.
The flight database has no record of LX 318 on that date.
No one has ever climbed that face in winter.
She never told anyone about the move.
Your brother never mentioned the debt to your parents.
Nobody ever told the tenants about the renovation.
The contract never says the deposit is refundable.
There is no clause about early termination.
The invoice never mentions VAT.
The README says nothing about Windows support.
Your doctor's notes never mention the knee.
The itinerary doesn't list a hotel for the second night.
That forum thread has no replies yet.
Your landlord's email never mentions the rent increase.
The weather service has no data for that station before 1990.
None of the flats on the list allow dogs.
The 北京 office has no public phone number.
''')

EN_CW = lines('''
You never told me your dates, so I can't book.
I might be wrong, but you never mentioned it.
You never told me your sister's name.
We've never talked about your move before.
You haven't shared your address with me.
This is the first time you've brought up your landlord.
I have no record at all of you mentioning a dog.
As far as I know, we never discussed the wedding budget.
Maybe you just never told me your blood type.
You've never once mentioned a partner to me.
Nothing you've ever told me mentions Kraków.
I don't think you've ever told me where you work.
You never gave me the launch date, so I guessed.
Since you never mentioned allergies, I didn't account for them.
Your thesis topic has never come up between us.
Not once have you told me about your brother.
In all our conversations, you've never named your employer.
Correct me if I'm wrong, but you never said which hotel.
You didn't ever tell me the flight number.
There's nothing in my memory about your car.
My memory of you holds nothing about pets.
You've never shared any health details with me.
We've never once discussed your salary.
Everything you've told me so far says nothing about a deadline.
You had never mentioned São Paulo before today.
Nowhere in our history did you mention a visa.
I'm fairly sure you never told me your budget.
You never actually said when the move happens.
I've got nothing at all on your landlord from our chats.
Across all our sessions, your pension never came up.
Your partner's name is something you've never shared.
Honestly, you never told me about the surgery, so this is news.
I believe you've never mentioned any children.
We never got around to discussing your diet.
You never brought up the loan, so I assumed there wasn't one.
To my knowledge, you haven't ever told me your age.
Your grandmother's recipe never came up in anything you told me.
You hadn't mentioned the trip to 北京 until now.
None of our previous conversations touch on your tax return.
You've never told me which team you lead.
I don't recall you ever mentioning Zürich.
You never said a word to me about the divorce.
Our past chats contain nothing about your car insurance.
You've not once shared the address of the venue.
You never mentioned being vegetarian, so the menu includes meat.
It seems you never told me the deadline.
As best I can tell, you never shared your bank's name.
You never let me know your dates, which is why I waited.
Up to now you've never mentioned a cat.
There's no trace in my memory of you discussing the Kyōto hotel.
To put it plainly: you never told me your budget.
You never described your symptoms to me before.
I may be misremembering, but we've never talked about Lisbon.
Your plans for the summer have never come up with me.
You never told me, so I couldn't have known about the allergy.
We haven't ever spoken about your manager.
Your mother's maiden name isn't something you've ever shared.
I have nothing stored about your piano lessons.
You never mentioned the second flat, so I only counted one.
You never told me about Rome.
''')

EN_QS = lines('''
I looked for your flight number and found nothing.
My search of our past chats returned no results.
Nothing turned up when I checked my notes for "Falcon".
I couldn't find the recipe you sent.
I checked our chats from this month and found nothing about the lease.
I only looked at the last two weeks, and nothing came up.
A quick search of our history for "Kraków" came back empty.
The memory lookup returned zero matches for your landlord's name.
I searched my notes for the hotel and got no hits.
My search for your sister's name didn't turn anything up.
I went through our conversations from March and found no mention of the deposit.
Searching our earlier chats for the launch date gave me nothing.
I might be wrong, but my search for your allergy found nothing.
The lookup came back empty, so I'll need the address again.
I tried "São Paulo" and "Sao Paulo" in our history; neither matched.
Nothing in the notes I searched mentions your dentist.
My check of last week's session found no deadline.
I didn't find your tax number in the chats I searched.
The search over our past conversations for "mortgage" returned nothing.
I looked through the notes tagged "travel" and found nothing on Zürich.
No results came back when I searched my memory for your blood type.
I couldn't locate the message where you gave me the PIN.
Your grandmother's recipe didn't show up when I searched.
Searching for "thesis" in our history brought up nothing.
I ran a search for your partner's birthday and it came back blank.
My lookup on your car insurance found no entries.
I couldn't find anything about the wedding venue in our recent chats.
I've searched for the project name twice and found nothing.
The query on my notes for "Heidi" matched nothing.
When I checked for your visa details, nothing came up.
I went looking for the booking reference but found nothing.
The conversations I searched don't contain your home address.
I found no hits for "pension" in our chats from this year.
I didn't turn up anything when I searched for your manager's name.
My search turned up nothing on your insurer, so I'll ask.
There were no matches in my memory search for the clinic.
I checked, and there's nothing about the refund in the notes I looked at.
Nothing came back from my search for the Kyōto hotel.
If I'm not mistaken, the search for your salary found no results.
I searched for "北京" in our history and got nothing.
I dug through our earlier chats for the rent figure and came up empty.
The search I just ran for your marathon time found nothing.
None of the chats I searched mention your knee surgery.
I scanned the last three sessions and saw nothing about the loan.
I checked my notes on your book club, but there were no entries.
Your startup's name didn't appear anywhere in my search results.
Looking back through this month's chats, I found no reference to the dog.
I searched, but no note about your diet showed up.
Both of my searches for the invoice number came up dry.
I searched for the password hint and found nothing, so I can't help with that.
''')

EN_REC = lines('''
We talked about your move to Kraków in the spring.
On 12 March you said the launch is in Q3.
You told me your sister is Anna.
As you mentioned last week, your rent is going up.
Last time you said you hated cilantro.
Your dog Heidi, whom you mentioned, might not like the heat.
You once told me you grew up in Porto.
You mentioned before that you're allergic to penicillin.
In our chat about the wedding, you set the budget at 15,000.
Back in January you told me you'd started a new job.
You said a while ago that your flight lands at seven.
As you told me earlier this month, your thesis is due in June.
I remember you saying your brother lives in Reykjavík.
From our previous conversations, I know you're vegetarian.
You've told me before that you run every morning.
Your partner Léa, who you mentioned in April, works in Lyon.
Last month you said the car needed new brakes.
You shared your grandmother's recipe with me at Christmas.
We discussed your knee surgery back in the autumn.
You told me you never liked Rome.
You've mentioned that your landlord is slow with repairs.
In a previous chat you told me your daughter starts school in September.
If I recall correctly, you said the meeting moved to Tuesday.
As you said the other day, the kids are off school next week.
You told me your blood type is O negative.
Two weeks ago you mentioned the hotel in Kyōto was fully booked.
We already covered your pension options in February.
You said last summer that you wanted to learn piano.
Your cat Miso, who you've told me about, is on a special diet.
You've mentioned several times that you work nights.
As we discussed before, the deposit is 2,000 euros.
When we last spoke, you were waiting on the visa.
You let me know back in May that your mother had surgery.
You told me the startup is called Lumen.
From what you told me, your manager is named Priya.
I recall you mentioning a trip to 北京 in October.
You said in our last session that the deadline is the 30th.
Remember, you told me you're saving for a flat in Zürich.
You've previously said you can't eat gluten.
We spoke about your marathon training a few weeks ago.
You told me your home office is in the attic.
Since you told me you're allergic to nuts, I left them out.
Based on what you shared last time, the budget is tight.
As you put it last week, the project is "on fire".
You mentioned your accountant back in March.
You told me once that your father was a pilot.
Like you said before, your flat in São Paulo has no balcony.
You told me nobody in your family drinks coffee.
Last week you said you'd never been to Lisbon.
I remember that your book club meets on Thursdays.
You said your son's name is Tomás.
Going by our chat in June, you prefer window seats.
You once mentioned that your boss never reads the reports.
You told me in December that the move was postponed.
As you explained in an earlier conversation, your insurer is Allianz.
''')

EN_TOPICS = [
    "your sister", "your move to Kraków", "your flight to Zürich",
    "your allergy to penicillin", "your landlord", "your dog", "your wedding budget",
    "your new job in São Paulo", "your dentist appointment", "your daughter's school",
    "your mortgage rate", "your thesis deadline", "your trip to 北京", "your knee surgery",
    "your vegetarian diet", "your car insurance", "your brother in Reykjavík",
    "the launch date", "your salary", "your team lead", "your piano teacher",
    "your visa application", "your tax return", "your grandmother's recipe",
    "your startup's name", "your marathon training", "your home address",
    "your blood type", "your book club", "your rent increase", "your hotel in Kyōto",
    "your pension plan", "your partner's birthday", "your Python project",
]

EN_CW_FRAMES = [
    "you never told me about {t}.",
    "you've never mentioned {t} to me.",
    "we've never talked about {t}.",
    "I might be wrong, but you never mentioned {t}.",
    "as far as I can tell, {t} has never come up between us.",
    "nothing you've shared with me covers {t}.",
    "you never brought up {t} in any of our chats.",
    "I think you never told me about {t}.",
    "you never mentioned {t}, so I can't factor it in.",
    "there's nothing about {t} in anything you've told me.",
    "this is the first time you've brought up {t}.",
    "I have no memory at all of you mentioning {t}.",
    "honestly, I don't think we've ever discussed {t}.",
]
EN_QS_FRAMES = [
    "I searched our past chats for {t} and found nothing.",
    "my lookup for {t} came back empty.",
    "a search of my notes for {t} returned no results.",
    "nothing turned up when I checked our history for {t}.",
    "I looked for {t} in our earlier conversations but got no hits.",
    "the memory search for {t} returned zero matches.",
    "I checked our chats from this month for {t} and came up empty.",
    "searching my notes for {t} gave me nothing, so I'll need it again.",
    "if I'm not mistaken, my search for {t} found nothing.",
    "my query for {t} matched nothing in our history.",
]
EN_BENIGN_FRAMES = [
    "wondering whether you ever told me about {t}.",
    "in case you haven't mentioned {t} yet, now's a good time.",
    "should you never have told me about {t}, I'd simply ask.",
    "if you've never mentioned {t}, I'd have no way of knowing.",
    "did you ever tell me about {t}?",
    "I'll search your notes for {t}.",
    "let me check our earlier chats for {t}.",
    "for {t}, I only searched the chats from this month.",
    "my search for {t} timed out, so I can't say either way.",
    "you just asked about {t}.",
    "in your message you bring up {t}.",
    "tell me about {t} whenever you like.",
    "I'm not sure whether you've mentioned {t} before.",
    "if you did tell me about {t}, that session isn't available to me right now.",
]
EN_REC_TOPIC_FRAMES = [
    "we talked about {t} a few weeks ago.",
    "you brought up {t} in our chat last month.",
    "you mentioned {t} back in March.",
    "you told me about {t} in the spring.",
]
EN_FACTS = [
    "your sister Anna lives in Graz", "the launch is planned for Q3",
    "you're allergic to peanuts", "your dog Heidi is scared of thunder",
    "your rent went up to 1,200 euros", "your daughter starts school in September",
    "you work nights at the hospital", "your flight lands in Zürich at seven",
    "your grandmother was born in Porto", "you can't stand cilantro",
    "your brother studies in Reykjavík", "you're moving to Kraków this summer",
]
EN_FACT_FRAMES = [
    "as you mentioned last week, {t}.",
    "you told me back in March that {t}.",
    "last time we spoke, you said {t}.",
    "from what you told me before, {t}.",
    "you mentioned a while ago that {t}.",
    "going by what you shared in our last conversation, {t}.",
    "on 3 February you said {t}.",
    "you once told me {t}.",
]
EN_DOCS = [
    {"d": "the contract", "x": "pets"}, {"d": "the lease", "x": "parking"},
    {"d": "the report", "x": "the signatory"}, {"d": "the manual", "x": "the warranty"},
    {"d": "the invoice", "x": "late fees"}, {"d": "the insurance policy", "x": "theft abroad"},
    {"d": "the HR email", "x": "remote work"}, {"d": "the README", "x": "Python 3.12"},
    {"d": "the meeting minutes", "x": "the budget cut"}, {"d": "the job ad", "x": "the salary"},
    {"d": "the tenancy agreement", "x": "the deposit"}, {"d": "the school newsletter", "x": "the strike"},
]
EN_DOC_FRAMES = [
    "nothing in {d} mentions {x}.",
    "{d} says nothing about {x}.",
    "there's no mention of {x} anywhere in {d}.",
    "{d} never refers to {x}.",
]
EN_SITES = [
    {"s": "Google Scholar", "q": "Kraków housing 1952"}, {"s": "PubMed", "q": "Lynch syndrome aspirin trial"},
    {"s": "the airline's site", "q": "LX 318"}, {"s": "the company register", "q": "Lumen GmbH"},
    {"s": "Amazon", "q": "Zürich tram map poster"}, {"s": "LinkedIn", "q": "Heidi Berger"},
    {"s": "your Gmail", "q": "invoice 2023-114"}, {"s": "the library catalogue", "q": "São Paulo modernism"},
    {"s": "the weather archive", "q": "Reykjavík 1998"},
]
EN_SITE_FRAMES = [
    "{s} has no results for \"{q}\".",
    "a search on {s} for \"{q}\" returned nothing.",
    "no entries came up on {s} for \"{q}\".",
]

# =============================================================== FRENCH
FR_BENIGN = lines('''
Rien dans le contrat ne parle des animaux.
Le rapport ne dit jamais qui l'a validé.
Il n'y a aucune trace de ce vol sur le site de la compagnie.
La recherche web n'a rien donné.
La recherche dans ta boîte mail ne montre aucune facture.
La requête a renvoyé 0 ligne.
Google Scholar n'a aucune entrée pour ce titre.
La banque dit n'avoir aucune trace du virement.
Ton propriétaire dit que personne ne l'a prévenu.
Au cas où tu ne me l'aurais pas dit, donne-moi tes dates.
Est-ce que tu m'as déjà parlé de ta sœur
Je me demande si tu m'as déjà parlé de ton déménagement.
Si tu ne m'en as jamais parlé, je ne peux pas le savoir.
Je n'ai regardé que les deux dernières semaines.
J'ai vérifié nos échanges de ce mois-ci.
Je vais chercher dans tes notes.
Le bail ne mentionne nulle part la sous-location.
Le procès-verbal ne précise pas qui a voté contre.
PubMed n'affiche aucun essai pour cette association.
Le registre du commerce ne connaît aucune société de ce nom.
Ton relevé bancaire ne montre aucun débit de l'hôtel.
Le journal des modifications ne signale jamais ce changement.
L'appli SNCF n'affiche aucune réservation à ce numéro.
Le suivi du colis n'a rien de nouveau depuis mardi.
La recette ne dit jamais combien de temps laisser reposer la pâte.
Les logs ne contiennent aucune erreur après minuit.
grep n'a rien trouvé pour ce motif.
Ton agenda exporté n'a aucun événement le 14.
Le catalogue du musée n'a aucune trace du tableau.
Personne dans le fil n'a parlé de budget.
Le mail des RH ne parle pas des heures sup.
Les registres paroissiaux de Kraków n'ont aucune entrée pour ce nom.
Le contrat d'assurance ne dit rien des dégâts des eaux.
Le tableur n'a aucune ligne pour le deuxième trimestre.
Le témoin n'a jamais dit avoir vu la voiture.
Le communiqué ne nomme jamais l'acheteur.
Wikipédia n'a pas d'article sur ce village.
L'API a renvoyé une liste vide.
« Aucun résultat » : c'est ce qu'affiche PubMed.
La trace d'erreur ne mentionne jamais ton module.
Ton Drive ne contient aucun fichier nommé budget.xlsx.
Il n'y a pas de train direct pour Berne le dimanche.
La Poste n'a aucune trace du recommandé.
Le registre foncier de Zürich n'indique aucune hypothèque sur l'appartement.
Le mode d'emploi n'explique jamais ce que signifie le voyant rouge.
La lettre du médecin ne mentionne aucune allergie.
Aucun des avis ne parle du bruit.
Le site de l'hôtel ne dit rien sur le petit-déjeuner.
Ton journal d'appels ne montre aucun appel de ce numéro.
Le ticket de caisse n'indique pas de pourboire.
Je n'ai cherché que dans nos conversations depuis janvier.
Je vais regarder ce que tu m'as dit sur le bail.
J'ai parcouru les notes marquées « voyage ».
Ma recherche ne portait que sur les échanges depuis ton déménagement.
Je vais retrouver la recette que tu m'as envoyée et je reviens vers toi.
Je passe en revue notre historique pour tout ce qui concerne Zürich.
J'ai regardé les deux conversations sur ta thèse.
Je vérifie mes notes avant de répondre.
J'ai cherché « Falcon » puis « projet F ».
Je ne remonte que jusqu'à l'été dernier.
Laisse-moi retrouver ce qu'on s'est dit sur le prêt immobilier.
Je vais lancer une recherche rapide dans nos anciens échanges.
J'ai consulté les notes de tes trois dernières séances.
Je commence par le numéro de vol, ensuite l'hôtel.
Je vais voir si tu m'as déjà parlé de ton allergie.
Je regarde tout de suite si on en a discuté en mars.
Avant de répondre, je cherche l'adresse dans nos échanges.
Pour l'instant, j'ai seulement parcouru les échanges de la semaine dernière.
Je me demandais si tu m'avais déjà donné ton groupe sanguin.
Au cas où on n'en aurait jamais parlé, voici comment fonctionne le séquestre.
Si jamais tu ne me l'as pas dit, aucun souci.
Tu m'as déjà parlé de ton frère ?
Est-ce qu'on a déjà abordé la question de ta retraite ?
Je ne sais pas si tu m'as déjà donné ton adresse.
Si tu me l'avais dit, j'aurais signalé la recette.
Que tu me l'aies déjà dit ou non, ça vaut la peine de le répéter.
Je me demande si tu as déjà évoqué ton propriétaire.
À moins que tu m'aies dit autre chose, je compte deux personnes.
Dis-moi si tu m'en as déjà parlé, je vérifierai.
Même si tu ne m'as jamais parlé de ton régime, je peux proposer des options.
Supposons que tu ne m'aies jamais donné tes dates : il me les faudrait quand même.
Tu pourrais me redire où a lieu le mariage ?
N'hésite pas à le répéter si tu me l'as déjà dit.
Pour savoir si tu m'en as parlé, il faudrait que je cherche.
Est-ce que vous m'avez déjà indiqué votre numéro de dossier
Vous m'avez déjà parlé de votre notaire ?
Si vous ne m'avez jamais communiqué vos dates, je ne pourrai rien réserver.
Au cas où vous ne l'auriez pas encore mentionné, précisez la ville.
Ta sœur affirme n'avoir jamais reçu l'invitation.
La compagnie soutient que tu ne t'es jamais enregistré.
Ton chef a dit que personne n'avait lu la proposition.
D'après le greffier, rien n'a jamais été déposé.
Le plombier t'a dit qu'il n'avait jamais reçu l'acompte.
Ta voisine dit qu'elle n'a jamais vu le colis.
L'école dit n'avoir aucun mot concernant l'absence.
Le vétérinaire dit qu'il n'y a aucun signe d'infection.
La comptable prétend n'avoir jamais reçu les justificatifs.
La police t'a dit que personne n'avait signalé le vol du vélo.
L'hôtel répond qu'il n'a aucune réservation à ton nom.
Ton médecin t'a dit que l'IRM ne montrait rien.
Tu viens de me poser une question sur ton vol pour Zürich.
Dans ton message, tu parles d'un budget de 3 000 euros.
Le texte que tu as collé ne mentionne aucune date limite.
Le mail que tu as collé dit que personne ne l'a approuvé.
Tu écris plus haut que la réunion est vendredi.
Dans le log que tu as collé, il n'y a aucune erreur après 14 h 02.
Ta capture d'écran montre zéro résultat.
Ton message ne précise pas de quelle ville il s'agit.
Le passage que tu cites ne nomme jamais l'auteur.
Tu me demandes si le contrat couvre les animaux.
Dans ce message, tu dis n'être jamais allé à Lisbonne.
Là, tu m'annonces que le voyage est annulé.
La sortie SQL que tu as collée indique « 0 ligne affectée ».
Le fichier CSV joint n'a pas de ligne d'en-tête.
Là, tu me dis que tu n'as jamais aimé Rome.
Je n'ai pas accès à ton agenda.
Ma recherche dans la mémoire a expiré, je ne peux donc pas savoir si tu me l'as dit.
Je n'ai fouillé qu'une partie de notre historique, j'ai pu passer à côté.
La recherche a échoué, je ne sais pas encore.
Je ne peux pas consulter tes mails.
Mes notes d'avant juin ne sont pas disponibles pour le moment.
Le service de mémoire est en panne, je ne peux pas vérifier.
Je n'ai pas encore cherché, donc je ne peux rien affirmer.
La recherche est toujours en cours.
L'index est en reconstruction, la recherche n'a pas pu tourner.
Tu n'as pas besoin de visa pour le Japon.
N'oublie pas ton passeport.
Il n'y a jamais de bouchons à Rome à six heures du matin.
Cette fonction ne renvoie jamais null.
Personne ne connaît la réponse avec certitude.
Ne stocke jamais de mots de passe en clair.
Personne n'attend de toi que tu finisses vendredi.
Rien ne vaut une balade après le déjeuner.
Pas besoin de t'excuser.
Tu n'es jamais obligé de me dire ce que tu préfères garder pour toi.
Le musée est gratuit le premier dimanche du mois.
La pharmacie de São Paulo n'ouvre pas avant neuf heures.
Si la recherche ne renvoie rien, vérifie d'abord l'orthographe.
Pas de nouvelles de la clinique, c'est souvent bon signe.
Il n'y a pas de ferry pour l'île en hiver.
Tu n'es pas obligée de me donner ton adresse.
print("aucun résultat pour", requete)
ERREUR : aucune entrée trouvée pour la clé 'user_42'
Requête OK, 0 ligne retournée (0,01 s)
Aucun élément trouvé.
Votre recherche - appartement Kraków 2 pièces - ne correspond à aucun document.
if not rows: print("rien à signaler")
Ensemble vide (0,00 s)
J'ai cherché ton numéro de vol sur le web et je n'ai rien trouvé.
Une recherche Google sur le nom de la start-up ne donne rien.
Je n'ai trouvé aucun avis en ligne sur cette clinique.
Le site du transporteur n'affiche rien pour ce numéro de suivi.
Le portail de l'hôpital n'affiche aucun rendez-vous pour toi.
Personne n'a jamais gravi cette face en hiver.
Elle n'a jamais parlé du déménagement à personne.
Ton frère n'a jamais parlé de la dette à vos parents.
Le contrat ne dit jamais que la caution est remboursable.
La facture ne mentionne jamais la TVA.
Le README ne dit rien sur Windows.
Le dossier médical ne mentionne jamais le genou.
L'itinéraire n'indique pas d'hôtel pour la deuxième nuit.
Raconte-moi Rome quand tu veux.
Tu ne m'as jamais parlé de Rome ?
Les bus à Rome ne sont jamais à l'heure.
Je ne suis pas sûr que tu m'aies déjà parlé de ta retraite.
Le mail de ton propriétaire ne parle jamais de la hausse du loyer.
Aucun des appartements de la liste n'accepte les chiens.
''')

FR_CW = lines('''
Tu ne m'as jamais donné tes dates, donc je ne peux pas réserver.
Je me trompe peut-être, mais tu ne me l'as jamais dit.
Tu ne m'as jamais dit comment s'appelle ta sœur.
On n'a jamais parlé de ton déménagement.
Tu ne m'as pas communiqué ton adresse.
C'est la première fois que tu me parles de ton propriétaire.
Je n'ai aucune trace de toi mentionnant un chien.
À ma connaissance, on n'a jamais abordé le budget du mariage.
Tu ne m'as jamais parlé d'un conjoint.
Rien de ce que tu m'as raconté ne concerne Kraków.
Je ne crois pas que tu m'aies jamais dit où tu travailles.
Comme tu ne m'as jamais parlé d'allergies, je n'en ai pas tenu compte.
Ton sujet de thèse n'est jamais venu dans nos échanges.
Pas une seule fois tu ne m'as parlé de ton frère.
Dans toutes nos conversations, tu n'as jamais nommé ton employeur.
Corrige-moi si je me trompe, mais tu n'as jamais précisé l'hôtel.
Il n'y a rien dans ma mémoire sur ta voiture.
Tu ne m'as jamais confié le moindre détail sur ta santé.
On n'a jamais discuté de ton salaire.
Tu n'avais jamais évoqué São Paulo avant aujourd'hui.
Nulle part dans notre historique tu ne parles de visa.
Je suis presque sûr que tu ne m'as jamais donné ton budget.
Je n'ai absolument rien sur ton propriétaire.
Le prénom de ta compagne, tu ne me l'as jamais donné.
Franchement, tu ne m'avais jamais parlé de l'opération.
Sauf erreur de ma part, vous ne m'avez jamais indiqué votre date de naissance.
Vous ne m'avez jamais parlé de vos enfants.
Tu n'as jamais parlé de ce prêt, alors j'ai supposé qu'il n'y en avait pas.
Il me semble que tu ne m'as jamais parlé de ta retraite.
La recette de ta grand-mère, tu ne me l'as jamais transmise.
Avant aujourd'hui, tu n'avais jamais mentionné le voyage à 北京.
Aucune de nos conversations précédentes ne touche à ta déclaration d'impôts.
Je ne me souviens pas que tu m'aies jamais parlé de Zürich.
Tu ne m'en as jamais soufflé mot.
Nos anciens échanges ne contiennent rien sur ton assurance auto.
Tu ne m'as jamais dit que tu étais végétarien, alors le menu contient de la viande.
Jusqu'ici, tu ne m'as jamais parlé d'un chat.
Je n'ai rien en mémoire concernant tes cours de piano.
Tu ne m'as jamais décrit tes symptômes.
Je confonds peut-être, mais on n'a jamais parlé de Lisbonne.
Vos projets pour l'été n'ont jamais été évoqués entre nous.
Tu ne me l'avais jamais dit, je ne pouvais donc pas être au courant de l'allergie.
Le nom de ta banque ne figure nulle part dans ce que tu m'as confié.
Tu ne m'as jamais tenu au courant de tes dates, d'où mon attente.
Tu ne m'as jamais parlé de Rome.
''')

FR_QS = lines('''
J'ai cherché ton numéro de vol et je n'ai rien trouvé.
Ma recherche dans nos anciennes conversations n'a rien donné.
Rien n'est ressorti quand j'ai cherché « Falcon » dans mes notes.
Je n'ai pas retrouvé la recette que tu m'as envoyée.
J'ai vérifié nos échanges de ce mois-ci et je n'ai rien trouvé sur le bail.
Je n'ai regardé que les deux dernières semaines, et rien n'est sorti.
Une recherche rapide de « Kraków » dans notre historique est revenue vide.
La recherche en mémoire ne donne aucun résultat pour le nom de ton propriétaire.
J'ai fouillé mes notes pour l'hôtel, sans résultat.
Ma recherche sur le prénom de ta sœur n'a rien fait remonter.
J'ai parcouru nos conversations de mars sans trouver la moindre mention de la caution.
Je me trompe peut-être, mais ma recherche sur ton allergie n'a rien donné.
La recherche est revenue vide, il me faudrait donc de nouveau l'adresse.
J'ai essayé « São Paulo » et « Sao Paulo » dans notre historique : aucune correspondance.
Aucune des notes que j'ai consultées ne parle de ton dentiste.
En vérifiant la séance de la semaine dernière, je n'ai trouvé aucune date limite.
Ton numéro fiscal n'apparaît pas dans les échanges que j'ai parcourus.
J'ai cherché « prêt immobilier » dans nos conversations : rien.
Je n'ai rien trouvé sur Zürich dans les notes marquées « voyage ».
Impossible de retrouver le message où tu m'as donné le code.
La recette de ta grand-mère n'est pas ressortie de ma recherche.
En cherchant « thèse » dans notre historique, je ne tombe sur rien.
J'ai lancé une recherche sur l'anniversaire de ta compagne : chou blanc.
Ma requête sur ton assurance auto n'a renvoyé aucune entrée.
Je n'ai rien trouvé sur le lieu du mariage dans nos échanges récents.
J'ai cherché deux fois le nom du projet, sans succès.
Quand j'ai vérifié les détails de ton visa, rien n'est remonté.
J'ai cherché la référence de réservation, mais je ne l'ai pas trouvée.
Sauf erreur, ma recherche sur ton salaire est restée sans résultat.
J'ai cherché « 北京 » dans notre historique et rien n'est sorti.
J'ai épluché nos anciens échanges pour le montant du loyer, en vain.
Aucune des conversations que j'ai fouillées ne mentionne ton opération du genou.
J'ai passé en revue les trois dernières séances : rien sur le prêt.
Le nom de ta start-up n'apparaît nulle part dans les résultats de ma recherche.
J'ai cherché votre numéro de contrat dans nos échanges, sans rien trouver.
Mes deux recherches sur le numéro de facture sont restées vides.
J'ai cherché l'indice du mot de passe sans rien trouver, je ne peux donc pas t'aider.
''')

FR_REC = lines('''
On a parlé de ton déménagement à Kraków au printemps.
Le 12 mars, tu m'as dit que le lancement était prévu au troisième trimestre.
D'après ce que tu m'as raconté, ta sœur s'appelle Anna.
Comme tu me l'as dit la semaine dernière, ton loyer augmente.
La dernière fois, tu m'as dit que tu détestais la coriandre.
Ta chienne Heidi, dont tu m'as parlé, risque de mal supporter la chaleur.
Tu m'as raconté un jour que tu avais grandi à Porto.
Tu m'as déjà dit que tu étais allergique à la pénicilline.
Quand on a parlé du mariage, tu as fixé le budget à 15 000 euros.
En janvier, tu m'avais annoncé ton nouveau poste.
Comme tu me l'avais précisé ce mois-ci, ta thèse est à rendre en juin.
Je me souviens que ton frère vit à Reykjavík.
D'après nos conversations précédentes, tu es végétarien.
Tu m'avais dit que tu courais tous les matins.
Ta compagne Léa, dont tu m'as parlé en avril, travaille à Lyon.
Le mois dernier, tu disais que la voiture avait besoin de freins neufs.
Tu m'as confié la recette de ta grand-mère à Noël.
On avait parlé de ton opération du genou cet automne.
Tu m'avais dit que tu n'avais jamais aimé Rome.
Si je me souviens bien, tu m'avais dit que la réunion passait au mardi.
Vous m'aviez indiqué que votre groupe sanguin était O négatif.
Il y a deux semaines, tu m'as dit que l'hôtel de Kyōto était complet.
Nous avions déjà passé en revue vos options de retraite en février.
L'été dernier, tu voulais te mettre au piano, tu me l'avais dit.
Ton chat Miso, dont tu m'as parlé, suit un régime spécial.
Tu m'as répété plusieurs fois que tu travaillais de nuit.
Comme on l'avait vu ensemble, la caution est de 2 000 euros.
La dernière fois qu'on s'est parlé, tu attendais ton visa.
En mai, tu m'avais appris que ta mère avait été opérée.
Tu m'avais dit que la start-up s'appelait Lumen.
Selon ce que tu m'avais dit, ta responsable s'appelle Priya.
Je me rappelle que tu avais évoqué un voyage à 北京 en octobre.
Lors de notre dernière séance, tu as dit que la date limite était le 30.
Souviens-toi, tu m'avais dit que tu économisais pour un appartement à Zürich.
Tu m'avais déjà expliqué que tu ne mangeais pas de gluten.
Puisque tu m'as dit être allergique aux noix, je les ai retirées.
Comme tu l'avais dit la semaine dernière, le projet est « en feu ».
Tu m'avais raconté que personne dans ta famille ne boit de café.
La semaine dernière, tu m'as dit n'être jamais allé à Lisbonne.
Tu m'as dit une fois que ton patron ne lit jamais les rapports.
Vous m'aviez expliqué, lors d'un échange précédent, que votre assureur est la MAIF.
''')

FR_TOPICS = [
    "ta sœur", "ton déménagement à Kraków", "ton vol pour Zürich",
    "ton allergie à la pénicilline", "ton propriétaire", "ton chien",
    "ton budget pour le mariage", "ton nouveau poste à São Paulo",
    "ton rendez-vous chez le dentiste", "l'école de ta fille", "ton taux d'emprunt",
    "ta date de soutenance", "ton voyage à 北京", "ton opération du genou",
    "ton régime végétarien", "ton assurance auto", "ton frère à Reykjavík",
    "ton salaire", "ta responsable", "tes cours de piano", "ta demande de visa",
    "ta déclaration d'impôts", "la recette de ta grand-mère",
    "ton entraînement pour le marathon", "ton adresse", "ton groupe sanguin",
    "ton club de lecture", "la hausse de ton loyer", "ton hôtel à Kyōto",
    "ta retraite", "l'anniversaire de ta compagne", "ton projet Python",
]
FR_CW_FRAMES = [
    "tu ne m'as jamais parlé de {t}.",
    "on n'a jamais discuté de {t}.",
    "je me trompe peut-être, mais tu n'as jamais évoqué {t}.",
    "à ma connaissance, tu ne m'as jamais rien dit sur {t}.",
    "tu ne m'as jamais parlé de {t}, donc je ne peux pas en tenir compte.",
    "c'est la première fois que tu évoques {t}.",
    "dans aucune de nos conversations tu n'as mentionné {t}.",
    "il me semble que tu n'as jamais mentionné {t}.",
    "rien de ce que tu m'as confié ne concerne {t}.",
]
FR_QS_FRAMES = [
    "j'ai cherché ce qui concerne {t} dans nos échanges, sans rien trouver.",
    "ma recherche sur {t} n'a rien donné.",
    "je n'ai rien trouvé sur {t} dans les conversations de ce mois-ci.",
    "la recherche dans mes notes sur {t} est revenue vide.",
    "j'ai fouillé nos anciens échanges à propos de {t}, en vain.",
    "sauf erreur, ma recherche sur {t} n'a donné aucun résultat.",
    "ma recherche sur {t} est revenue vide, il me faudra donc des précisions.",
]
FR_BENIGN_FRAMES = [
    "je me demande si tu m'as déjà parlé de {t}.",
    "est-ce que tu m'as déjà parlé de {t}",
    "au cas où tu ne m'aurais pas encore parlé de {t}, vas-y.",
    "si tu ne m'as jamais parlé de {t}, je ne peux pas le deviner.",
    "tu m'as déjà parlé de {t} ?",
    "je vais chercher dans tes notes ce qui concerne {t}.",
    "pour {t}, je n'ai regardé que les échanges de ce mois-ci.",
    "ma recherche sur {t} a expiré, je ne peux rien dire pour l'instant.",
    "tu viens de me poser une question sur {t}.",
    "dans ton message, tu évoques {t}.",
    "parle-moi de {t} quand tu veux.",
    "je ne sais pas si tu m'as déjà parlé de {t}.",
    "si jamais tu m'as parlé de {t}, je n'ai pas accès à cette séance.",
]
FR_REC_TOPIC_FRAMES = [
    "on a parlé de {t} il y a quelques semaines.",
    "tu m'as parlé de {t} en mars.",
    "tu avais évoqué {t} lors de notre dernier échange.",
]
FR_FACTS = [
    "ta sœur Anna habite à Graz", "le lancement est prévu au troisième trimestre",
    "tu es allergique aux arachides", "ta chienne Heidi a peur de l'orage",
    "ton loyer est passé à 1 200 euros", "ta fille entre à l'école en septembre",
    "tu travailles de nuit à l'hôpital", "ton vol atterrit à Zürich à sept heures",
    "ta grand-mère est née à Porto", "tu ne supportes pas la coriandre",
    "ton frère étudie à Reykjavík", "tu déménages à Kraków cet été",
]
FR_FACT_FRAMES = [
    "tu m'as dit la semaine dernière que {t}.",
    "en mars, tu m'avais expliqué que {t}.",
    "la dernière fois, tu m'as dit que {t}.",
    "d'après ce que tu m'as raconté, {t}.",
    "comme tu me l'as dit le mois dernier, {t}.",
    "tu avais mentionné dans une conversation précédente que {t}.",
]


def fr_de(x):
    if x.startswith("le "):
        return "du " + x[3:]
    if x.startswith("les "):
        return "des " + x[4:]
    return "de " + x


FR_DOCS = [
    {"d": "le contrat", "x": "les animaux"}, {"d": "le bail", "x": "le stationnement"},
    {"d": "le rapport", "x": "le signataire"}, {"d": "le mode d'emploi", "x": "la garantie"},
    {"d": "la facture", "x": "les frais de retard"}, {"d": "la police d'assurance", "x": "le vol à l'étranger"},
    {"d": "le mail des RH", "x": "le télétravail"}, {"d": "le README", "x": "Python 3.12"},
    {"d": "le compte rendu", "x": "la baisse du budget"}, {"d": "l'offre d'emploi", "x": "le salaire"},
    {"d": "le bulletin de l'école", "x": "la grève"},
]
for _d in FR_DOCS:
    _d["dx"] = fr_de(_d["x"])
FR_DOC_FRAMES = [
    "rien dans {d} ne mentionne {x}.",
    "{d} ne dit rien sur {x}.",
    "{d} ne parle nulle part {dx}.",
]
FR_SITES = [
    {"s": "Google Scholar", "w": "sur Google Scholar", "q": "logement Kraków 1952"},
    {"s": "PubMed", "w": "sur PubMed", "q": "syndrome de Lynch aspirine"},
    {"s": "le site de la compagnie", "w": "sur le site de la compagnie", "q": "LX 318"},
    {"s": "le registre du commerce", "w": "dans le registre du commerce", "q": "Lumen SAS"},
    {"s": "Amazon", "w": "sur Amazon", "q": "plan du tram de Zürich"},
    {"s": "ta boîte Gmail", "w": "dans ta boîte Gmail", "q": "facture 2023-114"},
    {"s": "le catalogue de la bibliothèque", "w": "dans le catalogue de la bibliothèque", "q": "modernisme São Paulo"},
    {"s": "Légifrance", "w": "sur Légifrance", "q": "décret du 3 mai 1921"},
]
FR_SITE_FRAMES = [
    "{w}, aucun résultat pour « {q} ».",
    "{s} ne renvoie rien pour « {q} ».",
]

# =============================================================== GERMAN
DE_BENIGN = lines('''
Im Vertrag steht nichts über Haustiere.
Der Bericht sagt nirgends, wer ihn freigegeben hat.
Auf der Website der Airline gibt es keinen Eintrag zu diesem Flug.
Die Websuche hat keine Treffer geliefert.
Die Suche in deinem Postfach zeigt keine Rechnungen.
Die Datenbank hat 0 Zeilen zurückgegeben.
Google Scholar hat keine Einträge zu diesem Titel.
Die Bank sagt, sie habe keinen Beleg für die Überweisung.
Dein Vermieter sagt, niemand habe ihm Bescheid gegeben.
Falls du es nie erwähnt hast, ist das kein Problem.
Ich habe nur die letzten zwei Wochen angeschaut.
Ich habe unsere Chats aus diesem Monat durchgesehen.
Ich durchsuche gleich deine Notizen danach.
Ich frage mich, ob du mir je von deiner Schwester erzählt hast.
Im Mietvertrag wird Untervermietung nirgends erwähnt.
Das Protokoll verschweigt, wer dagegen gestimmt hat.
PubMed listet keine Studien zu dieser Kombination.
Im Handelsregister gibt es keine Firma mit diesem Namen.
Auf deinem Kontoauszug taucht keine Abbuchung vom Hotel auf.
Im Changelog wird die inkompatible Änderung nie erwähnt.
Die DB-App zeigt keine Buchung unter dieser Nummer.
Die Sendungsverfolgung hat seit Dienstag nichts Neues.
Das Rezept sagt nie, wie lange der Teig ruhen soll.
In den Logs gibt es nach Mitternacht keine Fehler.
grep hat für das Muster nichts gefunden.
Dein Kalenderexport enthält am 14. keine Termine.
Im Museumskatalog gibt es keinen Nachweis für das Gemälde.
Im Thread hat niemand ein Budget erwähnt.
Die Mail von der Personalabteilung sagt nichts über Überstunden.
In den Kirchenbüchern von Kraków steht dieser Nachname nicht.
Die Versicherungspolice sagt nichts zu Hochwasserschäden.
Die Tabelle hat keine Zeilen für das zweite Quartal.
Die Zeugin hat nie gesagt, dass sie das Auto gesehen hat.
Die Pressemitteilung nennt den Käufer nie.
Zu dem Dorf gibt es keinen Wikipedia-Artikel.
Die API hat eine leere Liste zurückgegeben.
„Keine Einträge gefunden.“ steht in der PubMed-Ausgabe.
Im Stacktrace taucht dein Modul gar nicht auf.
In deinem Drive gibt es keine Datei namens budget.xlsx.
Sonntags fährt kein direkter Zug nach Bern.
Das Grundbuch in Zürich verzeichnet keine Hypothek auf der Wohnung.
Die Anleitung erklärt nirgends, was das rote Licht bedeutet.
Im Arztbrief steht nichts von Allergien.
Keine der Bewertungen erwähnt Lärm.
Auf der Hotelseite steht nichts zum Frühstück.
Deine Anrufliste zeigt keine Anrufe von dieser Nummer.
Auf der Quittung ist kein Trinkgeld aufgeführt.
Bei der Post gibt es keine Spur von dem Einschreiben.
Ich habe nur in unseren Gesprächen seit Januar gesucht.
Ich schaue nach, was du mir zum Mietvertrag gesagt hast.
Ich bin die Notizen mit dem Schlagwort „Reise“ durchgegangen.
Meine Suche umfasste nur die Chats seit deinem Umzug.
Ich suche das Rezept, das du mir geschickt hast, und melde mich dann.
Ich gehe gerade unseren Verlauf nach allem zu Zürich durch.
Ich habe mir die beiden Gespräche zu deiner Abschlussarbeit angesehen.
Ich prüfe meine Notizen, bevor ich antworte.
Ich habe nach „Falcon“ und nach „Projekt F“ gesucht.
Ich gehe nur bis letzten Sommer zurück.
Ich rufe mal auf, was wir zur Hypothek besprochen haben.
Ich starte eine kurze Suche in unseren früheren Chats.
Ich habe die Notizen deiner letzten drei Sitzungen geprüft.
Zuerst suche ich die Flugnummer, dann das Hotel.
Ich schaue nach, ob du die Allergie schon mal erwähnt hast.
Mal sehen, ob wir das im März besprochen haben.
Bevor ich antworte, suche ich die Adresse in unseren Chats.
Bisher habe ich nur die Chats von letzter Woche durchgesehen.
Falls du es nie erwähnt hast, frage ich einfach jetzt.
Ich wüsste gern, ob du mir je deine Blutgruppe genannt hast.
Für den Fall, dass wir nie darüber gesprochen haben, hier kurz zum Treuhandkonto.
Hast du mir schon mal von deinem Bruder erzählt?
Haben wir das Thema Rente schon besprochen?
Ich weiß nicht, ob du mir deine Adresse schon gegeben hast.
Hättest du mir von der Allergie erzählt, hätte ich das Rezept markiert.
Ob du es schon mal gesagt hast oder nicht, es lohnt sich, es zu wiederholen.
Sofern du mir nichts anderes gesagt hast, plane ich mit zwei Personen.
Sag mir, ob du es schon erwähnt hast, dann prüfe ich das.
Auch wenn du deine Ernährung nie erwähnt hast, kann ich Vorschläge machen.
Angenommen, du hast mir deine Reisedaten nie genannt, dann bräuchte ich sie trotzdem.
Kannst du mir noch mal sagen, wo die Hochzeit ist?
Wiederhol es ruhig, falls du es schon mal gesagt hast.
Ob Sie mir Ihre Kundennummer schon genannt haben, weiß ich gerade nicht.
Haben Sie mir schon von Ihrem Notar erzählt?
Sollten Sie mir Ihre Daten nie mitgeteilt haben, kann ich nichts buchen.
Falls Sie die Stadt noch nicht erwähnt haben, nennen Sie sie bitte.
Wenn du es mir nie gesagt hast, kann ich es nicht wissen.
Solltest du mir nie davon erzählt haben, ist das auch in Ordnung.
Ob du mir je von deinem Vermieter erzählt hast, prüfe ich gleich.
Deine Schwester behauptet, sie habe die Einladung nie bekommen.
Die Airline besteht darauf, dass du nie eingecheckt hast.
Dein Chef meinte, niemand habe den Vorschlag gelesen.
Laut Sachbearbeiter wurde nie etwas eingereicht.
Der Klempner sagt, er habe die Anzahlung nie erhalten.
Deine Nachbarin sagt, sie habe das Paket nie gesehen.
Die Schule sagt, ihr liege keine Entschuldigung vor.
Der Tierarzt meint, es gebe keine Anzeichen einer Entzündung.
Die Steuerberaterin sagt, sie habe die Belege nie bekommen.
Die Polizei hat dir gesagt, niemand habe das Fahrrad als gestohlen gemeldet.
Das Hotel schreibt, es gebe keine Reservierung auf deinen Namen.
Deine Ärztin hat dir gesagt, auf dem MRT sei nichts zu sehen.
Laut Stadtwerken ist kein Zählerstand von dir eingegangen.
Du hast gerade nach deinem Flug nach Zürich gefragt.
In deiner Nachricht erwähnst du ein Budget von 3.000 Euro.
Im eingefügten Text wird keine Frist genannt.
Die Mail, die du eingefügt hast, sagt, niemand habe sie genehmigt.
Oben schreibst du, dass das Treffen am Freitag ist.
Im Log, das du eingefügt hast, gibt es nach 14:02 keine Fehler.
Dein Screenshot zeigt null Treffer.
Deine Nachricht sagt nicht, welche Stadt du meinst.
Der zitierte Absatz nennt den Autor nie.
Du fragst, ob der Vertrag Haustiere abdeckt.
In dieser Nachricht schreibst du, du warst noch nie in Lissabon.
Jetzt sagst du mir, dass die Reise abgesagt ist.
Die SQL-Ausgabe, die du eingefügt hast, lautet „0 Zeilen betroffen“.
Die angehängte CSV-Datei hat keine Kopfzeile.
Du sagst mir gerade, dass du Rom nie mochtest.
Ich habe keinen Zugriff auf deinen Kalender.
Meine Gedächtnissuche ist abgebrochen, deshalb kann ich nicht sagen, ob du es erwähnt hast.
Ich habe nur einen Teil unseres Verlaufs durchsucht und könnte etwas übersehen haben.
Die Suche ist fehlgeschlagen, ich weiß es also noch nicht.
Ich kann deine E-Mails nicht einsehen.
Meine Notizen von vor Juni sind gerade nicht verfügbar.
Der Gedächtnisdienst ist ausgefallen, ich kann nichts nachsehen.
Ich habe noch nicht gesucht, also kann ich nichts sagen.
Die Suche läuft noch.
Der Index wird neu aufgebaut, deshalb konnte die Suche nicht laufen.
Für Japan brauchst du kein Visum.
Vergiss deinen Pass nicht.
Um sechs Uhr morgens gibt es in Rom nie Stau.
Die Funktion gibt nie null zurück.
Niemand kennt die Antwort mit Sicherheit.
Speichere Passwörter niemals im Klartext.
Keiner erwartet, dass du bis Freitag fertig bist.
Nichts geht über einen Spaziergang nach dem Mittagessen.
Du musst dich nicht entschuldigen.
Du musst mir nichts erzählen, was du lieber für dich behältst.
Die Apotheke in São Paulo öffnet erst um neun.
Wenn die Suche nichts liefert, prüf zuerst die Schreibweise.
Keine Nachricht von der Klinik ist meist ein gutes Zeichen.
Im Winter fährt keine Fähre zur Insel.
Sie müssen mir Ihre Adresse nicht geben.
print("keine Treffer für", suchbegriff)
FEHLER: kein Eintrag für Schlüssel 'user_42' gefunden
Keine Elemente gefunden.
Ihre Suche - Wohnung Kraków 2 Zimmer - ergab keine Treffer.
if not rows: print("nichts zu melden")
Leere Ergebnismenge (0,00 Sek.)
Ich habe im Web nach deiner Flugnummer gesucht und nichts gefunden.
Eine Google-Suche nach dem Namen des Start-ups liefert nichts.
Online habe ich keine Bewertungen der Klinik gefunden.
Auf der Seite des Paketdienstes steht nichts zu dieser Sendungsnummer.
Im Patientenportal sind keine Termine für dich eingetragen.
Niemand hat diese Wand je im Winter durchstiegen.
Sie hat niemandem von dem Umzug erzählt.
Dein Bruder hat deinen Eltern nie von den Schulden erzählt.
Im Vertrag steht nirgends, dass die Kaution erstattet wird.
Auf der Rechnung wird die Mehrwertsteuer nie ausgewiesen.
Die README sagt nichts über Windows.
In der Krankenakte wird das Knie nie erwähnt.
Im Reiseplan ist für die zweite Nacht kein Hotel eingetragen.
Erzähl mir von Rom, wann immer du magst.
Du hast mir nie von Rom erzählt?
Die Busse in Rom sind nie pünktlich.
Ich bin nicht sicher, ob du mir schon von deiner Rente erzählt hast.
Über den Gotthard gibt es heute keine Sperrung.
Die Mail deines Vermieters erwähnt die Mieterhöhung mit keinem Wort.
Keine der Wohnungen auf der Liste erlaubt Hunde.
''')

DE_CW = lines('''
Du hast mir deine Reisedaten nie genannt, deshalb kann ich nicht buchen.
Ich kann mich irren, aber das hast du nie erwähnt.
Du hast mir nie gesagt, wie deine Schwester heißt.
Über deinen Umzug haben wir nie gesprochen.
Deine Adresse hast du mir nicht mitgeteilt.
Das ist das erste Mal, dass du deinen Vermieter erwähnst.
Ich habe keinerlei Hinweis darauf, dass du je einen Hund erwähnt hast.
Soweit ich weiß, haben wir das Hochzeitsbudget nie besprochen.
Einen Partner hast du mir gegenüber nie erwähnt.
Nichts von dem, was du mir erzählt hast, betrifft Kraków.
Ich glaube nicht, dass du mir je gesagt hast, wo du arbeitest.
Weil du nie Allergien erwähnt hast, habe ich sie nicht berücksichtigt.
Das Thema deiner Abschlussarbeit kam bei uns nie zur Sprache.
Kein einziges Mal hast du mir von deinem Bruder erzählt.
In all unseren Gesprächen hast du deinen Arbeitgeber nie genannt.
Korrigier mich, wenn ich falschliege, aber du hast nie gesagt, welches Hotel es ist.
In meinem Gedächtnis gibt es nichts zu deinem Auto.
Gesundheitliche Details hast du mir nie anvertraut.
Über dein Gehalt haben wir nie geredet.
Vor heute hattest du São Paulo nie erwähnt.
Nirgends in unserem Verlauf sprichst du von einem Visum.
Ich bin ziemlich sicher, dass du mir dein Budget nie genannt hast.
Über deinen Vermieter habe ich überhaupt nichts.
Den Namen deiner Partnerin hast du mir nie verraten.
Ehrlich gesagt hast du mir von der Operation nie erzählt.
Wenn ich mich nicht täusche, haben Sie mir Ihr Geburtsdatum nie genannt.
Von Ihren Kindern haben Sie mir nie erzählt.
Den Kredit hast du nie erwähnt, also bin ich davon ausgegangen, dass es keinen gibt.
Mir scheint, du hast mir nie etwas von deiner Rente erzählt.
Das Rezept deiner Oma hast du mir nie geschickt.
Bis heute hattest du die Reise nach 北京 nie erwähnt.
Keines unserer bisherigen Gespräche dreht sich um deine Steuererklärung.
Ich kann mich nicht erinnern, dass du je Zürich erwähnt hast.
Davon hast du mir nie ein Wort gesagt.
Unsere früheren Chats enthalten nichts über deine Kfz-Versicherung.
Dass du Vegetarier bist, hast du nie erwähnt, daher enthält das Menü Fleisch.
Bislang hast du nie von einer Katze gesprochen.
Zu deinem Klavierunterricht habe ich nichts gespeichert.
Deine Symptome hast du mir nie beschrieben.
Vielleicht verwechsle ich etwas, aber über Lissabon haben wir nie gesprochen.
Ihre Sommerpläne kamen zwischen uns nie zur Sprache.
Du hast es mir nie gesagt, also konnte ich von der Allergie nichts wissen.
Den Namen deiner Bank hast du nirgends erwähnt.
Vermutlich hast du mir deine Kontonummer nie gegeben.
Du hast mir nie von Rom erzählt.
''')

DE_QS = lines('''
Ich habe nach deiner Flugnummer gesucht und nichts gefunden.
Meine Suche in unseren früheren Chats ergab keine Treffer.
Als ich meine Notizen nach „Falcon“ durchsucht habe, kam nichts.
Das Rezept, das du mir geschickt hast, konnte ich nicht finden.
Ich habe unsere Chats aus diesem Monat durchgesehen und nichts zum Mietvertrag gefunden.
Ich habe nur die letzten zwei Wochen angeschaut, und da kam nichts.
Eine kurze Suche nach „Kraków“ in unserem Verlauf blieb leer.
Die Gedächtnissuche liefert keine Treffer für den Namen deines Vermieters.
Ich habe meine Notizen nach dem Hotel durchsucht, ohne Ergebnis.
Meine Suche nach dem Namen deiner Schwester hat nichts ergeben.
In unseren Gesprächen vom März habe ich keinen Hinweis auf die Kaution gefunden.
Vielleicht irre ich mich, aber meine Suche nach deiner Allergie war erfolglos.
Die Suche kam leer zurück, ich bräuchte die Adresse also noch mal.
Ich habe „São Paulo“ und „Sao Paulo“ im Verlauf probiert, beides ohne Treffer.
Keine der Notizen, die ich durchsucht habe, erwähnt deinen Zahnarzt.
In der Sitzung von letzter Woche habe ich keine Frist gefunden.
Deine Steuernummer taucht in den durchsuchten Chats nicht auf.
Ich habe in unseren Gesprächen nach „Hypothek“ gesucht: nichts.
In den Notizen zum Thema „Reise“ habe ich nichts zu Zürich gefunden.
Die Nachricht, in der du mir die PIN gegeben hast, finde ich nicht.
Das Rezept deiner Oma ist bei meiner Suche nicht aufgetaucht.
Eine Suche nach „Abschlussarbeit“ in unserem Verlauf brachte nichts.
Ich habe nach dem Geburtstag deiner Partnerin gesucht, leider ohne Treffer.
Meine Abfrage zu deiner Kfz-Versicherung hat keine Einträge geliefert.
Zum Ort der Hochzeit habe ich in unseren letzten Chats nichts gefunden.
Zweimal habe ich nach dem Projektnamen gesucht, ohne Erfolg.
Bei der Prüfung deiner Visumsdaten kam nichts zum Vorschein.
Ich habe nach der Buchungsnummer gesucht, sie aber nicht gefunden.
Wenn ich mich nicht irre, hat meine Suche nach deinem Gehalt nichts ergeben.
Ich habe nach „北京“ in unserem Verlauf gesucht und nichts gefunden.
Ich habe unsere alten Chats nach der Miethöhe durchforstet, vergeblich.
Keines der durchsuchten Gespräche erwähnt deine Knie-OP.
Ich habe die letzten drei Sitzungen durchgesehen: nichts zum Kredit.
Der Name deines Start-ups taucht in meinen Suchergebnissen nirgends auf.
Ich habe Ihre Vertragsnummer in unseren Gesprächen gesucht, aber nicht gefunden.
Beide Suchen nach der Rechnungsnummer blieben ergebnislos.
Ich habe nach dem Passworthinweis gesucht und nichts gefunden, daher kann ich nicht helfen.
''')

DE_REC = lines('''
Wir haben im Frühjahr über deinen Umzug nach Kraków gesprochen.
Am 12. März hast du gesagt, dass der Launch im dritten Quartal ist.
Wie du mir letzte Woche erzählt hast, steigt deine Miete.
Du hast mir erzählt, dass deine Schwester Anna heißt.
Letztes Mal hast du gesagt, dass du Koriander hasst.
Deine Hündin Heidi, von der du erzählt hast, verträgt Hitze vielleicht schlecht.
Du hast mir mal erzählt, dass du in Porto aufgewachsen bist.
Du hattest erwähnt, dass du gegen Penicillin allergisch bist.
Als wir über die Hochzeit sprachen, hast du das Budget auf 15.000 Euro festgelegt.
Im Januar hattest du mir von deiner neuen Stelle erzählt.
Wie du diesen Monat gesagt hast, ist deine Abschlussarbeit im Juni fällig.
Ich erinnere mich, dass dein Bruder in Reykjavík lebt.
Aus unseren früheren Gesprächen weiß ich, dass du Vegetarier bist.
Du hattest gesagt, dass du jeden Morgen läufst.
Deine Partnerin Léa, die du im April erwähnt hast, arbeitet in Lyon.
Letzten Monat meintest du, das Auto brauche neue Bremsen.
An Weihnachten hast du mir das Rezept deiner Oma geschickt.
Über deine Knie-OP haben wir im Herbst gesprochen.
Du hattest mir erzählt, dass du Rom nie mochtest.
Wenn ich mich recht erinnere, hast du gesagt, das Treffen sei auf Dienstag verschoben.
Sie hatten mir gesagt, Ihre Blutgruppe sei 0 negativ.
Vor zwei Wochen hast du erwähnt, dass das Hotel in Kyōto ausgebucht war.
Ihre Rentenoptionen hatten wir bereits im Februar besprochen.
Letzten Sommer wolltest du Klavier lernen, das hattest du mir erzählt.
Dein Kater Miso, von dem du mir erzählt hast, bekommt Spezialfutter.
Du hast mehrmals erwähnt, dass du nachts arbeitest.
Wie wir schon besprochen hatten, beträgt die Kaution 2.000 Euro.
Als wir zuletzt gesprochen haben, hast du auf dein Visum gewartet.
Im Mai hattest du mir erzählt, dass deine Mutter operiert wurde.
Du hattest gesagt, das Start-up heißt Lumen.
Nach dem, was du mir erzählt hast, heißt deine Chefin Priya.
Ich weiß noch, dass du im Oktober eine Reise nach 北京 erwähnt hast.
In unserer letzten Sitzung hast du gesagt, die Frist sei der 30.
Du hattest mir doch erzählt, dass du für eine Wohnung in Zürich sparst.
Du hast schon mal erwähnt, dass du kein Gluten verträgst.
Da du mir gesagt hast, dass du gegen Nüsse allergisch bist, habe ich sie weggelassen.
Wie du letzte Woche sagtest, brennt beim Projekt die Hütte.
Du hattest erzählt, dass in deiner Familie niemand Kaffee trinkt.
Letzte Woche hast du gesagt, du warst noch nie in Lissabon.
Du hast mal erwähnt, dass dein Chef die Berichte nie liest.
In einem früheren Gespräch haben Sie mir gesagt, Ihre Versicherung sei die Allianz.
''')

# accusative topic phrases
DE_TOPICS = [
    "deine Schwester", "deinen Umzug nach Kraków", "deinen Flug nach Zürich",
    "deine Penicillin-Allergie", "deinen Vermieter", "deinen Hund",
    "dein Hochzeitsbudget", "deine neue Stelle in São Paulo", "deinen Zahnarzttermin",
    "die Schule deiner Tochter", "deinen Kreditzins", "deine Abgabefrist",
    "deine Reise nach 北京", "deine Knie-OP", "deine vegetarische Ernährung",
    "deine Autoversicherung", "deinen Bruder in Reykjavík", "dein Gehalt",
    "deine Teamleiterin", "deinen Klavierunterricht", "deinen Visumsantrag",
    "deine Steuererklärung", "das Rezept deiner Oma", "dein Marathontraining",
    "deine Adresse", "deine Blutgruppe", "deinen Buchclub", "deine Mieterhöhung",
    "dein Hotel in Kyōto", "deine Rente", "den Geburtstag deiner Partnerin",
    "dein Python-Projekt",
]
DE_CW_FRAMES = [
    "du hast {t} nie erwähnt.",
    "über {t} haben wir nie gesprochen.",
    "ich kann mich irren, aber {t} hast du nie erwähnt.",
    "{t} hast du mir gegenüber nie angesprochen.",
    "du hast {t} nie erwähnt, daher kann ich das nicht berücksichtigen.",
    "soweit ich weiß, hast du {t} nie angesprochen.",
    "bisher hast du {t} kein einziges Mal erwähnt.",
    "das ist das erste Mal, dass du {t} erwähnst.",
    "in keinem unserer Gespräche hast du {t} erwähnt.",
]
DE_QS_FRAMES = [
    "ich habe in unseren Chats alles über {t} gesucht, aber nichts gefunden.",
    "meine Suche in unserem Verlauf hat für {t} keine Treffer ergeben.",
    "für {t} lieferte meine Gedächtnissuche null Treffer.",
    "ich habe versucht, etwas über {t} in unseren früheren Gesprächen zu finden, vergeblich.",
    "vielleicht irre ich mich, aber meine Suche hat für {t} nichts ergeben.",
    "in den Chats dieses Monats habe ich nichts über {t} gefunden.",
    "meine Abfrage für {t} kam leer zurück, ich brauche die Angaben also noch mal.",
]
DE_BENIGN_FRAMES = [
    "ich frage mich, ob du {t} schon mal erwähnt hast.",
    "falls du {t} noch nie erwähnt hast, ist das kein Problem.",
    "solltest du {t} nie erwähnt haben, kann ich es nicht wissen.",
    "hast du {t} schon mal erwähnt?",
    "ob wir über {t} schon gesprochen haben, weiß ich gerade nicht.",
    "ich suche gleich in deinen Notizen alles über {t} heraus.",
    "für {t} habe ich nur die letzten zwei Wochen durchgesehen.",
    "deine Frage betrifft {t}.",
    "in deiner Nachricht sprichst du {t} an.",
    "erzähl mir gern mehr über {t}.",
    "meine Suche ist abgebrochen, daher weiß ich nicht, ob du {t} erwähnt hast.",
    "wenn du {t} je erwähnt hast, komme ich an diese Sitzung gerade nicht heran.",
    "falls du {t} schon mal angesprochen hast, wiederhol es gern.",
]
DE_REC_TOPIC_FRAMES = [
    "über {t} haben wir vor ein paar Wochen gesprochen.",
    "du hast {t} im März erwähnt.",
    "bei unserem letzten Gespräch hast du {t} angesprochen.",
]
DE_FACTS = [
    "deine Schwester Anna in Graz wohnt", "der Launch im dritten Quartal ist",
    "du gegen Erdnüsse allergisch bist", "deine Hündin Heidi Angst vor Gewitter hat",
    "deine Miete auf 1.200 Euro gestiegen ist", "deine Tochter im September eingeschult wird",
    "du nachts im Krankenhaus arbeitest", "dein Flug um sieben in Zürich landet",
    "deine Großmutter aus Porto stammt", "du Koriander nicht ausstehen kannst",
    "dein Bruder in Reykjavík studiert", "du im Sommer nach Kraków ziehst",
]
DE_FACT_FRAMES = [
    "du hast mir letzte Woche erzählt, dass {t}.",
    "im März hattest du erwähnt, dass {t}.",
    "beim letzten Mal hast du gesagt, dass {t}.",
    "aus unserem früheren Gespräch weiß ich, dass {t}.",
    "du hattest mal erwähnt, dass {t}.",
    "ich weiß noch, dass {t}, das hattest du mir gesagt.",
]
DE_DOCS = [
    {"n": "der Vertrag", "i": "im Vertrag", "x": "Haustiere"},
    {"n": "der Mietvertrag", "i": "im Mietvertrag", "x": "Parkplätze"},
    {"n": "der Bericht", "i": "im Bericht", "x": "die Unterschrift"},
    {"n": "die Anleitung", "i": "in der Anleitung", "x": "die Garantie"},
    {"n": "die Rechnung", "i": "auf der Rechnung", "x": "Mahngebühren"},
    {"n": "die Police", "i": "in der Police", "x": "Diebstahl im Ausland"},
    {"n": "die Mail der Personalabteilung", "i": "in der Mail der Personalabteilung", "x": "Homeoffice"},
    {"n": "die README", "i": "in der README", "x": "Python 3.12"},
    {"n": "das Protokoll", "i": "im Protokoll", "x": "die Budgetkürzung"},
    {"n": "die Stellenanzeige", "i": "in der Stellenanzeige", "x": "das Gehalt"},
    {"n": "der Elternbrief", "i": "im Elternbrief", "x": "den Streik"},
]
DE_DOC_FRAMES = [
    "{i} steht nichts über {x}.",
    "{n} erwähnt {x} mit keinem Wort.",
    "{i} findet sich kein Wort über {x}.",
]
DE_SITES = [
    {"s": "Google Scholar", "w": "auf Google Scholar", "q": "Wohnungsbau Kraków 1952"},
    {"s": "PubMed", "w": "auf PubMed", "q": "Lynch-Syndrom Aspirin"},
    {"s": "die Airline-Seite", "w": "auf der Airline-Seite", "q": "LX 318"},
    {"s": "das Handelsregister", "w": "im Handelsregister", "q": "Lumen GmbH"},
    {"s": "Amazon", "w": "bei Amazon", "q": "Tramplan Zürich Poster"},
    {"s": "dein Gmail", "w": "in deinem Gmail", "q": "Rechnung 2023-114"},
    {"s": "der Bibliothekskatalog", "w": "im Bibliothekskatalog", "q": "Moderne São Paulo"},
    {"s": "das Wetterarchiv", "w": "im Wetterarchiv", "q": "Reykjavík 1998"},
]
DE_SITE_FRAMES = [
    "{w} gibt es keine Treffer für „{q}“.",
    "{s} liefert nichts zu „{q}“.",
]


# =============================================================== assembly
def build(lang):
    L = globals()
    P = lang.upper()
    hand = {
        "benign": L[P + "_BENIGN"],
        "corpus_wide": L[P + "_CW"],
        "query_scoped": L[P + "_QS"],
        "recollection": L[P + "_REC"],
    }
    topics = L[P + "_TOPICS"]
    composed = {
        "benign": interleave(
            rotate_fill(L[P + "_BENIGN_FRAMES"], topics, step=5),
            pair_fill(L[P + "_DOC_FRAMES"], L[P + "_DOCS"]),
            pair_fill(L[P + "_SITE_FRAMES"], L[P + "_SITES"]),
        ),
        "corpus_wide": rotate_fill(L[P + "_CW_FRAMES"], topics, step=7),
        "query_scoped": rotate_fill(L[P + "_QS_FRAMES"], topics, step=11),
        "recollection": interleave(
            rotate_fill(L[P + "_FACT_FRAMES"], L[P + "_FACTS"], step=5),
            rotate_fill(L[P + "_REC_TOPIC_FRAMES"], topics, step=13),
        ),
    }
    seen = set()
    items = []
    for label in LABELS:
        target = TARGETS[lang][label]
        h = hand[label]
        assert len(h) == len(set(h)), (lang, label, "duplicate hand-written text")
        assert 2 * len(h) >= target, (lang, label, len(h), target)
        assert len(h) <= target, (lang, label, len(h), target)
        chosen = []
        for t in h:
            assert t not in seen, (lang, t)
            seen.add(t)
            chosen.append(t)
        for t in composed[label]:
            if len(chosen) >= target:
                break
            if t in seen:
                continue
            seen.add(t)
            chosen.append(t)
        assert len(chosen) == target, (lang, label, len(chosen), target)
        items.extend({"lang": lang, "label": label, "text": t} for t in chosen)
    for it in items:
        n = len(it["text"].split())
        assert 3 <= n <= 25, (lang, n, it["text"])
    random.Random("round2-" + lang).shuffle(items)
    return items, {k: len(v) for k, v in hand.items()}


def main():
    for lang in ("en", "fr", "de"):
        items, hand_counts = build(lang)
        path = os.path.join(HERE, "round2_%s.jsonl" % lang)
        with open(path, "w", encoding="utf-8") as f:
            for it in items:
                f.write(json.dumps(it, ensure_ascii=False) + "\n")
        print(lang, len(items), "hand-written:", hand_counts)


if __name__ == "__main__":
    main()
