#!/usr/bin/env python3
"""Compose the English and German training corpora for engram's clause classifier.

Standard library only and deterministic (fixed seeds).  Writes clauses_en.jsonl and
clauses_de.jsonl next to this script.  Every hand-written line below is its own frame;
composed items combine hand-written frames with hand-written topic phrases and make up
less than half of every label.
"""
import json
import os
import random


def lines(block):
    """One item per non-empty line; surrounding whitespace stripped."""
    out = []
    for ln in block.split("\n"):
        ln = ln.strip()
        if ln:
            out.append(ln)
    return out


# ---------------------------------------------------------------------------
# ENGLISH -- hand-written items (each line is its own frame)
# ---------------------------------------------------------------------------

EN_CW = lines("""
You never told me your sister's name.
We've never talked about your trip to Lisbon.
There's nothing about your allergies in what I remember of you.
This is the first time you've brought up your landlord.
I have no record at all of you mentioning a dog.
You haven't shared your home address with me.
Maybe you never told me which school your son attends.
I think you never mentioned your brother's wedding date.
As far as I know, we never discussed your pension plan.
You've never mentioned a partner in any of our chats.
Your mother's health hasn't come up between us before.
Nothing in my memory of our conversations mentions Kraków.
I don't recall you ever telling me what you do for work.
You've never once brought up your cat.
Not once have you told me where you grew up.
That's the first I'm hearing about a second job.
You never said which hospital your father is in.
I have no memory of you saying anything about São Paulo.
Your salary is something you've never shared with me.
In all our past conversations, your diet never came up.
None of our previous chats touch on your visa situation.
I don't have anything stored about your kids' names.
You haven't told me yet what car you drive.
My memory of you holds nothing about a move to Zürich.
You hadn't mentioned the surgery before today.
I'm pretty sure you've never told me your birthday.
We've never gone over your mortgage terms together.
There's no trace in my memory of you ever mentioning Oslo.
You never gave me your flight details.
You've kept your wife's name to yourself so far.
You never actually told me how old your daughter is.
Honestly, you've never talked to me about your manager.
You've never brought up being vegetarian with me.
I know nothing about your running club, because you never mentioned it.
because you never mentioned where you work
but you never told me the name of the restaurant
since we've never discussed your budget
I haven't got a single note from you about your grandparents.
You've not said a word to me about the divorce.
Nowhere in our history do you mention a brother.
You never shared the results of your blood test with me.
The topic of your thesis has never come up in our chats.
Nobody called Lukas appears anywhere in what I know about you.
I probably just never heard about your hometown from you.
I believe we've never talked about your insurance.
To my knowledge, you never mentioned a peanut allergy.
You've never told me which bank you use.
From everything I remember, you've never mentioned 北京.
I don't think you ever told me your partner's job.
You have not, as far as I remember, mentioned any pets.
We have no prior conversations about your garden.
Your travel plans for July are news to me.
You didn't tell me about the second interview before.
I've never heard you mention your neighbours.
My memory has nothing on your medication.
You never mentioned that you play the cello.
There is nothing in our chat history about a wedding.
You never let me know what your doctor said.
Until now you'd never mentioned a daughter.
You haven't ever described your apartment to me.
You've never given me your email address.
Our past chats contain nothing about Kyoto.
Your therapist has never come up in anything you've told me.
I don't believe you've shared your dietary restrictions before.
You've never told me anything about your work schedule.
You never told me whether you rent or own.
It seems you never mentioned the name of your company.
Perhaps you never shared your shoe size with me.
You might never have told me your time zone.
I've got no memory whatsoever of a trip to Marrakesh.
We have never spoken about your father.
Your grandmother in Gdańsk has never come up before.
You've said nothing to me, ever, about a boyfriend.
Across all our sessions, you never named your bakery.
You never did tell me what happened with the job offer.
The name of your dog is something you haven't told me.
You've never mentioned any siblings to me.
I've never been told your blood type.
Nothing you've shared with me so far mentions Reykjavík.
I have zero information from you about your debts.
That's new to me; you hadn't brought up a lawsuit before.
you hadn't brought up the lawsuit before
We never got around to discussing your retirement.
You never mentioned being pregnant.
No conversation we've had has covered your car loan.
You never shared which city you live in.
In what I remember of you, there's no mention of a sister.
I'm not aware of you ever mentioning Montréal.
You never brought your landlord into our conversations.
Apparently we've never talked about your hobbies.
You haven't mentioned your exam results to me at all.
You have never given me your phone number.
You never told me why you left Berlin.
I hold no memories of you discussing your tax return.
So far you've never mentioned a girlfriend.
This is the first time your ex-husband has come up.
You've never once talked about your childhood with me.
There's nothing about a cat named Mochi in my memory.
I have no stored information about your employer.
you've never talked about your weekend plans with me
Your knee injury is something we've never discussed.
You never confided in me about your finances.
We haven't ever covered your training plan.
You've never specified your budget to me.
Nope, you never told me that.
No, you've never mentioned Ahmed before.
Actually, you never said which airline you fly with.
I doubt you ever told me your middle name.
I suspect you never mentioned the party to me.
I seem to have nothing at all about your parents.
You never mentioned having a garden in any chat.
Your wedding anniversary has never been mentioned to me.
Your surname has never been shared with me.
We've had no earlier conversation about Tbilisi.
Your job title never came up before.
you never gave me the name of your clinic
and we've never discussed your rent
You haven't told me a thing about your new flat.
You never once described your symptoms to me before.
Neither your partner nor your kids have ever come up in our chats.
No part of my memory mentions your piano lessons.
Your preferred pronouns are something you've never told me.
I never learned the name of your daughter's school from you.
My memory is blank when it comes to your hometown.
You've never let me in on your plans for Málaga.
There's nothing I remember you saying about Dubrovnik.
You never talked about the accident.
Your brother has never been mentioned in our history.
I'm fairly certain you haven't told me your allergies.
You have yet to tell me your partner's name.
You have yet to mention any food you dislike.
We've never exchanged a word about your thesis defense.
You've never told me you have a sister.
You never mentioned you had moved to Hamburg.
Whether you smoke is something you never told me.
You never told me about Rome.
We never talked about Rome.
I think we've never discussed your grandmother's recipe.
As far as I can remember, you never mentioned Nairobi.
If I'm not mistaken, you never told me your age.
Unless I'm misremembering, you never brought up a dog.
You've told me nothing about your colleagues.
I've never had any details from you about your flat in Wrocław.
You haven't said anything before about quitting.
Your love of jazz is news to me.
You never explained to me what your startup does.
There's been no mention of your husband in our conversations.
You never mentioned a deadline before.
The whole of our history has nothing about Ljubljana.
In everything you've told me, Chiang Mai never appears.
You've never mentioned your dad's illness to me.
Your pet rabbit is completely new to me.
I guess you never told me your favorite color.
Maybe we just never talked about your commute.
you never brought it up before
you've never shared that with me
we have never discussed it
I don't remember you ever mentioning Kraków.
I have nothing from our earlier chats about Seoul.
Your plans for the baby's name have never come up with me.
You never told me about the new puppy, actually.
Our conversations have never once touched on your religion.
Hmm, I don't think you've ever mentioned Poznań to me.
To be honest, I've heard nothing from you about a wedding in Kraków.
""")

EN_QS = lines("""
I looked for your flight number and found nothing.
My search of our past chats returned no results.
Nothing turned up when I checked my notes for "Falcon".
I couldn't find the recipe you sent.
I searched our history for "Kraków" but got no hits.
My lookup for your doctor's name came back empty.
I checked our earlier conversations for your address, with no luck.
The memory search for "landlord" found no matches.
I ran a quick search for your sister's name; nothing came back.
nothing came back from the search
but the lookup returned nothing
I went through my notes on your trip and couldn't find the hotel name.
Searching for "invoice 4471" gave me zero results.
I can't find the message where you described the error.
I wasn't able to locate your packing list in our past sessions.
My search for "Heidi" didn't bring up anything.
I dug through what I have for the gym schedule and came up empty.
I tried to pull up the budget you shared, but the search found nothing.
A search for "Zürich" in my memory returned no entries.
When I checked for your medication list, nothing matched.
I couldn't locate the link you gave me.
Looking up "São Paulo" in our old chats turned up nothing.
My query for your son's teacher yielded no results.
I just checked for the password hint you mentioned, and there's nothing.
The search I ran for your allergy notes came back blank.
I found no matches for "Project Orion" in our previous conversations.
I couldn't dig up the restaurant name you asked about.
Nothing relevant came up when I searched for your car's model.
I checked, and there's no saved note about your appointment time.
My search for the word "mortgage" in our chats found nothing.
I looked, but I can't find the address of your office in Kraków.
I scanned our recent conversations for the recipe and didn't find it.
A lookup of your preferred airline returned nothing.
I tried several searches for "Bruno" and none matched.
No hits for "北京" when I searched my notes.
I couldn't find any entry for your wedding date.
Searching my memory for "cello" came up dry.
The check I just did for your shoe size found nothing.
I hunted for your old username, but it's not turning up.
My retrieval for "tax return 2022" came back with no results.
I looked for that conversation about Oslo and couldn't find it.
I went looking for the name of your vet and drew a blank.
I've checked for your dentist's number and found nothing stored.
I searched for your blood pressure readings without success.
Nothing showed up under "Grandma's birthday".
My search for your favorite wine returned zero matches.
I tried to find your notes on the Lisbon itinerary, but nothing came up.
I couldn't turn up the book title you recommended.
A search for "Kyoto" across our previous sessions yields nothing.
When I searched for "Mochi", I got no results.
I checked our past chats for the bug you described; no luck.
I couldn't find where you told me your gate number.
Looking for your insurance policy number, I came up empty.
The lookup for "Dr. Okafor" didn't match anything.
I searched for the cake recipe and there's nothing there.
I found nothing when I looked for your parking spot number.
That search came back with nothing.
My lookup didn't find any note about your train to Bern.
I couldn't retrieve the list of gift ideas you asked me to keep.
Search results for "Málaga" in our history: none.
Zero results came back for "anniversary" in my memory search.
I've run the search twice and still nothing for "Helga".
My check of our earlier threads for the PIN turned up empty.
I looked up "quarterly report" in what we discussed and found no match.
I couldn't find your marathon time anywhere in the results.
Nothing matching "Gdańsk" came back from my search.
I searched for the error code you mentioned, with no hits.
The memory lookup for your manager's email was empty.
No entry came up when I searched for "yoga class".
I didn't find the playlist you shared when I searched for it.
I can't locate the spreadsheet link in our past conversations.
My search for your Wi-Fi name came up with nothing.
I searched, and there's no note about the dinner reservation.
Checking for "Tbilisi" gave me nothing at all.
I tried looking up your plumber's name, but nothing surfaced.
Your recipe for goulash didn't come up in my search.
The phrase "blue folder" doesn't appear in anything I searched.
I looked for mentions of your knee injury and found none.
I queried my memory for "Anna" and got nothing back.
Your appointment reminder wasn't among the search results.
I found no record of the hotel booking in the chats I searched.
A scan of our last few conversations found no mention of Bern.
I checked the notes for "Monday meeting" and there was nothing.
My search for your passport expiry turned up no matches.
I couldn't find that list of baby names you asked me to save.
I couldn't pull up the poem you wrote me.
I searched our threads from March and found nothing about the move.
Nothing came up for "Reykjavík" in my memory search.
I went through the saved notes for your cousin's name without finding it.
The search for your gluten intolerance returned nothing.
I've looked for your running route and can't find it.
I checked for the rent amount, and my search found no entries.
My search for "Ahmed" returned zero hits.
I couldn't spot your order number in what I retrieved.
There were no results when I searched for your sister's phone number.
I tried finding the quote you liked, but the search turned up nothing.
My memory search for "Porto" came back with nothing relevant.
Nothing in the search results mentions your therapist.
I checked for "Lena's wedding" and found no notes.
I searched my notes for the word "allergy": no matches.
I couldn't find the photo description you gave me.
The lookup for your locker code didn't return anything.
I went looking for your diet plan in our chats and found nothing.
I searched for your garden layout, but nothing came up.
no results came up for that name
but I couldn't find it
and the search came up empty
I looked and couldn't find anything about your landlord.
I ran a search on "Montréal" and it returned nothing.
The search didn't find your notes on the contract.
I couldn't find the conversation where we planned the party.
I looked it up just now and found nothing.
My search for "vet appointment" turned up empty.
A quick check of my notes for your bike lock code found nothing.
I tried to recall the chat about Dubrovnik via search, but nothing matched.
Unfortunately, searching for "Mr. Nakamura" gave no results.
Sadly, I found no notes when I looked up your boss's name.
I've checked for "Łódź" and there are no matching entries.
I searched for the list you dictated last week, but couldn't find it.
Nothing I retrieved mentions the gym membership.
The memory query for "peanut" came back with no matches.
I couldn't find the budget numbers you sent earlier.
I went through our past sessions for that link and found nothing.
I found nothing about your trip to Kyiv in the search results.
I tried to look up your plant-watering schedule and nothing came back.
Hmm, the search for "Oma Ilse" came back empty.
I've looked high and low in our notes for the Wi-Fi password, no luck.
I pulled our chats from last summer, and "Sardinia" isn't in any of them.
The keyword search for "dentist" matched zero of our past conversations.
""")

EN_REC = lines("""
You told me your sister is Anna.
As you mentioned last week, your lease ends in June.
Last time you said you hated cilantro.
Your dog Heidi, whom you mentioned, might enjoy this trail.
You mentioned before that you're allergic to shellfish.
I remember you saying you moved to Kraków in 2019.
You once told me your favourite dish is pierogi.
Since you're vegetarian, as you told me, I'll skip the meat options.
From what you shared earlier, your daughter starts school this autumn.
You said a while back that you work night shifts.
If I remember right, you're training for the Berlin marathon.
Your husband Tom, who you've mentioned a few times, might like this.
You've told me before that flying makes you anxious.
You told me once that you never liked Rome.
Last month you mentioned your knee was bothering you.
In one of our earlier chats you said you speak Portuguese.
You mentioned your mum lives in Gdańsk.
As you said last time, the budget is around 2,000 euros.
I recall you telling me you're lactose intolerant.
You brought up your landlord in Zürich a couple of weeks ago.
Your cat Mochi, the one you told me about, sounds adorable.
You told me your son plays the trumpet.
Previously you said you prefer window seats.
You shared that you were starting a new job at a bank.
You've said in the past that you don't drink alcohol.
When we last spoke, you were preparing for a job interview.
You let me know earlier that your flight lands at 6 pm.
Going by what you told me before, you live near São Paulo.
As you told me, your grandmother turns ninety this year.
You once mentioned your brother works in Seoul.
You told me last spring that you'd taken up pottery.
I remember you mentioning a peanut allergy.
You mentioned that your partner is a nurse.
Your plan to move to Lisbon, which you brought up last week, sounds exciting.
You said previously that you were saving for a house.
Like you told me before, you're not a morning person.
Based on what you mentioned earlier, you use a Mac.
You described your flat in Wrocław to me once.
You'd told me your father had surgery in March.
We talked about your thesis on coral reefs a while ago.
We discussed your car loan last month.
You told me about the argument with your neighbour.
Your daughter Lea, who you've told me about, is turning six.
As you mentioned, you're taking metformin.
You said you hated running, back when we talked about fitness.
You mentioned having two kids.
Last week you told me your manager's name is Priya.
You once shared that your hometown is Tbilisi.
I remember that you play the cello.
You told me your birthday is in October.
You've mentioned a few times that your commute is long.
You told me you're trying to cut down on sugar.
From our previous chats I know you're a teacher.
You said last time that the kids were sick.
As you've told me, you work from home on Fridays.
You mentioned your wedding is in Dubrovnik.
Earlier you told me your gym closes at ten.
You told me once that you'd never been to Asia.
Last time you said nobody in your team uses Slack.
You mentioned you don't eat pork.
You mentioned the project is called Falcon.
Your parrot Kiwi, whom you told me about, sounds chatty.
You told me you rent a flat in Kreuzberg.
You said before that your sister lives in Montréal.
In a previous conversation you said your budget was tight.
You told me a while ago you were learning Japanese.
I know from before that you're allergic to cats.
As we discussed, you'd rather take the train than fly.
You've told me your dad was a carpenter.
Your trip to Reykjavík, which you mentioned last time, is coming up.
You mentioned that you'd quit smoking two years ago.
Last time we spoke you said your back was better.
You said once that your favourite city is Porto.
You told me your wife's name is Sophie.
As you mentioned in March, you're changing careers.
I remember you telling me your bakery opens at six.
You told me that your neighbour never returns your ladder.
You once said you'd never move back to Ohio.
Your mother, who you said lives with you, might need help too.
You told me previously that you were diagnosed with asthma.
You'd mentioned your cousin Ahmed is getting married.
You've said you prefer dark chocolate.
Your son Max, who you've mentioned, could try this.
You shared last week that your rent went up.
Back in January you told me you'd started therapy.
You told me you drive a 2015 Golf.
You mentioned before that you live in Chicago.
You've told me about your love of jazz.
As I recall, your partner works in Málaga.
You told me that the wedding is on the 14th.
You said last time that you didn't get the promotion.
You mentioned that your landlord is called Mr. Weber.
Your allergy to penicillin, which you told me about, matters here.
you told me your brother lives in Oslo
as you mentioned before
like you said last time
You've mentioned several times that you love hiking in the Tatras.
You told me earlier this month that you'd adopted a dog.
I remember you said your grandparents came from Kraków.
You told me your office is in Zürich.
In our last chat you said the kids love pancakes.
You once told me you were terrified of dentists.
You said you'd been to 北京 twice.
Your fiancée Mei, whom you mentioned, will love it.
We went over your marathon training plan two weeks ago.
Knowing you're diabetic, as you told me, I'd skip the dessert.
""")

EN_BEN = lines("""
There is no direct train to Bern on Sundays.
The function never returns null.
Nobody knows the exact answer to that.
You don't need a visa for a short stay in Japan.
Don't forget to bring your passport.
This medication shouldn't be taken with grapefruit juice.
The museum isn't open on Mondays.
Most banks don't charge for that kind of transfer.
No one is required to attend the meeting.
The API doesn't support pagination yet.
Nothing in the contract prevents you from subletting.
Kraków has no metro, but the trams are excellent.
There isn't a single cloud forecast for Saturday.
The recipe never calls for eggs.
That bug never shows up in production.
Cats don't need to be bathed very often.
You never have to pay tolls on that route.
The script doesn't handle empty files.
There are no flights from Oslo to Tbilisi on Tuesdays.
Nobody in the study reported serious side effects.
The library never closes before 8 pm.
Zürich doesn't have a lot of cheap hotels.
This variable is never assigned.
None of these options require a subscription.
There's no need to apologise.
The shop in São Paulo doesn't ship abroad.
That regex never matches an empty string.
Nothing beats fresh bread on a Sunday morning.
No vaccine is needed for that trip.
The null hypothesis was not rejected.
Sourdough never rises well in a cold kitchen.
The bus doesn't stop at the airport after midnight.
Your tax refund won't arrive before May.
The warranty doesn't cover water damage.
There's nothing wrong with taking a day off.
It almost never snows in Málaga.
The form has no field for a middle name.
Python lists never shrink automatically.
There's no evidence that vitamin C prevents colds.
Nobody lives in that house anymore.
That word doesn't exist in Polish.
I'm not aware of any strike planned for Monday.
I don't recall the exact year the bridge was built.
The treaty was never ratified.
Rome has never hosted the Winter Olympics.
Rome rarely has traffic jams at dawn.
No pharmacy in the village opens on Sundays.
The app will never ask for your PIN.
You didn't do anything wrong.
Your plant won't survive direct sunlight all day.
There's no shame in asking for help.
That flight doesn't serve meals on board.
Dogs shouldn't eat grapes, not even a few.
Nobody has lived on that island since 1954.
You said you never liked coffee.
You say you never liked coffee, so tea it is.
Your boss told you nobody had read the report.
She told you nobody came to the party.
Your doctor said there was nothing to worry about.
Your landlord claims he never received the payment.
The airline told you no seats were left.
Your sister said she never got the invitation.
According to the email, nobody signed up.
The vet said nothing was broken.
Your colleague insists he never saw the file.
The hotel said they have no record of your booking.
The bank told you there's no record of the transfer.
The support agent said they couldn't find your order.
Your teacher said nobody failed the exam.
The recruiter mentioned that no decision has been made.
Your son says he never touched the cookies.
The pharmacist said the pills have no known interactions.
Your partner said they'd never been to Kraków.
The mechanic found nothing wrong with the brakes.
Your friend told you the restaurant never takes reservations.
Your friend said she never liked Rome.
The embassy says it never received your application.
You just asked about train times to Bern.
In your message you mention a budget of 500 euros.
Thanks for sharing your sister's name just now.
As you say in your question, the deadline is Friday.
You wrote above that the script never finishes.
In this message you say nobody replied to your email.
You're asking whether you need a visa.
From what you've written here, the error happens on startup.
You just said you've never been to Asia.
Your question mentions a landlord in Zürich.
You said a moment ago that nothing was working.
The code you pasted never closes the file.
The log you've just shared shows no errors.
You mention in your message that you never got a reply.
Based on what you wrote just now, the flight is at 7.
Thanks for telling me about your dog Heidi just now.
You just mentioned you hate cilantro, so I'll leave it out.
In the screenshot you sent, the list is empty.
You're describing a rash that never fully goes away.
Your current question is about Kraków's old town.
There's no mention of a pet deposit in the lease you pasted.
Your CV doesn't mention your language skills.
The document you uploaded never mentions a deadline.
Nothing in the recipe you pasted says to preheat the oven.
In the timetable you pasted, I can't find any train after 11 pm.
The article you linked doesn't say anything about side effects.
Did you ever tell me your sister's name?
Have we discussed this before?
Did you never tell me about Rome?
Have you mentioned your allergies to me before?
Could you remind me of your flight number?
What's your daughter's name, by the way?
Have I asked you about your budget already?
Did we ever talk about your trip to Lisbon?
Would you like me to remember your address?
Have you told me where you work?
Was it you who mentioned São Paulo?
Did you say the meeting is on Tuesday?
Do you want me to save this for later?
Which city did you say you moved to?
Have you ever been to Zürich?
Did nobody reply to your email?
Is there really no train on Sundays?
Did I never explain how this works?
Should I search our older chats for it?
What did the doctor say about your knee?
Do you have any pets?
Can you tell me more about your landlord?
Did you ever share your dietary restrictions with me?
Have we never talked about your pension?
Who is Lukas, if you don't mind me asking?
Haven't you told me about Kraków already?
Didn't we discuss this last time?
Did your brother never tell you about Rome?
If you never told me, I wouldn't know.
If you haven't mentioned your allergies, please do.
If we've never discussed your budget, let's start now.
Had you told me earlier, I could have booked it.
If my memory has nothing on this, I'll ask you directly.
If the search finds nothing, I'll let you know.
In case you haven't shared your address, I'll need it for the form.
If nothing comes up, we can try a different approach.
Even if you never told me your age, the advice would be the same.
If there's no record, we'll start fresh.
If you've never been to Kraków, the old town is a must.
Suppose nobody replies; then you can escalate.
If the query returns no rows, the table is probably empty.
If you didn't tell me about Rome, that's fine.
Assuming you haven't booked yet, prices drop on Tuesdays.
If I never heard about your sister, I couldn't have known her name.
Unless you tell me otherwise, I'll assume you're flying from Oslo.
Were the lookup to come back empty, I'd say so.
If you'd never mentioned the cat, I wouldn't have suggested this.
If you never told me about Rome, how would I know?
Whether or not you mentioned it before, tell me again.
My memory search timed out, so I can't say whether you told me.
I only searched part of our history and may have missed it.
my search timed out
so I can't tell whether you mentioned it
The memory service is unavailable right now, so I can't check.
I couldn't complete the search, so I don't know if we discussed it.
The lookup failed with an error, so I can't confirm anything.
I only checked the last few weeks of our chats.
My search may not cover conversations older than a year.
I wasn't able to run the search at all.
The search was interrupted before it finished.
I can't rule out that you mentioned it; my search was partial.
I didn't get to search our older sessions yet.
My memory tool returned an error instead of results.
I may have missed it, since the search only covers recent notes.
The search index is still loading, so results may be incomplete.
I'm not able to reach my memory store at the moment.
Results might be incomplete because the search hit a limit.
I haven't searched our history yet.
The lookup didn't finish, so it's unclear whether you told me.
My search only looked at titles, not full conversations.
I can't verify this because the memory search is down.
Only some of our old chats were searchable.
I might not have the full picture, as the search was cut short.
The search tool crashed halfway through.
the memory lookup never completed
so I honestly don't know whether it came up before
I can't access your calendar.
I can't browse the web.
I don't have access to your email.
I'm unable to open attachments in this chat.
I can't make phone calls on your behalf.
I don't have access to your bank account.
I can't see your screen.
I'm not able to book flights directly.
I don't have a way to check live train times.
I can't read files on your computer.
I can't send texts to your contacts.
I don't have access to your medical records.
I'm not connected to your smart home devices.
I can't remember things unless memory is switched on.
I can't view the photos in your gallery.
I don't have real-time stock prices.
I can't log into your accounts.
I'm not able to play audio.
I have no access to your company's intranet.
I can't track your package for you.
No items found.
0 rows returned.
print('no results found')
SELECT * FROM users WHERE name = 'Anna'; -- 0 rows
The following term was not found in PubMed: zürichitis.
ERROR: no matching records for key 'user_42'
grep returned nothing, exit code 1.
Query OK, 0 rows affected (0.01 sec)
WARNING: No entries found in cache.
KeyError: 'sister' not found in dict
if not results: return "nothing found"
The spreadsheet's "Allergies" column is empty for every row.
Empty set (0.00 sec)
The Elasticsearch log shows 0 hits for that query.
FileNotFoundError: [Errno 2] No such file or directory: 'notes.txt'
Your pasted PubMed results say "No items found."
The CSV you shared has no rows after the header.
assert len(matches) == 0
`find . -name "*.bak"` printed nothing.
404 Not Found: no such user
The console says "No devices found".
In the Excel sheet, the filter returns no matching rows.
The database log reads: "lookup failed, 0 results".
return None  # nothing matched
The API response is {"results": []}.
Your query in the screenshot says "No records to display".
The Jira filter you pasted shows no issues.
console.log("user never logged in")
The test output says "no tests ran".
git status shows nothing to commit.
The Google Scholar page you quoted says your search did not match any articles.
NullPointerException at line 42: value was never set.
The stack trace shows the config was never loaded.
Your email from the landlord says "we have no record of your deposit."
The quoted reply reads: "Nobody by that name works here."
Search returned 0 results for "metformin kraków" in the PubMed export you attached.
The cell B7 formula returns #N/A because no match exists.
Let's start by listing your fixed expenses.
I'd suggest booking the train a few weeks ahead.
Try drinking more water before your run.
Here's a simple recipe for lentil soup.
Good luck with the interview tomorrow!
That sounds like a lovely weekend.
You could ask your landlord for a payment plan.
Congratulations on the new job!
I'm happy to help you plan the trip to Kyoto.
The old town of Kraków is easy to explore on foot.
First, back up your files.
Make sure you don't skip the warm-up.
Don't hesitate to ask your doctor about side effects.
Never store passwords in plain text.
Avoid leaving your dog alone for more than a few hours.
Let me know how it goes.
I'd be glad to remember that for you.
We can go through the contract clause by clause.
A good rule is to never invest money you can't afford to lose.
Zürich's lake promenade is beautiful in spring.
Sounds like your sister has a great sense of humour.
I'll keep that in mind from now on.
You might want to check the return policy first.
Here's how you can reset the router.
Don't worry, this happens to a lot of people.
I don't have any strong opinions on that.
I never said the deadline was Friday.
Nobody has to know about the surprise party.
I didn't mean to suggest you were wrong.
I haven't finished the summary yet.
There's nothing I can do about the exchange rate.
No worries at all.
You haven't missed anything important.
Nothing's been decided yet.
You never need to justify taking a break.
I'm not sure which option is cheaper.
I don't know the opening hours of that café.
You don't have to tell me anything you'd rather keep private.
Feel free to tell me about your family whenever you like.
You don't need to repeat your address every time.
I'd love to hear about your trip to Oslo.
There's no wrong answer here.
Nobody expects you to be perfect.
You never know, it might work.
Nothing you said was rude.
Happy birthday to your daughter!
Honestly, that plan sounds solid.
Let's compare the two apartments side by side.
You can freeze the soup for up to three months.
Breathe in for four counts, then out for six.
I'll draft the email, and you can tweak it.
Both options are fine, so pick whichever feels easier.
Pierogi are usually boiled first and then fried.
The exchange rate is better if you pay in złoty.
Start with small steps and build from there.
Hope the move to Gdańsk goes smoothly.
I'll remember that your dog is called Heidi from now on.
It's perfectly normal to feel nervous before surgery.
Tell me more about what happened at work.
I can summarise the article if you paste it here.
Yes, that's a common mistake.
Oops, I misread your question.
To be fair, nobody gets this right the first time.
That was a great question.
Let me rephrase that more clearly.
A Roth IRA isn't available to everyone.
Interest isn't charged if you pay the full balance.
Never microwave metal containers.
No, the conference isn't cancelled.
It's not too late to change your mind.
None of the trains to Brno have Wi-Fi.
There are no stupid questions.
The tram to Wawel doesn't run at night.
You never told your sister about the trip? That might explain it.
Nobody ever tells you how hard the first month is.
""")


# ---------------------------------------------------------------------------
# GERMAN -- hand-written items (each line is its own frame)
# ---------------------------------------------------------------------------

DE_CW = lines("""
Du hast mir nie gesagt, wie deine Schwester heißt.
Über deine Reise nach Lissabon haben wir noch nie gesprochen.
Zu deinen Allergien habe ich nichts in meinem Gedächtnis.
Das ist das erste Mal, dass du deinen Vermieter erwähnst.
Ich habe keinerlei Aufzeichnungen darüber, dass Sie einen Hund erwähnt hätten.
Ihre Adresse haben Sie mir bisher nicht mitgeteilt.
Vielleicht hast du mir nie erzählt, auf welche Schule dein Sohn geht.
Ich glaube, du hast den Hochzeitstermin deines Bruders nie erwähnt.
Soweit ich weiß, haben wir nie über Ihre Altersvorsorge gesprochen.
Von einer Partnerin hast du in unseren Gesprächen nie etwas gesagt.
Die Gesundheit deiner Mutter war zwischen uns noch nie Thema.
In meinen Erinnerungen an unsere Gespräche kommt Krakau nicht vor.
Ich kann mich nicht erinnern, dass Sie je Ihren Beruf erwähnt haben.
Deine Katze hast du kein einziges Mal erwähnt.
Wo du aufgewachsen bist, hast du mir nie erzählt.
Von einem Zweitjob höre ich gerade zum ersten Mal.
Sie haben nie gesagt, in welchem Krankenhaus Ihr Vater liegt.
Über São Paulo hast du mir nie etwas erzählt.
Dein Gehalt hast du mir gegenüber nie erwähnt.
In all unseren bisherigen Gesprächen ging es nie um deine Ernährung.
Keines unserer früheren Gespräche dreht sich um Ihr Visum.
Die Namen deiner Kinder habe ich nirgends gespeichert.
Welches Auto du fährst, hast du mir noch nicht verraten.
Von einem Umzug nach Zürich weiß ich nichts, das hast du nie erwähnt.
Die Operation hatten Sie vor heute nie erwähnt.
Ich bin ziemlich sicher, dass du mir deinen Geburtstag nie gesagt hast.
Über die Konditionen deiner Hypothek haben wir nie geredet.
Oslo taucht in meinen Erinnerungen an dich nirgends auf.
Deine Flugdaten hast du mir nie gegeben.
Den Namen deiner Frau hast du bisher für dich behalten.
Wie alt deine Tochter ist, hast du eigentlich nie erzählt.
Ehrlich gesagt hast du mit mir nie über deinen Chef gesprochen.
Dass du Vegetarierin bist, hast du mir gegenüber nie erwähnt.
weil du nie erwähnt hast, wo du arbeitest
aber den Namen des Restaurants hast du mir nie genannt
da wir nie über dein Budget gesprochen haben
Über deine Großeltern hast du mir kein Wort gesagt.
Von der Scheidung haben Sie mir nichts erzählt.
Nirgends in unserem Verlauf erwähnst du einen Bruder.
Die Ergebnisse Ihrer Blutuntersuchung haben Sie nie mit mir geteilt.
Das Thema deiner Doktorarbeit kam bei uns nie zur Sprache.
Ein Lukas kommt in dem, was ich über dich weiß, nicht vor.
Vermutlich hast du mir deine Heimatstadt nie genannt.
Ich meine, über deine Versicherung haben wir nie gesprochen.
Meines Wissens haben Sie nie eine Erdnussallergie erwähnt.
Bei welcher Bank du bist, hast du mir nie gesagt.
Nach allem, woran ich mich erinnere, hast du Peking nie erwähnt.
Ich glaube nicht, dass du mir je gesagt hast, was dein Partner beruflich macht.
Haustiere haben Sie, soweit ich mich erinnere, nie erwähnt.
Über deinen Garten haben wir bisher nie gesprochen.
Deine Reisepläne für Juli sind mir neu.
Vom zweiten Vorstellungsgespräch hast du mir vorher nichts erzählt.
Ich habe dich noch nie von deinen Nachbarn sprechen hören.
Zu Ihren Medikamenten habe ich nichts gespeichert.
Dass du Cello spielst, hast du nie erwähnt.
In unserem Chatverlauf steht nichts über eine Hochzeit.
Was der Arzt gesagt hat, hast du mich nie wissen lassen.
Bis jetzt hatten Sie nie eine Tochter erwähnt.
Deine Wohnung hast du mir nie beschrieben.
Ihre E-Mail-Adresse haben Sie mir nie gegeben.
Über Kyoto steht in unseren früheren Chats nichts.
Deine Therapeutin kam in nichts vor, was du mir erzählt hast.
Ich glaube nicht, dass Sie mir Ihre Ernährungseinschränkungen schon genannt haben.
Ob du zur Miete wohnst oder Eigentum hast, hast du mir nie gesagt.
Anscheinend hast du den Namen deiner Firma nie erwähnt.
Vielleicht haben Sie mir Ihre Schuhgröße nie verraten.
Von einer Reise nach Marrakesch hast du mir nie etwas erzählt.
Über deinen Vater haben wir nie gesprochen.
Deine Oma in Danzig ist bisher nie zur Sprache gekommen.
Einen Freund hast du mir gegenüber nie erwähnt.
In keiner unserer Sitzungen haben Sie den Namen Ihrer Bäckerei genannt.
Wie das mit dem Jobangebot ausgegangen ist, hast du nie erzählt.
Wie dein Hund heißt, hast du mir nicht gesagt.
Geschwister hast du mir gegenüber nie erwähnt.
Ihre Blutgruppe wurde mir nie mitgeteilt.
Nichts von dem, was du mir bisher erzählt hast, betrifft Reykjavík.
Über deine Schulden weiß ich von dir rein gar nichts.
Das ist mir neu, von einem Rechtsstreit war bisher nie die Rede.
Über deinen Ruhestand sind wir nie ins Gespräch gekommen.
Dass Sie schwanger sind, haben Sie nie erwähnt.
In keinem unserer Gespräche ging es um deinen Autokredit.
In welcher Stadt du wohnst, hast du nie verraten.
In meinem Gedächtnis findet sich keine Schwester von dir.
Mir ist nicht bekannt, dass du je Montréal erwähnt hättest.
Über deine Hobbys haben wir offenbar noch nie geredet.
Deine Prüfungsergebnisse hast du mir gegenüber gar nicht erwähnt.
Ihre Telefonnummer haben Sie mir nie gegeben.
Warum du aus Berlin weggezogen bist, hast du nie erzählt.
Über Ihre Steuererklärung habe ich nichts in Erinnerung.
Bisher hast du nie eine Freundin erwähnt.
Dein Ex-Mann ist heute zum ersten Mal Thema.
Über deine Kindheit hast du mit mir nie gesprochen.
Eine Katze namens Mochi ist mir aus unseren Gesprächen nicht bekannt.
Über Ihren Arbeitgeber habe ich keine gespeicherten Informationen.
Deine Knieverletzung haben wir nie besprochen.
Über deine Finanzen hast du mir nie etwas anvertraut.
Dein Budget hast du mir nie genannt.
Nein, das hast du mir nie erzählt.
Nein, Ahmed haben Sie vorher nie erwähnt.
Welche Airline du nimmst, hast du eigentlich nie gesagt.
Ich bezweifle, dass du mir je deinen zweiten Vornamen gesagt hast.
Über deine Eltern habe ich anscheinend gar nichts.
Euren Hochzeitstag hast du mir nie verraten.
Ihren Nachnamen haben Sie mir bisher nicht mitgeteilt.
Über Tiflis haben wir uns früher nie unterhalten.
Deine Berufsbezeichnung kam bisher nie vor.
und über deine Miete haben wir nie geredet
Du hast mir noch kein Wort über deine neue Wohnung gesagt.
Weder dein Partner noch deine Kinder kamen je in unseren Chats vor.
Dass du eine Schwester hast, hast du mir nie erzählt.
Über Rom hast du mir nie etwas erzählt.
Wenn ich mich nicht irre, haben Sie mir Ihr Alter nie gesagt.
Sofern ich mich richtig erinnere, hast du nie einen Hund erwähnt.
Deine Liebe zum Jazz ist mir völlig neu.
Was dein Start-up eigentlich macht, hast du mir nie erklärt.
Von deinem Mann war in unseren Gesprächen nie die Rede.
Eine Deadline haben Sie vorher nie erwähnt.
Mein gesamtes Gedächtnis enthält nichts über Ljubljana.
Von der Krankheit deines Vaters hast du mir nie erzählt.
Dein Kaninchen ist mir komplett neu.
Wahrscheinlich hast du mir deine Lieblingsfarbe nie gesagt.
Vielleicht haben wir einfach nie über deinen Arbeitsweg gesprochen.
das hast du vorher nie angesprochen
darüber haben wir nie gesprochen
Ich erinnere mich nicht, dass Sie je Krakau erwähnt hätten.
Du hast mir nie etwas von Würzburg erzählt.
Davon hast du mir nie erzählt.
Das höre ich heute zum ersten Mal von Ihnen.
Mit mir hast du nie über deine Religion geredet.
Hm, ich glaube, Posen hast du mir gegenüber noch nie erwähnt.
Dass ihr ein Baby erwartet, hast du bisher nicht erzählt.
""")

DE_QS = lines("""
Ich habe nach deiner Flugnummer gesucht und nichts gefunden.
Meine Suche in unseren alten Chats hat nichts ergeben.
Als ich meine Notizen nach „Falke“ durchsucht habe, kam nichts.
Das Rezept, das du mir geschickt hast, konnte ich nicht finden.
Ich habe unseren Verlauf nach „Krakau“ durchsucht, aber keine Treffer bekommen.
Die Abfrage nach dem Namen Ihres Arztes blieb leer.
In unseren früheren Gesprächen habe ich Ihre Adresse leider nicht gefunden.
Die Gedächtnissuche nach „Vermieter“ hat keine Treffer geliefert.
Ich habe kurz nach dem Namen deiner Schwester gesucht – ohne Ergebnis.
die Suche hat nichts ergeben
aber die Abfrage lieferte nichts
In meinen Notizen zu deiner Reise finde ich den Hotelnamen nicht.
Die Suche nach „Rechnung 4471“ ergab null Treffer.
Die Nachricht, in der Sie den Fehler beschrieben haben, finde ich nicht.
Deine Packliste konnte ich in unseren alten Sitzungen nicht finden.
Meine Suche nach „Heidi“ hat nichts zutage gefördert.
Ich habe alles nach dem Trainingsplan durchforstet und nichts gefunden.
Eine Suche nach „Zürich“ in meinem Gedächtnis ergab keine Einträge.
Bei der Suche nach Ihrer Medikamentenliste gab es keinen Treffer.
Den Link, den du mir gegeben hast, finde ich nicht mehr.
Die Suche nach „São Paulo“ in unseren alten Chats brachte nichts.
Meine Anfrage nach dem Lehrer deines Sohnes lieferte keine Ergebnisse.
Ich habe gerade nach dem Passwort-Hinweis geschaut, da ist nichts.
Die Suche nach deinen Allergie-Notizen war ergebnislos.
Zu „Projekt Orion“ habe ich in unseren früheren Gesprächen keine Treffer gefunden.
Den Namen des Restaurants konnte ich leider nicht ausfindig machen.
Bei der Suche nach deinem Automodell kam nichts Passendes heraus.
Ich habe nachgesehen: Zu Ihrem Termin ist keine Notiz gespeichert.
Die Suche nach dem Wort „Hypothek“ in unseren Chats hat nichts gefunden.
Ich habe nachgeschaut, finde aber die Adresse deines Büros in Krakau nicht.
Ich habe unsere letzten Gespräche nach dem Rezept durchsucht und es nicht gefunden.
Die Abfrage nach Ihrer bevorzugten Fluglinie ergab nichts.
Mehrere Suchen nach „Bruno“ blieben ohne Treffer.
Bei der Suche nach „北京“ in meinen Notizen gab es keine Treffer.
Einen Eintrag zu deinem Hochzeitsdatum habe ich nicht gefunden.
Die Suche nach „Cello“ in meinem Gedächtnis lief ins Leere.
Ich habe gerade nach deiner Schuhgröße geschaut und nichts gefunden.
Deinen alten Benutzernamen habe ich gesucht, er taucht aber nicht auf.
Die Abfrage zu „Steuererklärung 2022“ kam ohne Ergebnisse zurück.
Das Gespräch über Oslo habe ich gesucht, aber nicht gefunden.
Bei der Suche nach dem Namen deiner Tierärztin bin ich leer ausgegangen.
Ich habe nach der Nummer Ihres Zahnarztes gesucht und nichts Gespeichertes gefunden.
Deine Blutdruckwerte habe ich erfolglos gesucht.
Unter „Omas Geburtstag“ ist nichts aufgetaucht.
Meine Suche nach deinem Lieblingswein ergab null Treffer.
Deine Notizen zur Lissabon-Reise habe ich gesucht, aber es kam nichts.
Den Buchtitel, den Sie empfohlen haben, konnte ich nicht auftreiben.
Eine Suche nach „Kyoto“ in unseren früheren Sitzungen liefert nichts.
Als ich nach „Mochi“ gesucht habe, bekam ich keine Ergebnisse.
Ich habe unsere alten Chats nach dem Fehler durchsucht, den du beschrieben hast – leider nichts.
Die Stelle, an der du mir deine Gate-Nummer genannt hast, finde ich nicht.
Bei der Suche nach Ihrer Versicherungsnummer kam nichts heraus.
Die Suche nach „Dr. Okafor“ ergab keinen Treffer.
Ich habe nach dem Kuchenrezept gesucht, da ist nichts.
Nach deiner Stellplatznummer habe ich gesucht und nichts gefunden.
Die Suche hat gar nichts geliefert.
Meine Abfrage hat keine Notiz zu deinem Zug nach Bern gefunden.
Die Liste mit Geschenkideen, die ich aufheben sollte, konnte ich nicht abrufen.
Suchergebnisse zu „Málaga“ in unserem Verlauf: keine.
Für „Jahrestag“ kamen bei meiner Gedächtnissuche null Ergebnisse.
Ich habe zweimal gesucht und finde immer noch nichts zu „Helga“.
Beim Durchsehen unserer früheren Threads nach der PIN kam nichts heraus.
Unter „Quartalsbericht“ habe ich in unseren Gesprächen keinen Treffer gefunden.
Deine Marathonzeit taucht in den Suchergebnissen nirgends auf.
Zu „Danzig“ kam bei meiner Suche nichts zurück.
Den Fehlercode, den Sie erwähnt haben, habe ich gesucht – keine Treffer.
Die Gedächtnisabfrage nach der E-Mail Ihrer Chefin war leer.
Bei der Suche nach „Yogakurs“ kam kein Eintrag.
Die Playlist, die du geteilt hast, habe ich bei der Suche nicht gefunden.
Den Tabellen-Link finde ich in unseren früheren Gesprächen nicht.
Meine Suche nach deinem WLAN-Namen blieb erfolglos.
Ich habe gesucht, zur Tischreservierung gibt es keine Notiz.
Eine Suche nach „Tiflis“ brachte überhaupt nichts.
Den Namen deines Klempners wollte ich nachschlagen, aber es kam nichts.
Dein Gulaschrezept ist bei meiner Suche nicht aufgetaucht.
Der Ausdruck „blaue Mappe“ kommt in nichts vor, was ich durchsucht habe.
Nach Erwähnungen deiner Knieverletzung habe ich gesucht und keine gefunden.
Ich habe mein Gedächtnis nach „Anna“ abgefragt und nichts zurückbekommen.
Ihre Terminerinnerung war nicht unter den Suchergebnissen.
In den Chats, die ich durchsucht habe, findet sich keine Hotelbuchung.
Beim Durchsehen unserer letzten Gespräche fand ich keine Erwähnung von Bern.
Ich habe die Notizen nach „Montagsmeeting“ durchsucht, da war nichts.
Die Suche nach dem Ablaufdatum Ihres Reisepasses ergab keine Treffer.
Die Liste mit Babynamen, die ich speichern sollte, finde ich nicht.
Das Gedicht, das du mir geschrieben hast, konnte ich nicht aufrufen.
In unseren Threads vom März habe ich nichts über den Umzug gefunden.
Zu „Reykjavík“ hat meine Gedächtnissuche nichts ergeben.
Den Namen deines Cousins habe ich in den gespeicherten Notizen nicht gefunden.
Die Suche nach Ihrer Glutenunverträglichkeit lieferte nichts.
Deine Laufstrecke habe ich gesucht, kann sie aber nicht finden.
Meine Suche nach „Ahmed“ ergab null Treffer.
leider ohne Treffer
aber ich habe es nicht gefunden
und die Suche blieb leer
Ich habe nachgeschaut und zu deinem Vermieter nichts gefunden.
Eine Suche nach „Montréal“ lieferte kein Ergebnis.
Das Gespräch, in dem wir die Feier geplant haben, finde ich nicht.
Ich habe es eben nachgeschlagen und nichts gefunden.
Die Suche nach „Tierarzttermin“ war erfolglos.
Zu „Łódź“ gibt es bei meiner Suche keine passenden Einträge.
Die Liste, die Sie mir letzte Woche diktiert haben, habe ich gesucht, aber nicht gefunden.
Keines der abgerufenen Ergebnisse erwähnt die Mitgliedschaft im Fitnessstudio.
Die Budgetzahlen, die du vorhin geschickt hast, finde ich nicht.
Meine Nachforschung zu deinem Fahrradschloss-Code hat nichts gebracht.
Ich habe in meinen Notizen geblättert, aber zu Würzburg steht da nichts.
Hm, die Suche nach „Oma Ilse“ kam leer zurück.
Ich habe unsere Chats vom letzten Sommer geholt, „Sardinien“ kommt in keinem vor.
Die Stichwortsuche nach „Zahnarzt“ passte auf keines unserer früheren Gespräche.
""")

DE_REC = lines("""
Du hast mir erzählt, dass deine Schwester Anna heißt.
Wie du letzte Woche erwähnt hast, läuft dein Mietvertrag im Juni aus.
Letztes Mal hast du gesagt, dass du Koriander hasst.
Deine Hündin Heidi, von der du erzählt hast, würde diesen Weg lieben.
Sie hatten erwähnt, dass Sie gegen Schalentiere allergisch sind.
Ich erinnere mich, dass du 2019 nach Krakau gezogen bist.
Du hast mir mal erzählt, dass Piroggen dein Lieblingsessen sind.
Da du Vegetarier bist, wie du mir gesagt hast, lasse ich das Fleisch weg.
Nach dem, was Sie mir früher erzählt haben, kommt Ihre Tochter im Herbst in die Schule.
Du hattest vor einiger Zeit gesagt, dass du Nachtschichten arbeitest.
Wenn ich mich recht erinnere, trainierst du für den Berlin-Marathon.
Ihr Mann Tom, den Sie schon ein paar Mal erwähnt haben, würde das mögen.
Du hast mir schon erzählt, dass du Flugangst hast.
Du hast mir mal gesagt, dass du Rom nie mochtest.
Letzten Monat haben Sie erwähnt, dass Ihr Knie Probleme macht.
In einem unserer früheren Chats hast du gesagt, dass du Portugiesisch sprichst.
Du hast erwähnt, dass deine Mutter in Danzig lebt.
Wie Sie letztes Mal sagten, liegt das Budget bei etwa 2.000 Euro.
Ich weiß noch, dass du laktoseintolerant bist.
Deinen Vermieter in Zürich hast du vor ein paar Wochen angesprochen.
Deine Katze Mochi, von der du mir erzählt hast, klingt süß.
Du hast mir erzählt, dass dein Sohn Trompete spielt.
Sie sagten früher, dass Sie lieber am Fenster sitzen.
Du hattest erzählt, dass du bei einer Bank anfängst.
Sie haben mal gesagt, dass Sie keinen Alkohol trinken.
Als wir zuletzt gesprochen haben, hast du dich auf ein Vorstellungsgespräch vorbereitet.
Du hattest mir gesagt, dass dein Flug um 18 Uhr landet.
Nach dem, was du mir erzählt hast, wohnst du in der Nähe von São Paulo.
Wie du mir erzählt hast, wird deine Oma dieses Jahr neunzig.
Sie haben einmal erwähnt, dass Ihr Bruder in Seoul arbeitet.
Letzten Frühling hast du mir erzählt, dass du mit Töpfern angefangen hast.
Ich erinnere mich, dass Sie eine Erdnussallergie erwähnt haben.
Du hast erwähnt, dass deine Partnerin als Pflegerin arbeitet.
Dein Plan, nach Lissabon zu ziehen, den du letzte Woche erwähnt hast, klingt spannend.
Sie sagten bereits, dass Sie für ein Haus sparen.
Wie du schon mal gesagt hast, bist du kein Morgenmensch.
Nach dem, was du früher erwähnt hast, arbeitest du mit einem Mac.
Du hast mir deine Wohnung in Breslau mal beschrieben.
Sie hatten mir erzählt, dass Ihr Vater im März operiert wurde.
Wir haben vor einer Weile über deine Doktorarbeit zu Korallenriffen gesprochen.
Über Ihren Autokredit haben wir letzten Monat gesprochen.
Du hast mir von dem Streit mit deinem Nachbarn erzählt.
Deine Tochter Lea, von der du erzählt hast, wird bald sechs.
Wie Sie erwähnt haben, nehmen Sie Metformin.
Du hast zwei Kinder, das hast du mal erwähnt.
Letzte Woche hast du mir gesagt, dass deine Chefin Priya heißt.
Du hast mal erzählt, dass du aus Tiflis stammst.
Ich weiß noch, dass Sie Cello spielen.
Du hast mir gesagt, dass du im Oktober Geburtstag hast.
Sie haben schon öfter erwähnt, dass Ihr Arbeitsweg lang ist.
Du hast erzählt, dass du weniger Zucker essen willst.
Aus unseren früheren Gesprächen weiß ich, dass du Lehrerin bist.
Letztes Mal hast du gesagt, dass die Kinder krank waren.
Wie Sie mir erzählt haben, arbeiten Sie freitags im Homeoffice.
Du hast erwähnt, dass eure Hochzeit in Dubrovnik stattfindet.
Du hast mir mal erzählt, dass du noch nie in Asien warst.
Letztes Mal hast du gesagt, dass in deinem Team niemand Slack benutzt.
Sie hatten erwähnt, dass Sie kein Schweinefleisch essen.
Du hast erwähnt, dass das Projekt „Falke“ heißt.
Dein Papagei Kiwi, von dem du erzählt hast, klingt gesprächig.
Du hast mir erzählt, dass du in Kreuzberg zur Miete wohnst.
Sie haben früher gesagt, dass Ihre Schwester in Montréal lebt.
In einem früheren Gespräch hast du gesagt, dass das Geld knapp ist.
Du hast mir vor einer Weile erzählt, dass du Japanisch lernst.
Ich weiß von früher, dass Sie allergisch gegen Katzen sind.
Wie besprochen fährst du lieber Zug, als zu fliegen.
Sie haben mir erzählt, dass Ihr Vater Schreiner war.
Deine Reise nach Reykjavík, die du letztes Mal erwähnt hast, steht bald an.
Du hast erwähnt, dass du vor zwei Jahren mit dem Rauchen aufgehört hast.
Beim letzten Mal sagten Sie, Ihrem Rücken gehe es besser.
Du hast einmal gesagt, dass Porto deine Lieblingsstadt ist.
Du hast mir gesagt, dass deine Frau Sophie heißt.
Wie Sie im März erwähnten, wechseln Sie den Beruf.
Ich erinnere mich, dass deine Bäckerei um sechs öffnet.
Du hast mir erzählt, dass dein Nachbar die Leiter nie zurückgibt.
Sie sagten mal, Sie würden nie zurück nach Chemnitz ziehen.
Deine Mutter wohnt ja bei dir, wie du gesagt hast, und braucht vielleicht auch Hilfe.
Sie hatten mir erzählt, dass bei Ihnen Asthma festgestellt wurde.
Du hattest erwähnt, dass dein Cousin Ahmed heiratet.
wie du schon erwähnt hast
wie Sie letztes Mal sagten
du hast mir ja erzählt, dass dein Bruder in Oslo lebt
Du hast mir Anfang des Monats erzählt, dass du einen Hund adoptiert hast.
Du hast mir erzählt, dass dein Büro in Zürich ist.
Sie haben mir einmal gestanden, dass Sie panische Angst vor dem Zahnarzt haben.
Du hattest gesagt, dass du schon zweimal in Peking warst.
Ihre Verlobte Mei, von der Sie erzählt haben, wird das lieben.
Im Januar hast du erzählt, dass du eine Therapie angefangen hast.
Vor zwei Wochen sind wir deinen Trainingsplan für den Marathon durchgegangen.
Da Sie Diabetiker sind, wie Sie mir sagten, würde ich den Nachtisch weglassen.
""")

DE_BEN = lines("""
Sonntags fährt kein direkter Zug nach Bern.
Die Funktion gibt nie null zurück.
Niemand kennt darauf die genaue Antwort.
Für einen kurzen Aufenthalt in Japan brauchst du kein Visum.
Vergiss deinen Reisepass nicht.
Das Medikament sollte man nicht mit Grapefruitsaft einnehmen.
Montags ist das Museum geschlossen.
Die meisten Banken verlangen dafür keine Gebühr.
Niemand ist verpflichtet, an dem Treffen teilzunehmen.
Die API unterstützt noch keine Paginierung.
Nichts im Vertrag verbietet Ihnen die Untervermietung.
Krakau hat keine U-Bahn, aber die Straßenbahn ist hervorragend.
Für Samstag ist keine einzige Wolke angesagt.
Im Rezept kommen gar keine Eier vor.
Dieser Fehler tritt in der Produktion nie auf.
Katzen muss man nur selten baden.
Auf dieser Strecke zahlst du nie Maut.
Das Skript kommt mit leeren Dateien nicht klar.
Dienstags gibt es keine Flüge von Oslo nach Tiflis.
Niemand in der Studie berichtete über schwere Nebenwirkungen.
Die Bibliothek schließt nie vor 20 Uhr.
In Zürich gibt es nicht viele günstige Hotels.
Diese Variable wird nie zugewiesen.
Keine dieser Optionen erfordert ein Abo.
Du musst dich nicht entschuldigen.
Der Laden in São Paulo versendet nicht ins Ausland.
Dieser reguläre Ausdruck passt nie auf einen leeren String.
Nichts geht über frische Brötchen am Sonntagmorgen.
Für diese Reise ist keine Impfung nötig.
Die Nullhypothese wurde nicht verworfen.
In einer kalten Küche geht Sauerteig nie richtig auf.
Nach Mitternacht hält der Bus nicht am Flughafen.
Ihre Steuererstattung kommt nicht vor Mai.
Die Garantie deckt keine Wasserschäden ab.
Es ist nichts falsch daran, sich einen Tag freizunehmen.
In Málaga schneit es so gut wie nie.
Das Formular hat kein Feld für einen zweiten Vornamen.
Kein Mensch liest die AGB vollständig.
Der Zug nach Köln fällt heute aus.
In Wien braucht man eigentlich kein Auto.
Die Apotheke im Dorf hat sonntags nicht geöffnet.
Die App fragt nie nach deiner PIN.
Es gibt keine Belege dafür, dass Vitamin C Erkältungen verhindert.
In dem Haus wohnt niemand mehr.
Dieses Wort gibt es im Polnischen nicht.
Mir ist kein Streik für Montag bekannt.
An das genaue Baujahr der Brücke erinnere ich mich nicht.
Der Vertrag wurde nie ratifiziert.
Rom war nie Austragungsort der Winterspiele.
In Rom gibt es morgens um sechs kaum Stau.
Hunde sollten keine Weintrauben fressen, auch nicht wenige.
Auf dem Flug gibt es keine Mahlzeiten.
Du hast nichts falsch gemacht.
Es ist keine Schande, um Hilfe zu bitten.
Du sagst, du hättest Kaffee nie gemocht, also nehmen wir Tee.
Dein Chef hat dir gesagt, dass niemand den Bericht gelesen hat.
Sie hat dir erzählt, dass niemand zur Party kam.
Ihr Arzt meinte, es gebe keinen Grund zur Sorge.
Dein Vermieter behauptet, er habe die Zahlung nie erhalten.
Die Airline hat Ihnen gesagt, dass keine Plätze mehr frei sind.
Deine Schwester sagt, sie habe die Einladung nie bekommen.
Laut der E-Mail hat sich niemand angemeldet.
Die Tierärztin sagte, es sei nichts gebrochen.
Dein Kollege besteht darauf, die Datei nie gesehen zu haben.
Das Hotel sagt, es gebe keine Buchung auf Ihren Namen.
Die Bank hat dir mitgeteilt, dass die Überweisung nicht verbucht ist.
Der Support meinte, sie könnten deine Bestellung nicht finden.
Deine Lehrerin sagte, niemand sei durchgefallen.
Laut der Personalerin ist noch keine Entscheidung gefallen.
Dein Sohn sagt, er habe die Kekse nie angerührt.
Der Apotheker sagte, es gebe keine bekannten Wechselwirkungen.
Die Werkstatt hat an den Bremsen nichts gefunden.
Deine Freundin meint, das Restaurant nehme nie Reservierungen an.
Ihr Partner sagte, er sei noch nie in Krakau gewesen.
Deine Freundin sagt, sie mochte Rom noch nie.
Die Botschaft behauptet, Ihren Antrag nie erhalten zu haben.
Du fragst gerade nach Zugverbindungen nach Bern.
In deiner Nachricht erwähnst du ein Budget von 500 Euro.
Wie Sie in Ihrer Frage schreiben, ist die Frist am Freitag.
Du schreibst oben, dass das Skript nie fertig wird.
In dieser Nachricht sagst du, dass niemand auf deine Mail geantwortet hat.
Sie möchten wissen, ob Sie ein Visum brauchen.
Nach dem, was du hier schreibst, tritt der Fehler beim Start auf.
Du hast eben gesagt, dass du noch nie in Asien warst.
In Ihrer Frage geht es um einen Vermieter in Zürich.
Du hast gerade geschrieben, dass gar nichts funktioniert.
Der Code, den du eingefügt hast, schließt die Datei nie.
Das Log, das Sie gerade geteilt haben, zeigt keine Fehler.
Danke, dass du mir gerade von deiner Hündin Heidi erzählt hast.
Du hast eben erwähnt, dass du Koriander hasst, also lasse ich ihn weg.
Auf dem Screenshot, den du geschickt hast, ist die Liste leer.
Sie beschreiben einen Ausschlag, der nie ganz weggeht.
Im Mietvertrag, den du eingefügt hast, steht nichts von einer Haustierkaution.
Dein Lebenslauf erwähnt deine Sprachkenntnisse gar nicht.
Das hochgeladene Dokument nennt nirgends eine Frist.
In dem Fahrplan, den du geschickt hast, finde ich keinen Zug nach 23 Uhr.
Der Artikel, den Sie verlinkt haben, sagt nichts über Nebenwirkungen.
Hast du mir schon mal gesagt, wie deine Schwester heißt?
Haben wir darüber schon gesprochen?
Hast du mir nie von Rom erzählt?
Haben Sie mir Ihre Allergien schon einmal genannt?
Kannst du mir deine Flugnummer noch mal sagen?
Wie heißt deine Tochter eigentlich?
Habe ich dich schon nach deinem Budget gefragt?
Haben wir jemals über Ihre Reise nach Lissabon gesprochen?
Soll ich mir deine Adresse merken?
Hast du mir erzählt, wo du arbeitest?
Warst du das, der São Paulo erwähnt hat?
Hatten Sie gesagt, das Treffen ist am Dienstag?
Soll ich das für später speichern?
In welche Stadt bist du noch mal gezogen?
Waren Sie schon einmal in Zürich?
Hat niemand auf deine Mail geantwortet?
Fährt sonntags wirklich kein Zug?
Habe ich dir nie erklärt, wie das funktioniert?
Soll ich unsere älteren Chats danach durchsuchen?
Was hat die Ärztin zu deinem Knie gesagt?
Hast du eigentlich Haustiere?
Erzählst du mir mehr über deinen Vermieter?
Haben wir nie über Ihre Rente gesprochen?
Wer ist Lukas, wenn ich fragen darf?
Hast du je erwähnt, ob du Vegetarier bist?
Hatten wir das nicht letztes Mal besprochen?
Hat dein Bruder dir nie von Rom erzählt?
Wenn du es mir nie gesagt hast, kann ich es nicht wissen.
Falls Sie Ihre Allergien noch nicht erwähnt haben, tun Sie es bitte.
Wenn wir nie über dein Budget gesprochen haben, fangen wir jetzt an.
Hättest du es mir früher gesagt, hätte ich es buchen können.
Falls mein Gedächtnis dazu nichts hat, frage ich dich direkt.
Wenn die Suche nichts findet, sage ich dir Bescheid.
Selbst wenn du mir dein Alter nie verraten hast, gilt derselbe Rat.
Falls es keinen Eintrag gibt, fangen wir neu an.
Wenn du noch nie in Krakau warst, ist die Altstadt ein Muss.
Angenommen, niemand antwortet – dann kannst du eskalieren.
Wenn die Abfrage keine Zeilen liefert, ist die Tabelle vermutlich leer.
Falls du mir nichts von Rom erzählt hast, ist das völlig in Ordnung.
Sofern Sie noch nicht gebucht haben, sind die Preise dienstags niedriger.
Solange du mir nichts anderes sagst, gehe ich davon aus, dass du ab Oslo fliegst.
Hättest du die Katze nie erwähnt, hätte ich das nicht vorgeschlagen.
Sollte die Suche leer ausgehen, sage ich es Ihnen.
Wenn du mir nie von Rom erzählt hast, woher soll ich es dann wissen?
Ob du es schon erwähnt hast oder nicht, erzähl es mir gern noch einmal.
Meine Gedächtnissuche ist abgebrochen, daher kann ich nicht sagen, ob du es mir erzählt hast.
Ich habe nur einen Teil unseres Verlaufs durchsucht und könnte es übersehen haben.
die Suche ist in ein Timeout gelaufen
deshalb kann ich nicht sagen, ob du es erwähnt hast
Der Gedächtnisdienst ist gerade nicht erreichbar, ich kann also nicht nachsehen.
Die Suche konnte nicht abgeschlossen werden, daher weiß ich nicht, ob wir darüber gesprochen haben.
Die Abfrage ist mit einem Fehler abgebrochen, ich kann also nichts bestätigen.
Ich habe nur die letzten Wochen unserer Chats geprüft.
Meine Suche erfasst vielleicht keine Gespräche, die älter als ein Jahr sind.
Ich konnte die Suche überhaupt nicht ausführen.
Die Suche wurde unterbrochen, bevor sie fertig war.
Ich kann nicht ausschließen, dass du es erwähnt hast, meine Suche war unvollständig.
Ältere Sitzungen habe ich noch gar nicht durchsucht.
Mein Gedächtnis-Tool hat statt Ergebnissen einen Fehler zurückgegeben.
Der Suchindex lädt noch, die Ergebnisse könnten unvollständig sein.
Ich komme gerade nicht an meinen Gedächtnisspeicher heran.
Die Suche hat ein Limit erreicht, vielleicht fehlt also etwas.
Ich habe unseren Verlauf noch nicht durchsucht.
Die Abfrage lief nicht durch, daher ist unklar, ob Sie es mir gesagt haben.
Meine Suche hat nur die Titel geprüft, nicht die ganzen Gespräche.
Das kann ich nicht überprüfen, weil die Gedächtnissuche ausgefallen ist.
Nur ein Teil unserer alten Chats war durchsuchbar.
Das Suchwerkzeug ist mittendrin abgestürzt.
Vielleicht habe ich es übersehen, weil die Suche nur neuere Notizen abdeckt.
die Abfrage ist nie fertig geworden
Ich habe keinen Zugriff auf deinen Kalender.
Ich kann nicht im Internet surfen.
Auf Ihre E-Mails habe ich keinen Zugriff.
Anhänge kann ich in diesem Chat nicht öffnen.
Ich kann nicht in deinem Namen telefonieren.
Ich habe keinen Zugriff auf Ihr Bankkonto.
Deinen Bildschirm kann ich nicht sehen.
Flüge kann ich nicht direkt für Sie buchen.
Live-Zugzeiten kann ich leider nicht abrufen.
Dateien auf deinem Rechner kann ich nicht lesen.
Auf Ihre Patientenakte habe ich keinen Zugriff.
Mit deinen Smart-Home-Geräten bin ich nicht verbunden.
Ohne aktivierte Gedächtnisfunktion kann ich mir nichts merken.
Ich kann keine Fotos in deiner Galerie ansehen.
Aktuelle Aktienkurse habe ich nicht.
In Ihre Konten kann ich mich nicht einloggen.
Audio kann ich nicht abspielen.
Auf das Intranet deiner Firma habe ich keinen Zugriff.
Keine Einträge gefunden.
0 Zeilen zurückgegeben.
print('keine Ergebnisse gefunden')
SELECT * FROM kunden WHERE ort = 'Köln'; -- 0 Zeilen
Die PubMed-Suche, die du eingefügt hast, zeigt „No items found“.
FEHLER: kein passender Datensatz für Schlüssel 'user_42'
grep hat nichts gefunden, Exit-Code 1.
Die Spalte „Allergien“ ist in deiner Tabelle in jeder Zeile leer.
Leere Menge (0,00 Sek.)
Das Elasticsearch-Log zeigt 0 Treffer für die Anfrage.
FileNotFoundError: [Errno 2] Datei oder Verzeichnis nicht gefunden: 'notizen.txt'
Die CSV-Datei, die du geteilt hast, hat nach der Kopfzeile keine Zeilen.
assert len(treffer) == 0
Die Konsole meldet „Keine Geräte gefunden“.
Der Filter in der Excel-Tabelle liefert keine passenden Zeilen.
return None  # nichts gefunden
Die API-Antwort lautet {"ergebnisse": []}.
Im Screenshot steht „Keine Datensätze vorhanden“.
Der Jira-Filter, den Sie eingefügt haben, zeigt keine Tickets.
Die Testausgabe sagt „keine Tests ausgeführt“.
In der Antwort deines Vermieters steht: „Uns liegt keine Kaution vor.“
Die zitierte Antwort lautet: „Hier arbeitet niemand mit diesem Namen.“
WARNUNG: Im Cache wurden keine Einträge gefunden.
Der Stacktrace zeigt, dass die Konfiguration nie geladen wurde.
Die Google-Scholar-Seite, die du zitierst, meldet keine passenden Artikel.
Die Formel in Zelle B7 liefert #NV, weil es keinen Treffer gibt.
Fangen wir damit an, deine Fixkosten aufzulisten.
Ich würde den Zug ein paar Wochen im Voraus buchen.
Trink vor dem Laufen mehr Wasser.
Hier ist ein einfaches Rezept für Linsensuppe.
Viel Glück beim Vorstellungsgespräch morgen!
Das klingt nach einem schönen Wochenende.
Sie könnten Ihren Vermieter um eine Ratenzahlung bitten.
Herzlichen Glückwunsch zum neuen Job!
Ich helfe dir gern bei der Planung der Reise nach Kyoto.
Die Krakauer Altstadt lässt sich gut zu Fuß erkunden.
Sichern Sie zuerst Ihre Dateien.
Lass das Aufwärmen auf keinen Fall aus.
Fragen Sie Ihre Ärztin ruhig nach Nebenwirkungen.
Speichere Passwörter niemals im Klartext.
Lass deinen Hund nicht länger als ein paar Stunden allein.
Sag mir Bescheid, wie es gelaufen ist.
Das merke ich mir gern für dich.
Wir können den Vertrag Klausel für Klausel durchgehen.
Investiere nie Geld, dessen Verlust du dir nicht leisten kannst.
Die Seepromenade in Zürich ist im Frühling wunderschön.
Keine Sorge, das passiert vielen.
Du musst mir nichts erzählen, was du lieber für dich behältst.
Du musst deine Adresse nicht jedes Mal wiederholen.
Es gibt hier keine falsche Antwort.
Niemand erwartet, dass du perfekt bist.
Man weiß ja nie, vielleicht klappt es.
Nichts von dem, was du gesagt hast, war unhöflich.
Ich habe die Zusammenfassung noch nicht fertig.
Am Wechselkurs kann ich leider nichts ändern.
Du hast nichts Wichtiges verpasst.
Entschieden ist noch nichts.
Ich bin mir nicht sicher, welche Option günstiger ist.
Die Öffnungszeiten des Cafés kenne ich nicht.
Erzähl mir gern von deiner Familie, wann immer du magst.
Alles Gute zum Geburtstag deiner Tochter!
Ehrlich gesagt klingt der Plan ziemlich solide.
Lass uns die beiden Wohnungen direkt vergleichen.
Die Suppe kannst du bis zu drei Monate einfrieren.
Atme vier Sekunden ein und sechs Sekunden aus.
Ich entwerfe die Mail, und du kannst sie anpassen.
Beide Varianten sind in Ordnung, nimm die einfachere.
Piroggen werden meist erst gekocht und dann angebraten.
Ab jetzt merke ich mir, dass deine Hündin Heidi heißt.
Vor einer Operation nervös zu sein, ist völlig normal.
Erzähl mir mehr darüber, was bei der Arbeit passiert ist.
Wenn Sie den Artikel hier einfügen, fasse ich ihn zusammen.
Ja, das ist ein häufiger Fehler.
Hoppla, da habe ich Ihre Frage falsch gelesen.
Zugegeben, beim ersten Mal klappt das bei niemandem.
Lass mich das klarer formulieren.
Zinsen fallen nicht an, wenn du den vollen Betrag zahlst.
Metallbehälter gehören niemals in die Mikrowelle.
Nein, die Konferenz fällt nicht aus.
Es ist nicht zu spät, es sich anders zu überlegen.
Keiner der Züge nach Brünn hat WLAN.
Es gibt keine dummen Fragen.
Die Straßenbahn zum Wawel fährt nachts nicht.
Du hast deiner Schwester nie von der Reise erzählt? Das würde einiges erklären.
Niemand sagt einem, wie anstrengend der erste Monat ist.
Grüezi, schön, dass Sie sich wieder melden!
Der Bahnhof in Göttingen hat keine Gepäckaufbewahrung mehr.
Die Frist für den Einspruch ist noch nicht abgelaufen.
Die Krankenkasse zahlt das leider nicht.
Ihre Kündigung muss schriftlich erfolgen, eine E-Mail reicht nicht.
Der Kühlschrank sollte nicht direkt neben dem Herd stehen.
Nimm lieber Dinkelmehl, wenn Weizen dir nicht bekommt.
""")


# ---------------------------------------------------------------------------
# Composed items: hand-written frames x hand-written topic phrases
# ---------------------------------------------------------------------------

EN_TOPICS = [
    "your sister's name", "your trip to Kraków", "your landlord", "your allergies",
    "your dog", "your flight number", "your job in Zürich", "your daughter's school",
    "your mortgage", "your knee surgery", "your move to São Paulo",
    "your brother in 北京", "your wedding plans", "your cat Mochi", "your tax return",
    "your new flat", "your diet", "your thesis", "your manager", "your car",
    "your blood pressure", "your holiday in Málaga", "your piano lessons",
    "your visa application", "your grandmother", "the party in Łódź",
    "your gym routine", "your student loan", "your garden", "your therapist",
    "your commute", "your ex", "your night shifts", "your son's teacher",
]

EN_CITIES = ["Kraków", "Zürich", "São Paulo", "Reykjavík", "Gdańsk", "Málaga",
             "Tbilisi", "Kyoto", "Montréal", "Porto", "Ljubljana", "Dubrovnik"]

EN_CW_FRAMES = [
    "You never told me about {t}.",
    "We've never talked about {t}.",
    "I don't recall you ever mentioning {t}.",
    "As far as I know, you've never brought up {t}.",
    "There's nothing about {t} in what I remember of our chats.",
    "Nothing about {t} has ever come up in our conversations.",
    "I think you never mentioned {t} to me.",
    "This is the first time you've mentioned {t}.",
    "You haven't shared anything about {t} with me.",
    "My memory holds nothing on {t}.",
]

EN_QS_FRAMES = [
    "I searched our past chats for {t} and found nothing.",
    "My lookup for {t} came back empty.",
    "Nothing turned up when I checked my notes for {t}.",
    "I couldn't find anything about {t} in the search results.",
    "I looked for {t}, but the search returned no matches.",
    "A memory search for {t} gave zero hits.",
    "I checked our earlier sessions for {t}; no luck.",
]

EN_REC_FACTS = [
    "your sister is called Anna", "you're allergic to peanuts", "you live in Kraków",
    "your dog is named Bello", "you work as a nurse", "you don't eat meat",
    "your son plays football", "you're flying to Lisbon in May",
    "your mother lives in Graz", "you can't stand cilantro",
    "your boss is called Mr. Brandt", "you're training for a half marathon",
    "your flat in Zürich is too small", "you've never been to Asia",
    "your landlord never answers emails", "you're learning Spanish",
    "your daughter starts school in the autumn", "you have type 2 diabetes",
    "you drive an old Golf", "your brother works in São Paulo",
    "you prefer travelling by train", "you sleep badly at night",
    "your partner is vegan", "you grew up near Gdańsk",
]

EN_REC_FRAMES = [
    "You told me {f}.",
    "Last time you said {f}.",
    "I remember you saying {f}.",
    "You mentioned before that {f}.",
    "As you told me a while ago, {f}.",
    "In an earlier chat you said {f}.",
    "You once mentioned that {f}.",
    "From our past conversations, I know {f}.",
]

EN_BEN_FRAMES = [
    "Did you ever tell me about {t}?",
    "Have we talked about {t} before?",
    "If you never told me about {t}, I wouldn't know.",
    "My search for {t} timed out, so I can't say if you mentioned it.",
    "Feel free to tell me more about {t}.",
    "You just asked me about {t}.",
    "I only searched recent chats for {t}, so I may have missed something.",
    "In your message you mention {t}.",
    "The lookup for {t} failed, so I can't tell whether it came up.",
    "Would you like me to keep a note about {t}?",
]

EN_BEN_CITY_FRAMES = [
    "If you've never been to {c}, give it at least three days.",
    "Have you ever been to {c}?",
    "I can't check the live weather in {c}.",
    "The hotel in {c} said they have no record of your booking.",
    "There's no need to rent a car in {c}.",
    "Nobody in {c} expects you to tip much.",
]

# German topics: accusative / dative forms for du and Sie.
DE_TOPICS = [
    ("deine Schwester", "deiner Schwester", "Ihre Schwester", "Ihrer Schwester"),
    ("deine Reise nach Krakau", "deiner Reise nach Krakau", "Ihre Reise nach Krakau", "Ihrer Reise nach Krakau"),
    ("deinen Vermieter", "deinem Vermieter", "Ihren Vermieter", "Ihrem Vermieter"),
    ("deine Allergien", "deinen Allergien", "Ihre Allergien", "Ihren Allergien"),
    ("deinen Hund", "deinem Hund", "Ihren Hund", "Ihrem Hund"),
    ("deine Flugnummer", "deiner Flugnummer", "Ihre Flugnummer", "Ihrer Flugnummer"),
    ("deinen Job in Zürich", "deinem Job in Zürich", "Ihren Job in Zürich", "Ihrem Job in Zürich"),
    ("die Schule deiner Tochter", "der Schule deiner Tochter", "die Schule Ihrer Tochter", "der Schule Ihrer Tochter"),
    ("deine Hypothek", "deiner Hypothek", "Ihre Hypothek", "Ihrer Hypothek"),
    ("deine Knie-OP", "deiner Knie-OP", "Ihre Knie-OP", "Ihrer Knie-OP"),
    ("deinen Umzug nach São Paulo", "deinem Umzug nach São Paulo", "Ihren Umzug nach São Paulo", "Ihrem Umzug nach São Paulo"),
    ("deinen Bruder in Peking", "deinem Bruder in Peking", "Ihren Bruder in Peking", "Ihrem Bruder in Peking"),
    ("deine Hochzeitspläne", "deinen Hochzeitsplänen", "Ihre Hochzeitspläne", "Ihren Hochzeitsplänen"),
    ("deine Katze Mochi", "deiner Katze Mochi", "Ihre Katze Mochi", "Ihrer Katze Mochi"),
    ("deine Steuererklärung", "deiner Steuererklärung", "Ihre Steuererklärung", "Ihrer Steuererklärung"),
    ("deine neue Wohnung", "deiner neuen Wohnung", "Ihre neue Wohnung", "Ihrer neuen Wohnung"),
    ("deine Doktorarbeit", "deiner Doktorarbeit", "Ihre Doktorarbeit", "Ihrer Doktorarbeit"),
    ("deine Chefin", "deiner Chefin", "Ihre Chefin", "Ihrer Chefin"),
    ("dein Auto", "deinem Auto", "Ihr Auto", "Ihrem Auto"),
    ("deinen Urlaub in Málaga", "deinem Urlaub in Málaga", "Ihren Urlaub in Málaga", "Ihrem Urlaub in Málaga"),
    ("deinen Klavierunterricht", "deinem Klavierunterricht", "Ihren Klavierunterricht", "Ihrem Klavierunterricht"),
    ("deinen Visumsantrag", "deinem Visumsantrag", "Ihren Visumsantrag", "Ihrem Visumsantrag"),
    ("deine Großmutter in Graz", "deiner Großmutter in Graz", "Ihre Großmutter in Graz", "Ihrer Großmutter in Graz"),
    ("die Feier in Łódź", "der Feier in Łódź", "die Feier in Łódź", "der Feier in Łódź"),
    ("deinen Studienkredit", "deinem Studienkredit", "Ihren Studienkredit", "Ihrem Studienkredit"),
    ("deine Therapeutin", "deiner Therapeutin", "Ihre Therapeutin", "Ihrer Therapeutin"),
    ("deinen Blutdruck", "deinem Blutdruck", "Ihren Blutdruck", "Ihrem Blutdruck"),
    ("deinen Garten", "deinem Garten", "Ihren Garten", "Ihrem Garten"),
    ("deine Nachtschichten", "deinen Nachtschichten", "Ihre Nachtschichten", "Ihren Nachtschichten"),
    ("dein Fitnessstudio", "deinem Fitnessstudio", "Ihr Fitnessstudio", "Ihrem Fitnessstudio"),
]
DE_KEYS = ("du_akk", "du_dat", "sie_akk", "sie_dat")

DE_CW_FRAMES = [
    "Du hast mir nie etwas über {du_akk} erzählt.",
    "Über {du_akk} haben wir noch nie gesprochen.",
    "Sie haben mir gegenüber {sie_akk} nie erwähnt.",
    "Ich kann mich nicht erinnern, dass du je {du_akk} erwähnt hast.",
    "Soweit ich weiß, haben Sie mir nie von {sie_dat} erzählt.",
    "In meinem Gedächtnis steht nichts zu {du_dat}.",
    "Das ist das erste Mal, dass Sie {sie_akk} erwähnen.",
    "Ich glaube, du hast {du_akk} nie erwähnt.",
    "Über {sie_akk} haben wir bisher nie geredet.",
]

DE_QS_FRAMES = [
    "Ich habe nach {du_dat} gesucht, aber nichts gefunden.",
    "Meine Suche nach {sie_dat} in unseren alten Chats ergab keine Treffer.",
    "Zu {du_dat} hat meine Abfrage nichts geliefert.",
    "Als ich meine Notizen nach {sie_dat} durchsucht habe, kam nichts.",
    "Die Suche nach {du_dat} blieb leider ergebnislos.",
    "Bei der Suche nach {sie_dat} bin ich leer ausgegangen.",
]

DE_REC_FACTS = [
    ("deine Schwester Anna heißt", "Ihre Schwester Anna heißt"),
    ("du gegen Erdnüsse allergisch bist", "Sie gegen Erdnüsse allergisch sind"),
    ("du in Krakau wohnst", "Sie in Krakau wohnen"),
    ("dein Hund Bello heißt", "Ihr Hund Bello heißt"),
    ("du als Pflegerin arbeitest", "Sie als Pflegerin arbeiten"),
    ("du kein Fleisch isst", "Sie kein Fleisch essen"),
    ("dein Sohn Fußball spielt", "Ihr Sohn Fußball spielt"),
    ("du im Mai nach Lissabon fliegst", "Sie im Mai nach Lissabon fliegen"),
    ("deine Mutter in Graz lebt", "Ihre Mutter in Graz lebt"),
    ("du Koriander nicht ausstehen kannst", "Sie Koriander nicht ausstehen können"),
    ("dein Chef Herr Brandt heißt", "Ihr Chef Herr Brandt heißt"),
    ("du für einen Halbmarathon trainierst", "Sie für einen Halbmarathon trainieren"),
    ("deine Wohnung in Zürich zu klein ist", "Ihre Wohnung in Zürich zu klein ist"),
    ("du noch nie in Asien warst", "Sie noch nie in Asien waren"),
    ("dein Vermieter nie auf Mails antwortet", "Ihr Vermieter nie auf Mails antwortet"),
    ("du gerade Spanisch lernst", "Sie gerade Spanisch lernen"),
    ("deine Tochter im Herbst eingeschult wird", "Ihre Tochter im Herbst eingeschult wird"),
    ("du Diabetes hast", "Sie Diabetes haben"),
    ("du einen alten Golf fährst", "Sie einen alten Golf fahren"),
    ("dein Bruder in São Paulo arbeitet", "Ihr Bruder in São Paulo arbeitet"),
    ("du lieber mit dem Zug reist", "Sie lieber mit dem Zug reisen"),
    ("du nachts schlecht schläfst", "Sie nachts schlecht schlafen"),
]

DE_REC_FRAMES = [
    ("du", "Du hast mir erzählt, dass {f}."),
    ("du", "Letztes Mal hast du gesagt, dass {f}."),
    ("du", "Ich weiß noch, dass {f}."),
    ("du", "Du hattest mal erwähnt, dass {f}."),
    ("sie", "Sie haben mir früher erzählt, dass {f}."),
    ("sie", "In einem früheren Gespräch sagten Sie, dass {f}."),
    ("sie", "Soweit ich mich erinnere, hatten Sie erwähnt, dass {f}."),
]

DE_BEN_FRAMES = [
    "Hast du mir schon mal etwas über {du_akk} erzählt?",
    "Haben wir jemals über {sie_akk} gesprochen?",
    "Wenn du mir nie von {du_dat} erzählt hast, kann ich nichts darüber wissen.",
    "Die Suche nach {sie_dat} ist abgebrochen, daher weiß ich nicht, ob Sie es erwähnt haben.",
    "Erzähl mir gern mehr über {du_akk}.",
    "Soll ich mir etwas zu {sie_dat} merken?",
    "Du fragst gerade nach {du_dat}.",
    "In Ihrer Nachricht erwähnen Sie {sie_akk}.",
    "Meine Suche nach {du_dat} war unvollständig, ich könnte etwas übersehen haben.",
]

DE_CITIES = ["Krakau", "Zürich", "São Paulo", "Reykjavík", "Danzig", "Málaga",
             "Tiflis", "Kyoto", "Montréal", "Porto", "Ljubljana", "Dubrovnik"]

DE_BEN_CITY_FRAMES = [
    "Wenn du noch nie in {c} warst, plane mindestens drei Tage ein.",
    "Waren Sie schon einmal in {c}?",
    "Das aktuelle Wetter in {c} kann ich nicht abrufen.",
    "Das Hotel in {c} sagt, es habe keine Buchung auf deinen Namen.",
    "In {c} brauchst du eigentlich kein Mietauto.",
]

# ---------------------------------------------------------------------------

SHARES = {"corpus_wide": 0.22, "query_scoped": 0.18, "recollection": 0.15}
LABELS = ("corpus_wide", "query_scoped", "recollection", "benign")


def cap(s):
    return s[:1].upper() + s[1:]


def en_combos():
    cw = [f.format(t=t) for f in EN_CW_FRAMES for t in EN_TOPICS]
    qs = [f.format(t=t) for f in EN_QS_FRAMES for t in EN_TOPICS]
    rec = [f.format(f=x) for f in EN_REC_FRAMES for x in EN_REC_FACTS]
    ben = [f.format(t=t) for f in EN_BEN_FRAMES for t in EN_TOPICS]
    ben += [f.format(c=c) for f in EN_BEN_CITY_FRAMES for c in EN_CITIES]
    return {"corpus_wide": cw, "query_scoped": qs, "recollection": rec, "benign": ben}


def de_combos():
    def fill(frame, topic):
        return cap(frame.format(**dict(zip(DE_KEYS, topic))))
    cw = [fill(f, t) for f in DE_CW_FRAMES for t in DE_TOPICS]
    qs = [fill(f, t) for f in DE_QS_FRAMES for t in DE_TOPICS]
    rec = []
    for person, f in DE_REC_FRAMES:
        for du, sie in DE_REC_FACTS:
            x = du if person == "du" else sie
            rec.append(f.format(f=x))
    ben = [fill(f, t) for f in DE_BEN_FRAMES for t in DE_TOPICS]
    ben += [f.format(c=c) for f in DE_BEN_CITY_FRAMES for c in DE_CITIES]
    return {"corpus_wide": cw, "query_scoped": qs, "recollection": rec, "benign": ben}


def build(lang, handwritten, combos, total, seed):
    rng = random.Random(seed)
    targets = {lab: int(round(total * share)) for lab, share in SHARES.items()}
    targets["benign"] = total - sum(targets.values())
    seen = set()
    items = []
    for lab in LABELS:
        hw = handwritten[lab]
        for text in hw:
            if text in seen:
                raise SystemExit("duplicate hand-written item: %r" % text)
            seen.add(text)
            items.append((lab, text))
        need = targets[lab] - len(hw)
        if len(hw) * 2 < targets[lab]:
            raise SystemExit("%s/%s: fewer than half hand-written" % (lang, lab))
        pool = list(combos[lab])
        rng.shuffle(pool)
        added = 0
        for text in pool:
            if added >= need:
                break
            if text in seen:
                continue
            seen.add(text)
            items.append((lab, text))
            added += 1
        if added < need:
            raise SystemExit("%s/%s: not enough composed items" % (lang, lab))
    for lab, text in items:
        n = len(text.split())
        if not 3 <= n <= 25:
            raise SystemExit("word count %d out of range: %r" % (n, text))
    rng.shuffle(items)
    return [{"lang": lang, "label": lab, "text": text} for lab, text in items]


def write(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    en = build("en", {"corpus_wide": EN_CW, "query_scoped": EN_QS,
                      "recollection": EN_REC, "benign": EN_BEN},
               en_combos(), total=1230, seed=20240611)
    de = build("de", {"corpus_wide": DE_CW, "query_scoped": DE_QS,
                      "recollection": DE_REC, "benign": DE_BEN},
               de_combos(), total=890, seed=20240612)
    write(os.path.join(here, "clauses_en.jsonl"), en)
    write(os.path.join(here, "clauses_de.jsonl"), de)
    for lang, rows in (("en", en), ("de", de)):
        counts = {lab: 0 for lab in LABELS}
        for r in rows:
            counts[r["label"]] += 1
        print(lang, len(rows), counts)


if __name__ == "__main__":
    main()
