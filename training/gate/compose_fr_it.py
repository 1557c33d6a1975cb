#!/usr/bin/env python3
"""Compose the French and Italian training corpora for engram's clause classifier.

Standard library only, deterministic (fixed seed). Writes clauses_fr.jsonl and
clauses_it.jsonl next to this script. Each label mixes fully hand-written items
(each its own frame) with a smaller share of hand-written frames x topic phrases.
"""
import json
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20240611


def lines(block):
    return [l.strip() for l in block.strip().split("\n") if l.strip()]


# ---------------------------------------------------------------------------
# FRENCH — hand-written items
# ---------------------------------------------------------------------------

FR_CW = lines("""
Tu ne m'as jamais dit comment s'appelle ta sœur.
Vous ne m'avez jamais parlé de votre voyage à Kraków.
On n'a jamais abordé la question de ton allergie aux arachides.
Je n'ai aucune trace d'une conversation sur ton chien.
C'est la première fois que tu me parles de ton propriétaire.
Tu ne m'as pas encore communiqué ton adresse.
Il me semble que tu ne m'as jamais mentionné ton frère.
Sauf erreur de ma part, vous ne m'avez jamais indiqué votre date de naissance.
Rien dans ce que je sais de toi ne concerne un déménagement à Zürich.
Nous n'avons jamais discuté de ton salaire.
Tu ne m'en as jamais soufflé mot.
Je ne crois pas que tu m'aies déjà parlé de ta grand-mère.
À ma connaissance, tu n'as jamais évoqué de problème de dos.
Dans tout notre historique, il n'est jamais question de São Paulo.
Pas une seule fois tu ne m'as parlé de ton travail à la banque.
Tu ne m'avais jamais raconté ça.
Je n'ai rien en mémoire au sujet de ton mariage.
Ma mémoire ne contient rien sur tes enfants.
Tu ne m'as jamais confié le nom de ton médecin.
Vous n'avez jamais partagé vos préférences alimentaires avec moi.
Peut-être que tu ne m'as jamais dit où tu habites.
Autant que je sache, on n'a jamais parlé de ta voiture.
Tu n'as jamais fait allusion à un chat.
Je n'ai jamais entendu parler de ce projet de ta part.
Tu ne m'as jamais parlé d'un collègue nommé Mathieu.
Nulle part dans nos conversations tu ne mentionnes un séjour à 北京.
Jusqu'à aujourd'hui, tu ne m'avais rien dit de ta thèse.
Il n'a jamais été question de ton diabète entre nous.
Je ne sais rien de ta famille, tu ne m'en as jamais parlé.
tu ne m'as jamais précisé ton budget
Vous ne m'avez encore rien dit de votre entreprise.
Je n'ai aucun souvenir que tu m'aies parlé d'un appartement à Lyon.
Je crois bien que tu n'as jamais mentionné ton père.
On n'a jamais évoqué ensemble ton opération du genou.
Tu ne m'as jamais donné le nom de ton chien.
Aucune de nos conversations précédentes ne parle de ton prêt immobilier.
Je n'ai rien noté sur tes horaires de travail, tu ne me les as jamais donnés.
Tu ne m'as jamais touché un mot de ta reconversion.
Il me semble qu'on n'a jamais parlé de ta passion pour l'escalade.
Si je ne me trompe pas, tu ne m'as jamais dit ton âge.
C'est bien la première fois que vous évoquez votre fille.
Tu ne m'as encore jamais parlé de ton séjour à Reykjavík.
Je n'ai strictement rien sur ton ancien employeur.
De ton côté, tu ne m'as jamais signalé d'intolérance au lactose.
Vous ne m'aviez jamais dit que vous aviez un frère jumeau.
Tu ne m'as jamais expliqué ce que fait ton entreprise.
Nous n'avons jamais parlé de ta santé mentale.
Dans ce que tu m'as raconté jusqu'ici, il n'y a rien sur ton ex.
Ton numéro de téléphone, tu ne me l'as jamais donné.
Sauf oubli de ma part, tu ne m'as jamais cité ce livre.
Je n'ai jamais rien su de ton enfance.
Ton voyage au Japon, tu ne m'en as jamais parlé.
Je n'ai aucune information sur ton employeur, tu ne l'as jamais nommé.
tu n'as jamais évoqué Łódź avec moi
J'ai l'impression que tu ne m'as jamais parlé de tes voisins.
Probablement que tu ne m'as jamais dit ton groupe sanguin.
Tu ne m'as jamais rien raconté sur ta vie à Montréal.
Vous n'avez jamais mentionné d'animal de compagnie.
On n'a jamais échangé au sujet de ta retraite.
Je ne pense pas que tu m'aies déjà dit le prénom de ta femme.
Ta mère n'est jamais apparue dans nos discussions.
Ton allergie ? C'est la première fois que j'en entends parler.
Rien de ce que tu m'as confié ne porte sur tes finances.
Aucune mention de ton cousin dans tout ce que je sais de toi.
Tu ne m'as jamais parlé de tes études de médecine.
Franchement, tu ne m'as jamais dit que tu jouais du piano.
Tu n'avais jamais mentionné ton déménagement jusqu'à maintenant.
Je ne garde aucun souvenir d'une discussion sur ton vélo.
Non, tu ne m'as jamais donné ton code postal.
Vous ne m'avez jamais fait part de vos objectifs sportifs.
tu ne m'as jamais fait part de ton régime végétarien
Nous n'avons jamais abordé tes problèmes de sommeil.
Ce sujet n'est jamais venu sur la table entre nous.
Je n'ai rien retenu sur ton associé, car tu n'en as jamais parlé.
À ce que je sache, tu ne m'as jamais parlé d'Ibiza.
Je n'ai aucune donnée sur tes antécédents médicaux.
Ton patron, tu ne me l'as jamais décrit.
Tu ne m'as jamais indiqué ta pointure.
Je ne me rappelle pas que tu m'aies jamais parlé de Porto.
Vous ne m'avez jamais dit quelle langue vous parlez à la maison.
C'est nouveau pour moi, tu n'avais jamais parlé de ta sœur cadette.
Je n'ai aucune note sur ton abonnement à la salle de sport.
Ton mémoire de master n'a jamais été mentionné.
Il n'y a rien dans mon historique avec toi concernant Kyoto.
On n'a encore jamais parlé de tes impôts.
Tu ne m'as pas dit un mot de ton accident.
À aucun moment tu ne m'as parlé de ta fiancée.
En tout cas, tu ne m'as jamais mentionné ce rendez-vous.
Je n'ai trace d'aucun échange sur ton assurance auto.
Tu ne m'as toujours pas dit ta ville natale.
Tu ne m'as jamais demandé de retenir ton mot de passe.
Aucune de tes anciennes questions ne portait sur la Bourse.
Vous ne m'aviez encore jamais parlé de Plzeň.
Je suis à peu près sûr que tu ne m'as jamais parlé de ton oncle.
Tu n'as jamais partagé ton CV avec moi.
Il n'existe aucune trace de ton adresse dans ma mémoire.
Ta profession, je ne la connais pas : tu ne l'as jamais précisée.
je n'ai jamais eu de nouvelles de ton projet de jardin
Tu ne m'as jamais rien dit sur la maladie de ton père.
Notre historique ne contient aucune mention de Marseille.
Si je me souviens bien, tu ne m'as jamais parlé de ton ex-mari.
Tu n'as jamais mentionné que tu avais des jumeaux.
Sur ta collection de vinyles, je n'ai absolument rien.
Je n'ai jamais reçu de ta part le moindre détail sur ton emploi du temps.
Tu ne m'avais jamais dit que tu étais gaucher.
Vous ne m'avez jamais expliqué pourquoi vous avez quitté Genève.
En principe, on n'a jamais parlé de ton permis de conduire.
Ce prénom ne me dit rien, tu ne l'as jamais prononcé.
Je n'ai aucun élément sur ta situation familiale.
tu ne m'as jamais mis au courant de ta grossesse
Ni ton frère ni ta sœur n'ont jamais été mentionnés.
Tu ne m'as jamais parlé de ce que tu fais le week-end.
Je ne dispose d'aucune information sur ton stage au restaurant 鼎泰豐.
Tu n'as jamais partagé avec moi le nom de ta banque.
Rien, dans nos conversations passées, ne parle de ta hernie discale.
Je n'ai rien sur toi concernant la musique.
Pour autant que je sache, tu ne m'as jamais parlé d'un certain Karim.
Tu ne m'as jamais dit si tu avais des frères et sœurs.
Il semblerait que tu ne m'aies jamais communiqué ton numéro de client.
Vous ne m'avez toujours rien dit sur votre traitement.
""")

FR_QS = lines("""
J'ai cherché ton numéro de vol et je n'ai rien trouvé.
Ma recherche dans nos anciennes conversations n'a donné aucun résultat.
Rien n'est ressorti quand j'ai consulté mes notes pour « Falcon ».
Je n'ai pas trouvé la recette que tu m'avais envoyée.
J'ai fouillé notre historique pour ton adresse à Zürich, sans succès.
La recherche « Anna » dans ma mémoire ne renvoie rien.
Je viens de vérifier : aucune note sur ton rendez-vous chez le dentiste.
En cherchant « mariage », je ne tombe sur rien.
J'ai regardé dans mes souvenirs de nos échanges, rien sur ton vélo.
Impossible de retrouver le nom du restaurant dans mes notes.
Ma recherche sur « Kraków » est revenue vide.
Je n'ai trouvé aucune conversation où il est question de ton chien.
J'ai interrogé ma mémoire à propos de ton allergie et la requête n'a rien donné.
La recherche que je viens de lancer ne remonte aucun résultat pour « loyer ».
Je n'ai pas réussi à retrouver le lien que tu m'avais partagé.
J'ai vérifié nos conversations de mars : rien sur le devis.
Aucun résultat pour « São Paulo » dans mes notes.
Après vérification, je ne retrouve pas ton code de réservation.
Je n'ai rien trouvé en cherchant le prénom de ton neveu.
Ma requête sur « assurance » n'a rien ramené.
J'ai parcouru nos échanges de la semaine dernière sans voir passer ton horaire de train.
La recherche par mot-clé « Heidi » ne donne rien.
Vous m'aviez peut-être donné ce numéro, mais je ne le retrouve pas.
Je ne retrouve pas dans mes notes le document dont vous parlez.
J'ai cherché « Bellevue » dans ma mémoire : zéro résultat.
Rien ne correspond à « physiothérapeute » dans ce que je viens de consulter.
Ma recherche sur ton ancien appartement n'a rien donné.
Je n'ai pas pu retrouver la liste de courses que tu m'avais dictée.
En consultant l'historique, je ne vois aucune mention du cadeau pour ta mère.
J'ai tapé « Luca » dans ma recherche mémoire et rien n'est sorti.
La vérification de mes notes sur ton traitement n'a rien révélé.
Je n'ai trouvé aucune entrée correspondant à ton vol pour Málaga.
Je ne trouve pas trace de la facture dans ce que j'ai recherché.
Ma recherche n'a rien donné.
Rien trouvé, désolé.
La requête est revenue sans résultat.
J'ai bien cherché, mais je n'ai rien trouvé sur ton stage.
Aucune note ne correspond à ta demande.
Je viens de regarder et il n'y a rien sur « Ottavia » dans mes notes.
Malgré plusieurs recherches, je n'ai pas retrouvé le nom de ton vétérinaire.
J'ai cherché du côté de nos conversations sur la cuisine, pas de trace de ta recette de tajine.
Mes notes sur ton projet ne donnent rien quand je cherche « deadline ».
La recherche dans nos échanges de janvier est restée vide.
Je n'ai pas trouvé l'adresse que vous m'aviez indiquée.
J'ai vérifié ma mémoire pour « pointure » : aucun résultat.
Ton rendez-vous du 12 ? Je l'ai cherché sans le trouver.
En fouillant mes notes, je n'ai pas mis la main sur ton code de portail.
Je n'ai rien trouvé qui corresponde à « 北京 » dans notre historique.
La consultation de ma mémoire pour ton groupe sanguin est restée infructueuse.
J'ai lancé une recherche sur ta voiture, elle n'a rien remonté.
Aucune correspondance pour « Dr Moreau » dans mes souvenirs de nos discussions.
Je n'arrive pas à retrouver le message où tu parlais de ton frère.
Pas de résultat quand je cherche « anniversaire de Léa ».
Mes recherches sur ton ancien poste n'ont rien donné.
J'ai regardé dans mes notes, je ne vois rien sur ton hôtel à Lisbonne.
La recherche « randonnée » dans notre historique ne retourne aucun échange.
J'ai essayé de retrouver le titre du film, en vain.
Je ne retrouve pas la conversation sur ton déménagement.
Rien ne sort quand je cherche ton numéro d'adhérent.
J'ai vérifié les notes de notre dernière séance : aucune mention de ta douleur au genou.
Cette recherche ne me renvoie aucune conversation.
Je n'ai trouvé aucun souvenir lié à « Bretagne ».
J'ai contrôlé : pas d'entrée sur ton abonnement.
Ma recherche ciblée sur « Heidi » n'a rien fait remonter.
Je n'ai pas retrouvé ce que tu m'avais dit sur ton patron.
Quand je cherche « crédit », je n'obtiens rien.
J'ai épluché nos discussions d'octobre sans rien trouver sur ta banque.
La recherche dans mes notes a fait chou blanc.
Je n'ai déniché aucune note sur ton régime.
Il n'y a aucun résultat pour ta requête « recette de crêpes » dans ma mémoire.
J'ai recherché le nom de ton entreprise : rien.
Le mot « Gdańsk » n'apparaît dans aucun des échanges que j'ai consultés.
Je ne suis pas parvenu à retrouver ton itinéraire.
Rien dans les résultats de ma recherche ne concerne ton fils.
Vérification faite, je n'ai pas ton numéro de commande dans mes notes.
J'ai cherché vos préférences de siège, sans rien trouver.
Votre adresse de livraison n'apparaît pas dans les notes que j'ai consultées.
Je n'ai rien pu retrouver concernant votre rendez-vous à la préfecture.
J'ai passé en revue nos conversations récentes : rien sur ton entretien.
Aucun passage de notre historique ne ressort pour « chimiothérapie ».
La recherche mémoire pour « Tomás » est vide.
Je viens d'interroger mes notes : pas de mention de ton parrain.
J'ai cherché tes mensurations, sans résultat.
Impossible de remettre la main sur ton budget mensuel dans mes notes.
Les notes que j'ai vérifiées ne disent rien de ton vol retour.
J'ai cherché, et rien ne concerne ton ancienne colocataire.
Ma recherche dans tes souvenirs enregistrés n'a rien trouvé sur la Corse.
Je ne trouve pas dans mes notes l'info que tu me demandes.
Ce que j'ai consulté ne contient rien sur le prénom de ta nièce.
J'ai tenté une recherche sur « Bordeaux », sans aucun résultat.
rien n'est remonté de ma recherche
je ne trouve pas ta liste de cadeaux
J'ai regardé dans l'historique de la semaine dernière et je n'y vois rien.
Rien dans mes notes ne correspond au nom « Zoé ».
Je n'ai retrouvé aucune trace de ton ordonnance en cherchant.
""")

FR_REC = lines("""
Tu m'as dit que ta sœur s'appelle Anna.
Comme tu me l'as mentionné la semaine dernière, tu pars à Kraków en mai.
La dernière fois, tu m'as dit que tu détestais la coriandre.
Ton chien Heidi, dont tu m'avais parlé, adore la plage.
Vous m'aviez expliqué que vous travaillez de nuit.
Je me souviens que tu es allergique aux noix.
Tu m'avais raconté que ton père vit à Marseille.
Si je me souviens bien, ta fille entre au lycée cette année.
Tu m'as confié il y a quelque temps que tu voulais changer de travail.
D'après ce que tu m'as dit auparavant, tu es végétarienne.
Tu m'avais parlé de ton projet de tour du monde à vélo.
Comme vous me l'aviez indiqué, votre budget est de 2 000 euros.
L'autre jour, tu m'as dit que ton appartement était à Lyon.
Je me rappelle que ton frère s'appelle Julien.
Tu m'as déjà dit que tu ne supportes pas le lactose.
Lors de notre dernière conversation, tu préparais un marathon.
Tu m'avais mentionné ton chat, Pistache.
Ta mère, dont tu m'as parlé le mois dernier, habite à Nantes.
Tu m'as dit en janvier que tu commençais un nouveau poste.
Comme tu me l'avais expliqué, tu as deux enfants.
Il me semble que tu m'avais dit que tu jouais de la guitare.
Tu m'avais signalé ton intolérance au gluten.
Tu m'as raconté ton voyage à São Paulo avec enthousiasme.
Je garde en mémoire que ton anniversaire tombe le 3 avril.
Vous m'aviez dit que votre fils étudie à Montréal.
Tu m'as parlé de ta collègue Sophie à plusieurs reprises.
La fois où on a parlé de ta maison, tu voulais refaire la cuisine.
Tu m'avais prévenu que tu serais absent en août.
D'après nos échanges précédents, tu habites près de Genève.
Tu m'avais dit que tu n'avais jamais aimé Rome.
Comme tu l'as évoqué l'autre fois, tu as mal au dos le matin.
Ton médecin, le docteur Lefèvre, dont tu m'avais parlé, t'a conseillé le repos.
Tu m'as appris que tu parlais couramment le polonais.
Je me souviens de ton stage à 北京.
Tu m'avais partagé ta recette de ratatouille.
La semaine dernière, tu m'as dit que ton vol partait de Zürich.
Tu m'as déjà parlé de ton ex, Marc.
Tu m'avais indiqué que tu préfères les réponses courtes.
Quand on en a discuté, tu hésitais entre Lisbonne et Porto.
Tu me disais récemment que ton chien avait des problèmes de hanche.
Tu m'as expliqué avant que tu étais infirmière de nuit.
Votre épouse, Claire, dont vous m'avez parlé, est architecte.
Tu m'as mentionné une fois que tu collectionnais les timbres.
Comme convenu la dernière fois, tu voulais un plan d'entraînement.
Tu m'avais dit que tu déménageais à Bruxelles en septembre.
Je sais, d'après ce que tu m'as raconté, que tu as grandi en Bretagne.
Tu m'as confié que tu étais stressé par ton chef.
Tu avais évoqué un voyage à Kyoto pour ton anniversaire.
Tu m'as déjà donné ton code postal : 75011.
Lors d'un échange précédent, vous m'avez dit être diabétique.
Tu m'as dit un jour que tu rêvais d'ouvrir une boulangerie.
Ta grand-mère vit à Łódź, comme tu me l'as dit.
Tu me l'avais déjà raconté : ton vélo a été volé à la gare.
Tu m'avais parlé de ton tatouage en forme de baleine.
Je me souviens que vous préférez le train à l'avion.
Au cours d'une de nos discussions, tu m'as dit que tu faisais du yoga.
Tu m'as dit que tu avais arrêté de fumer l'an dernier.
Tu avais mentionné que ta voiture était une Clio.
Si ma mémoire est bonne, tu es né à Tunis.
Tu m'avais dit que tu n'aimais pas les chats.
Comme tu le soulignais la dernière fois, ton loyer a augmenté.
Tu m'as répété plusieurs fois que tu voulais apprendre le japonais.
J'ai retenu que ta fille s'appelle Inès.
Tu m'as dit l'autre soir que ta sœur attendait un bébé.
Tu m'avais demandé de te rappeler que tu es allergique à la pénicilline.
Vous m'aviez mentionné votre entreprise de menuiserie à Liège.
Tu m'avais parlé de ton voisin bruyant du troisième.
Ton associé, Karim, que tu as mentionné le mois dernier, part à la retraite.
Comme tu me l'avais dit, tu travailles en télétravail le vendredi.
Tu m'as raconté que tu avais vécu deux ans à Reykjavík.
Tu m'avais dit que le dîner chez tes beaux-parents s'était mal passé.
Je me souviens que tu cherchais un appartement à Bordeaux.
Tu m'as déjà expliqué que tu prends un traitement pour la thyroïde.
Tu m'avais confié ta peur de l'avion.
D'après ce que tu m'avais écrit, ton chat a quinze ans.
Tu avais parlé d'une promotion possible au printemps.
Tu m'as dit, il y a deux semaines, que tu commençais la course à pied.
ton frère, celui de Montréal dont tu m'as parlé
comme tu me l'as rappelé l'autre jour
Tu me racontais hier que tu avais adopté un lapin.
Vous m'aviez confié que votre mère était malade.
""")

FR_BENIGN = lines("""
Il n'y a pas de train direct pour Berne le dimanche.
La fonction ne renvoie jamais null.
Personne ne connaît vraiment la réponse.
Aucun vol ne part de Zürich après 23 heures.
Il n'existe aucun vaccin contre ce virus pour l'instant.
Le musée n'ouvre jamais le lundi.
Il n'y a jamais de bouchons à Rome le 15 août.
Rien ne prouve que ce complément soit efficace.
La loi ne prévoit aucune exception pour les auto-entrepreneurs.
Ce médicament ne doit jamais être pris à jeun.
Il n'y a pas de gare à Saint-Tropez.
Personne n'a jamais escaladé ce versant en hiver.
Le script ne gère pas les fichiers vides.
Aucune banque ne propose ce taux aujourd'hui.
En général, le chat n'a pas besoin de bain.
Il ne neige presque jamais à Málaga.
Cette variable n'est jamais initialisée.
Le restaurant ne prend pas de réservations.
Aucun texte de loi ne mentionne ce cas.
Le soir, il n'y a pas grand-chose d'ouvert à Plzeň à part les brasseries.
Le contrat ne dit rien sur les heures supplémentaires.
Le document que tu cites ne parle jamais de remboursement.
Le manuel ne mentionne pas cette option.
Aucune étude sérieuse n'a confirmé ce lien.
La ligne 4 ne circule pas pendant les travaux.
Il n'y a aucun frais de dossier pour ce prêt.
Ce champ n'accepte jamais de valeurs négatives.
Les chiens ne sont pas admis dans ce parc.
Il n'existe pas de vol direct entre Lyon et São Paulo.
Le compilateur ne signale aucune erreur.
La recette ne contient ni œufs ni lait.
Le rapport ne dit pas un mot des risques.
À 北京, ce restaurant n'a presque jamais de table libre le week-end.
Personne dans l'équipe n'a signé le document.
Le test ne passe jamais sous Windows.
Dans ce quartier de Kraków, aucun supermarché n'ouvre le dimanche.
Aucune trace de plomb n'a été détectée dans l'eau.
L'historique du navigateur ne conserve rien en navigation privée.
La base de données ne contient aucune donnée antérieure à 2010.
Le livre n'évoque jamais l'enfance de l'auteur.
Il n'y a jamais eu de tremblement de terre majeur dans la région.
Cette API ne renvoie rien quand le jeton a expiré.
Tu as dit que tu n'avais jamais aimé le café.
Ton patron t'a dit que personne n'avait lu le rapport.
Elle t'a dit que personne n'était venu.
Ton médecin prétend que tu n'as rien de grave.
Ta sœur t'a répondu qu'elle n'avait jamais reçu ta lettre.
Selon ton propriétaire, personne ne s'est plaint du bruit.
Tu dis que tu n'as jamais mis les pieds à Lisbonne.
Ton collègue affirme ne jamais avoir vu ce fichier.
D'après toi, ton fils ne t'a jamais parlé de ses notes.
Ta mère t'a dit qu'elle ne t'avait jamais parlé de cet héritage.
Ton ami ne t'a jamais dit pourquoi il était parti ?
Ton frère t'a dit qu'il n'avait rien trouvé dans le grenier.
Le vendeur t'a assuré que la garantie couvrait tout.
Tu expliques que ton chef ne t'a jamais mentionné cette prime.
Ta banque t'a répondu qu'aucun virement n'était arrivé.
Le mécanicien a dit qu'il ne trouvait aucune panne.
Ton avocat t'a dit que tu n'avais jamais signé ce document.
Ta fille prétend qu'on ne lui a jamais dit de rentrer avant minuit.
Ils t'ont dit que la réunion n'avait jamais eu lieu.
Tu racontes que ta voisine ne t'a jamais rendu tes clés.
Le support technique t'a répondu qu'ils n'avaient trouvé aucune trace de ta commande.
Ton associé t'a dit qu'il n'avait jamais entendu parler de ce client.
La pharmacienne t'a dit que ce médicament n'existait plus.
Ton ex t'a juré qu'il ne t'avait jamais menti.
Le guide a dit que personne n'était monté au sommet cette année.
D'après l'article, aucun témoin n'a parlé à la police.
Tu as dit que tu ne mangeais jamais de viande, donc je propose un plat végétarien.
Ton professeur t'a dit que tu n'avais rendu aucun devoir.
Le propriétaire affirme que tu ne lui as jamais signalé la fuite.
Ta collègue t'a écrit : « Je n'ai rien trouvé dans le dossier. »
Ton colocataire dit qu'il n'a jamais touché à ton vélo.
Ton père t'a toujours dit que rien n'était gratuit.
Tu m'as déjà parlé de ta sœur ?
Est-ce qu'on a déjà abordé ce sujet ?
Tu ne m'as jamais parlé de Rome ?
M'avais-tu déjà donné ton adresse ?
Vous m'avez déjà indiqué votre date de naissance ?
Est-ce que tu m'as dit le nom de ton chien, ou je me trompe ?
On en a déjà discuté, non ?
Tu veux que je cherche dans nos anciennes conversations ?
Tu m'avais parlé de ce projet, ou c'était quelqu'un d'autre ?
Peux-tu me rappeler le prénom de ta fille ?
Est-ce que je t'ai déjà demandé ton budget ?
Tu m'avais envoyé la recette, ou pas encore ?
Qu'est-ce que tu m'avais dit sur ton voyage, déjà ?
Tu ne m'aurais pas déjà parlé de ce médecin ?
Avons-nous déjà parlé de votre allergie ?
Je t'ai déjà posé la question ?
Tu te souviens de m'avoir parlé de Kraków ?
Est-ce que je devrais savoir qui est Karim ?
Tu peux me redire où tu habites ?
Tu m'as déjà dit si tu avais des enfants ?
Vous souhaitez que je note votre adresse pour la prochaine fois ?
Est-ce que tu m'as jamais parlé de ton frère ?
Tu me l'avais déjà dit ?
Il n'y a vraiment aucun train le dimanche ?
Personne ne t'a répondu ?
Tu as déjà mentionné ton employeur ici ?
Ai-je bien compris que tu pars en juin ?
Tu m'en avais touché un mot, peut-être ?
Quel était le nom de ton chat, déjà ?
Tu voudras que je retienne ce détail ?
Si tu ne me l'as jamais dit, je ne peux pas le savoir.
Au cas où tu ne m'en aurais pas parlé, dis-le-moi maintenant.
Si vous ne m'avez jamais donné votre adresse, je ne pourrai pas la retrouver.
Même si tu m'en avais parlé, je préférerais vérifier avec toi.
Si on n'a jamais abordé ce sujet, commençons par les bases.
Si ma recherche ne trouve rien, je te le dirai.
Supposons que tu ne m'aies rien dit : je partirais de zéro.
S'il n'y a pas de train, tu peux prendre le bus de 8 h.
Si personne ne répond, rappelle demain matin.
Dans le cas où la requête ne renvoie rien, affiche un message d'erreur.
Si tu ne trouves pas le reçu, demande un duplicata.
S'il s'avère que je n'ai aucune note, tu pourras me redonner les détails.
Si le vol est annulé, tu n'as rien à payer.
Au cas où je ne retrouverais rien, je te poserai la question.
Si jamais tu ne m'as pas donné ton adresse, je te la demanderai.
À supposer que rien ne ressorte, on fera sans.
Si le fichier n'existe pas, la fonction lève une exception.
Si aucune note n'existe, je pourrai en créer une.
Si tu n'as jamais eu la varicelle, parles-en à ton médecin.
Si vous ne m'avez rien précisé, je prendrai l'option standard.
Ma recherche en mémoire a expiré, donc je ne peux pas dire si tu m'en as parlé.
Je n'ai parcouru qu'une partie de notre historique, j'ai pu le rater.
La recherche n'a pas abouti à cause d'une erreur, je ne sais pas si tu l'as mentionné.
Je n'ai pas pu consulter ma mémoire pour l'instant.
Mon accès aux notes est indisponible en ce moment.
Je ne peux pas vérifier si tu m'as donné ton adresse, la recherche a échoué.
Je n'ai regardé que les conversations de cette semaine, il se peut que ce soit plus ancien.
La recherche a été interrompue avant la fin.
Je ne suis pas en mesure de dire si on en a déjà parlé.
Il est possible que tu me l'aies dit et que ma recherche l'ait manqué.
Mes résultats sont peut-être incomplets.
Le service de mémoire ne répond pas, je ne peux rien affirmer.
Je n'ai pas encore cherché dans nos anciennes conversations.
Je ne sais pas si tu me l'as dit, ma recherche n'a couvert que le mois dernier.
La recherche a renvoyé une erreur, pas une réponse vide.
Je n'ai pas pu tout vérifier, donc je ne peux pas exclure que tu m'en aies parlé.
Mon index de mémoire est en cours de mise à jour.
La consultation de l'historique a pris trop de temps et s'est arrêtée.
Je ne peux ni confirmer ni infirmer que tu me l'aies mentionné.
Seule une partie de mes notes était accessible.
Il me manque peut-être des conversations plus anciennes.
La recherche a planté, je réessaie dans un instant.
Je n'ai pas eu le temps de vérifier tout l'historique.
Je ne peux pas dire avec certitude ce que contient ma mémoire à ce sujet.
L'outil de recherche est hors service, donc je n'ai aucune réponse fiable.
Je ne peux pas accéder à ton agenda.
Je n'ai pas accès à tes e-mails.
Je ne peux pas naviguer sur le web.
Je ne peux pas ouvrir les pièces jointes.
Je ne suis pas capable de passer des appels.
Je n'ai pas accès à ton compte bancaire.
Je ne peux pas lire les fichiers sur ton ordinateur.
Je ne peux pas envoyer de SMS à ta place.
Je ne suis pas connecté à ton téléphone.
Je ne peux pas voir ton écran.
Je ne suis pas en mesure de réserver un billet directement.
Je n'ai pas accès aux données en temps réel.
Je ne peux pas consulter ton dossier médical.
Je ne peux pas modifier les paramètres de ton compte.
Je n'entends pas les messages vocaux.
Je ne peux pas installer de logiciel sur ta machine.
Je ne peux pas me connecter au réseau de ton entreprise.
Malheureusement, vous ne pouvez pas me transmettre de fichiers ici.
Je n'ai aucun moyen de vérifier ton solde.
Je ne peux pas contacter ton médecin pour toi.
Je peux fouiller nos anciennes conversations si tu le souhaites.
La mémoire ne fonctionne que si tu l'as activée dans les réglages.
Aucun résultat trouvé.
0 lignes retournées.
print("aucun résultat")
PubMed : Aucun élément trouvé pour « vitamine D et migraine ».
SELECT * FROM clients WHERE ville = 'Zürich'; -- 0 ligne(s)
Erreur 404 : page introuvable.
grep n'a rien renvoyé dans le dossier logs.
La cellule B12 affiche #N/A parce qu'aucune valeur ne correspond.
FileNotFoundError: le fichier config.yaml est introuvable
Le log indique « aucune entrée trouvée pour l'utilisateur 42 ».
La requête SQL que tu as collée renvoie un ensemble vide.
raise ValueError("aucune donnée disponible")
Dans ton tableur, la colonne « remboursé » ne contient aucune valeur.
Résultat de la recherche : 0 document.
if not resultats: print("Rien trouvé")
Le terminal affiche « Aucun paquet ne correspond ».
« Aucun message » : c'est ce qu'affiche ta boîte de réception.
Dans l'e-mail que tu as transféré, ils écrivent : « Nous n'avons trouvé aucun dossier à votre nom. »
La trace de pile montre une NullPointerException à la ligne 87.
La recherche PubMed que tu as collée n'a donné aucun article.
L'API retourne {"results": []}.
Le moteur du site répond « Aucun produit ne correspond à votre recherche ».
Ton export CSV est vide à part l'en-tête.
La commande find n'a trouvé aucun fichier .log.
Le rapport d'erreurs indique : « Aucun enregistrement trouvé ».
Dans ta capture, le portail affiche « Aucune facture disponible ».
return []  # aucun élément
Tu viens de me demander des conseils pour Zürich.
Dans ton message, tu mentionnes un budget de 500 euros.
Tu parles ici d'un problème de connexion.
Comme tu l'écris juste au-dessus, le rendez-vous est à 14 h.
Vous précisez dans votre question que vous êtes à Lyon.
Tu dis que tu pars demain, donc il faut faire vite.
D'après ce que tu viens d'écrire, le bug apparaît au démarrage.
Tu évoques dans ce message une douleur au genou.
Ta question porte sur le visa pour le Brésil.
Tu as joint une capture d'écran à ton message.
Comme tu le dis toi-même, c'est urgent.
Dans la phrase que tu viens d'envoyer, tu parles de ta sœur.
Ici, tu me demandes une recette sans gluten.
Vous venez de m'indiquer votre numéro de commande.
Tu me donnes ton adresse dans ce message, merci.
Tu mentionnes Kraków dans ta question.
Dans ton dernier message, tu dis avoir perdu tes clés.
Tu viens de préciser que tu es végétarien.
Le texte que tu m'as collé parle d'un contrat de bail.
Tu me poses deux questions dans ce message.
Tu n'as pas besoin de visa pour un séjour de moins de 90 jours.
N'oublie pas de prendre ton passeport.
Ne t'inquiète pas, ce n'est pas grave.
Je te conseille de ne jamais partager ton mot de passe.
Il vaut mieux ne pas courir juste après le repas.
Pas de souci, on reprend depuis le début.
Je vais te proposer trois itinéraires.
Voici une liste de restaurants à São Paulo.
Ne mélange jamais l'eau de Javel et le vinaigre.
Tu ne devrais pas payer de frais si tu annules avant vendredi.
Bonne question, vraiment !
Avec plaisir, voici la suite.
Je n'ai pas d'avis tranché sur la question.
Je ne suis pas sûr que ce soit la meilleure option.
Ce n'est jamais trop tard pour apprendre le piano.
Ne donne pas de chocolat à ton chien.
Rien ne t'oblige à accepter cette offre.
Je ne recommande pas ce médicament sans avis médical.
Personne ne te demandera ton diplôme à l'entrée.
Tu n'as rien à déclarer à la douane pour ces objets.
Commençons par le budget, puis on verra le logement.
On peut diviser le problème en trois étapes.
Je te prépare un résumé.
En gros, la fonction trie la liste puis supprime les doublons.
C'est une excellente idée de voyager hors saison.
Je n'y vois aucun inconvénient.
Il ne faut pas hésiter à demander un deuxième avis.
Merci pour ces précisions !
Aucune crainte à avoir, le vol est maintenu.
Je ne pense pas que ce soit une arnaque, mais reste prudent.
Tu ne perds rien à essayer.
Il n'y a pas de mauvaise réponse ici.
Ne laisse jamais la batterie se décharger complètement.
Je te souhaite un bon séjour à Kraków !
Pour Łódź, compte environ une heure et demie de train depuis Varsovie.
Évite de réserver le dernier vol de la journée.
Honnêtement, je ne sais pas, c'est une question de goût.
La réponse courte : non, ce n'est pas obligatoire.
Rien n'empêche de combiner les deux méthodes.
Je vais noter ton adresse pour la prochaine fois.
Je retiens que tu préfères le train.
Personne n'est parfait, ne sois pas trop dur avec toi-même.
Tu n'es pas obligé de répondre tout de suite.
Aucune urgence, prends ton temps.
Tu n'as jamais besoin de te justifier ici.
""")

# ---------------------------------------------------------------------------
# FRENCH — frames x topics
# ---------------------------------------------------------------------------


def fr_de(p):
    return ("d'" if p[0].lower() in "aeiouyàâéèêîôûh" else "de ") + p


# (obj, de+obj, keyword)
FR_TOPICS = [
    ("ta sœur", "de ta sœur", "sœur"),
    ("ton voyage à Kraków", "de ton voyage à Kraków", "Kraków"),
    ("ton allergie aux noix", "de ton allergie aux noix", "allergie"),
    ("le nom de ton chien", "du nom de ton chien", "chien"),
    ("ton appartement à Zürich", "de ton appartement à Zürich", "Zürich"),
    ("ton nouveau travail", "de ton nouveau travail", "travail"),
    ("tes enfants", "de tes enfants", "enfants"),
    ("ton mariage", "de ton mariage", "mariage"),
    ("ton médecin traitant", "de ton médecin traitant", "médecin"),
    ("ton salaire", "de ton salaire", "salaire"),
    ("ta voiture", "de ta voiture", "voiture"),
    ("ton déménagement à São Paulo", "de ton déménagement à São Paulo", "São Paulo"),
    ("ton stage à 北京", "de ton stage à 北京", "北京"),
    ("ton anniversaire", "de ton anniversaire", "anniversaire"),
    ("ton chat", "de ton chat", "chat"),
    ("tes problèmes de sommeil", "de tes problèmes de sommeil", "sommeil"),
    ("ton régime sans gluten", "de ton régime sans gluten", "gluten"),
    ("ta grand-mère", "de ta grand-mère", "grand-mère"),
    ("ton prêt immobilier", "de ton prêt immobilier", "prêt"),
    ("ton club de foot", "de ton club de foot", "foot"),
    ("ton opération du genou", "de ton opération du genou", "genou"),
    ("ta thèse", "de ta thèse", "thèse"),
    ("ton associé", "de ton associé", "associé"),
    ("tes vacances à Reykjavík", "de tes vacances à Reykjavík", "Reykjavík"),
    ("ton ancien patron", "de ton ancien patron", "patron"),
    ("tes cours de piano", "de tes cours de piano", "piano"),
    ("ton colocataire", "de ton colocataire", "colocataire"),
    ("ton potager", "de ton potager", "potager"),
    ("le prénom de ta nièce", "du prénom de ta nièce", "nièce"),
    ("ta mutuelle", "de ta mutuelle", "mutuelle"),
]
FR_PLACES = ["Rome", "Kraków", "Zürich", "São Paulo", "Łódź", "Reykjavík", "Málaga",
             "Genève", "Plzeň", "北京", "Lisbonne", "Marseille", "Kyoto", "Montréal",
             "Istanbul", "Ibiza", "Kraków-Podgórze", "Aix-en-Provence"]
FR_TOPICS_ALL = FR_TOPICS + [(p, fr_de(p), p) for p in FR_PLACES]


def fr_vous(s):
    s = re.sub(r"\bton\b", "votre", s)
    s = re.sub(r"\bta\b", "votre", s)
    s = re.sub(r"\btes\b", "vos", s)
    return s


FR_CW_T = [
    "tu ne m'as jamais parlé {de}",
    "on n'a jamais parlé {de}",
    "je n'ai aucune trace {de} dans ma mémoire",
    "tu ne m'as jamais mentionné {obj}",
    "il me semble que tu ne m'as jamais parlé {de}",
    "je crois que tu n'as jamais évoqué {obj} avec moi",
    "sauf erreur, nous n'avons jamais discuté {de}",
    "rien dans ma mémoire ne concerne {obj}",
    "c'est la première fois que tu me parles {de}",
    "tu ne m'as encore rien dit sur {obj}",
    "je n'ai rien en mémoire sur {obj}",
    "pas une seule fois tu ne m'as parlé {de}",
    "autant que je sache, tu ne m'as jamais rien dit {de}",
    "dans tout notre historique, il n'y a rien sur {obj}",
    "peut-être que tu ne m'as jamais parlé {de}",
    "aucune de nos conversations ne porte sur {obj}",
    "V:vous ne m'avez jamais parlé {de}",
    "V:vous ne m'avez encore rien dit sur {obj}",
    "V:c'est la première fois que vous me parlez {de}",
]
FR_QS_T = [
    "j'ai cherché ce que tu m'as dit sur {obj}, sans résultat",
    "ma recherche sur {obj} n'a rien donné",
    "je n'ai rien trouvé sur {obj} dans mes notes",
    "j'ai vérifié mes notes : rien sur {obj}",
    "la recherche « {kw} » ne renvoie rien",
    "en fouillant notre historique, je ne retrouve rien sur {obj}",
    "aucun résultat pour « {kw} » dans ma mémoire",
    "j'ai interrogé ma mémoire à propos {de}, en vain",
    "je n'arrive pas à retrouver ce que tu m'avais dit sur {obj}",
    "la recherche que je viens de faire sur {obj} est revenue vide",
    "rien n'est ressorti quand j'ai cherché « {kw} »",
    "j'ai parcouru nos derniers échanges sans rien trouver sur {obj}",
    "V:j'ai cherché ce que vous m'aviez dit sur {obj}, sans succès",
    "V:je ne retrouve rien sur {obj} dans les notes que j'ai consultées",
]
FR_BEN_T = [
    "tu m'as déjà parlé {de} ?",
    "est-ce qu'on a déjà parlé {de} ?",
    "tu ne m'as jamais parlé {de} ?",
    "tu veux que je cherche ce que tu m'as dit sur {obj} ?",
    "si tu ne m'as jamais parlé {de}, je ne peux pas le deviner",
    "si je ne trouve rien sur {obj}, je te le dirai",
    "ma recherche sur {obj} a expiré avant la fin",
    "je n'ai pas pu vérifier si tu m'avais parlé {de}",
    "la recherche sur {obj} a échoué, je ne peux rien affirmer",
    "tu viens de me parler {de}",
    "dans ton message, tu évoques {obj}",
    "ton frère dit que tu ne lui as jamais parlé {de}",
    "si tu veux, je peux retenir ce que tu me dis sur {obj}",
    "V:vous m'avez déjà parlé {de} ?",
    "V:vous venez de me parler {de}",
]
FR_BEN_PLACE_T = [
    "il n'y a jamais de bouchons à {p} le dimanche matin",
    "il n'existe pas de vol direct pour {p} depuis Nantes",
    "aucun train de nuit ne dessert {p} cet hiver",
    "tu viens de mentionner {p} dans ta question",
    "ton collègue ne t'a jamais parlé {de_p}, si je comprends bien",
    "les banques ne sont pas ouvertes le dimanche à {p}",
    "l'article ne parle jamais {de_p}",
    "personne dans ta famille n'est jamais allé à {p}, d'après toi",
]
FR_FACTS = [
    "ta sœur s'appelle Anna", "tu pars à Kraków en mai", "tu es allergique aux noix",
    "ton chien s'appelle Heidi", "tu habites à Zürich depuis deux ans",
    "tu as commencé un nouveau travail", "tu as deux enfants",
    "ton mariage est prévu en juin", "ton médecin s'appelle le docteur Roux",
    "tu détestes la coriandre", "tu conduis une vieille Golf",
    "tu déménages à São Paulo", "tu as fait un stage à 北京",
    "ton anniversaire est le 3 avril", "ton chat a peur de l'aspirateur",
    "tu dors mal depuis l'hiver", "tu ne manges pas de gluten",
    "ta grand-mère vit à Łódź", "tu rembourses un prêt immobilier",
    "tu joues au foot le jeudi", "tu t'es fait opérer du genou",
    "tu écris une thèse sur Proust", "ton associé part à la retraite",
    "tu as adoré Reykjavík", "tu n'as jamais aimé Rome",
    "tu prends des cours de piano", "ton colocataire rentre tard",
    "tu cultives des tomates sur ton balcon",
]
FR_REC_T = [
    "tu m'as dit que {f}",
    "la dernière fois, tu m'as dit que {f}",
    "comme tu me l'as dit la semaine dernière, {f}",
    "tu m'avais raconté que {f}",
    "je me souviens que {f}",
    "si je me souviens bien, {f}",
    "tu m'avais expliqué que {f}",
    "d'après nos conversations précédentes, {f}",
    "tu m'as mentionné l'autre jour que {f}",
    "il me semble que tu m'avais dit que {f}",
    "tu m'as confié le mois dernier que {f}",
    "comme tu l'avais évoqué, {f}",
]
FR_REC_PLACE_T = [
    "tu m'avais dit que tu n'avais jamais aimé {p}",
    "la dernière fois, tu m'as dit que tu voulais retourner à {p}",
    "comme tu me l'as raconté, tu as passé un an à {p}",
]

# ---------------------------------------------------------------------------
# ITALIAN — hand-written items
# ---------------------------------------------------------------------------

IT_CW = lines("""
Non mi hai mai detto come si chiama tua sorella.
Lei non mi ha mai parlato del suo viaggio a Cracovia.
Non abbiamo mai affrontato il tema della tua allergia alle arachidi.
Non ho alcuna traccia di una conversazione sul tuo cane.
È la prima volta che mi parli del tuo padrone di casa.
Non mi hai ancora dato il tuo indirizzo.
Mi sembra che tu non mi abbia mai nominato tuo fratello.
Se non sbaglio, Lei non mi ha mai indicato la sua data di nascita.
Nella mia memoria non c'è nulla su un trasloco a Zürich.
Non abbiamo mai parlato del tuo stipendio.
Non me ne hai mai fatto parola.
Non credo che tu mi abbia mai parlato di tua nonna.
A quanto ne so, non hai mai accennato a problemi di schiena.
In tutta la nostra cronologia non si parla mai di São Paulo.
Neanche una volta mi hai parlato del tuo lavoro in banca.
Questa non me l'avevi mai raccontata.
Non ho niente in memoria sul tuo matrimonio.
La mia memoria non contiene nulla sui tuoi figli.
Non mi hai mai confidato il nome del tuo medico.
Lei non ha mai condiviso con me le sue preferenze alimentari.
Forse non mi hai mai detto dove abiti.
Per quanto ne so, non abbiamo mai parlato della tua macchina.
Non hai mai fatto cenno a un gatto.
Di questo progetto non ti ho mai sentito parlare.
Non mi hai mai parlato di un collega di nome Matteo.
Da nessuna parte nelle nostre conversazioni citi un soggiorno a 北京.
Fino a oggi non mi avevi detto niente della tua tesi.
Tra noi non si è mai parlato del tuo diabete.
Della tua famiglia non so nulla, non me ne hai mai parlato.
non mi hai mai specificato il tuo budget
Lei non mi ha ancora detto niente della sua azienda.
Non ricordo che tu mi abbia mai parlato di un appartamento a Torino.
Sono quasi sicuro che tu non abbia mai nominato tuo padre.
Non abbiamo mai parlato insieme della tua operazione al ginocchio.
Non mi hai mai detto il nome del tuo cane.
Nessuna delle nostre conversazioni precedenti riguarda il tuo mutuo.
Sui tuoi orari di lavoro non ho appunti, non me li hai mai dati.
Della tua riconversione professionale non mi hai mai detto una parola.
Mi pare che non abbiamo mai parlato della tua passione per l'arrampicata.
Se ricordo bene, non mi hai mai detto quanti anni hai.
È davvero la prima volta che Lei nomina sua figlia.
Non mi hai mai parlato del tuo soggiorno a Reykjavík.
Sul tuo ex datore di lavoro non ho proprio niente.
Non mi hai mai segnalato un'intolleranza al lattosio.
Non mi aveva mai detto di avere un fratello gemello.
Non mi hai mai spiegato di cosa si occupa la tua azienda.
Non abbiamo mai toccato il tema della tua salute mentale.
In quello che mi hai raccontato finora non c'è niente sul tuo ex.
Il tuo numero di telefono non me l'hai mai dato.
Salvo dimenticanze, non mi hai mai citato quel libro.
Della tua infanzia non ho mai saputo nulla.
Il viaggio in Giappone? Non me ne hai mai parlato.
Non ho informazioni sul tuo datore di lavoro, non l'hai mai nominato.
non hai mai nominato Łódź con me
Ho l'impressione che tu non mi abbia mai parlato dei tuoi vicini.
Probabilmente non mi hai mai detto il tuo gruppo sanguigno.
Della tua vita a Montréal non mi hai mai raccontato nulla.
Lei non ha mai menzionato animali domestici.
Non abbiamo mai discusso della tua pensione.
Non penso che tu mi abbia mai detto il nome di tua moglie.
Tua madre non è mai comparsa nei nostri discorsi.
La tua allergia? È la prima volta che ne sento parlare.
Niente di quello che mi hai confidato riguarda le tue finanze.
Nessun accenno a tuo cugino in tutto quello che so di te.
Non mi hai mai parlato dei tuoi studi di medicina.
Sinceramente, non mi hai mai detto che suoni il pianoforte.
Fino ad ora non avevi mai nominato il trasloco.
Non ho memoria di nessuna discussione sulla tua bici.
No, il CAP non me l'hai mai dato.
Lei non mi ha mai messo al corrente dei suoi obiettivi sportivi.
non mi hai mai parlato della tua dieta vegetariana
Non abbiamo mai affrontato i tuoi problemi di sonno.
Quest'argomento tra noi non è mai venuto fuori.
Non so nulla del tuo socio, perché non me ne hai mai parlato.
Che io sappia, non mi hai mai parlato di Ibiza.
Non ho alcun dato sulla tua storia clinica.
Il tuo capo non me l'hai mai descritto.
Non mi hai mai indicato il tuo numero di scarpe.
Non mi risulta che tu mi abbia mai parlato di Porto.
Lei non mi ha mai detto che lingua parla a casa.
Mi giunge nuovo, non avevi mai parlato di tua sorella minore.
Non ho nessuna nota sul tuo abbonamento in palestra.
La tua tesi di laurea magistrale non è mai stata menzionata.
Nella mia cronologia con te non c'è nulla che riguardi Kyoto.
Non abbiamo ancora mai parlato delle tue tasse.
Non mi hai detto una parola del tuo incidente.
In nessun momento mi hai parlato della tua fidanzata.
Comunque, quell'appuntamento non me l'hai mai menzionato.
Non ho traccia di alcuno scambio sulla tua assicurazione auto.
Non mi hai ancora detto la tua città natale.
Non mi hai mai chiesto di ricordare la tua password.
Nessuna delle tue domande passate riguardava la Borsa.
Non mi aveva mai parlato di Plzeň prima d'ora.
Non hai mai condiviso il tuo curriculum con me.
Nella mia memoria non esiste alcuna traccia del tuo indirizzo.
Che lavoro fai non lo so: non l'hai mai specificato.
Non mi hai mai detto niente sulla malattia di tuo padre.
La nostra cronologia non contiene alcun riferimento a Marsiglia.
Non mi hai mai detto che sei mancino.
Lei non mi ha mai spiegato perché ha lasciato Ginevra.
Questo nome non mi dice niente, non l'hai mai pronunciato.
Sulla tua situazione familiare non ho alcun elemento.
non mi hai mai informato della tua gravidanza
Né tuo fratello né tua sorella sono mai stati nominati.
Non mi hai mai raccontato cosa fai nel fine settimana.
Non ti ho mai sentito nominare un certo Karim.
Non mi hai mai detto se hai fratelli o sorelle.
Pare che tu non mi abbia mai comunicato il tuo codice cliente.
Della musica che ascolti non mi hai mai detto nulla.
Sulla tua collezione di vinili non ho assolutamente niente.
Mai, in nessuna chat, hai parlato della tua ernia.
Credo proprio che Lei non mi abbia mai detto il suo cognome.
Finora non mi hai mai detto nulla del tuo ristorante preferito, il 鼎泰豐.
""")

IT_QS = lines("""
Ho cercato il tuo numero di volo e non ho trovato niente.
La mia ricerca nelle nostre vecchie conversazioni non ha dato risultati.
Non è emerso nulla quando ho controllato i miei appunti per «Falcon».
Non ho trovato la ricetta che mi avevi mandato.
Ho frugato nella cronologia per il tuo indirizzo a Zurigo, senza successo.
La ricerca «Anna» nella mia memoria non restituisce nulla.
Ho appena controllato: nessuna nota sul tuo appuntamento dal dentista.
Cercando «matrimonio» non trovo niente.
Ho guardato nei ricordi delle nostre chat, niente sulla tua bici.
Non riesco a ritrovare il nome del ristorante nei miei appunti.
La mia ricerca su «Kraków» è tornata vuota.
Non ho trovato nessuna conversazione in cui si parli del tuo cane.
Ho interrogato la memoria sulla tua allergia e la ricerca non ha dato nulla.
La ricerca che ho appena lanciato non restituisce risultati per «affitto».
Non sono riuscito a ritrovare il link che mi avevi condiviso.
Ho controllato le conversazioni di marzo: niente sul preventivo.
Nessun risultato per «São Paulo» nei miei appunti.
Dopo una verifica, non ritrovo il tuo codice di prenotazione.
Non ho trovato nulla cercando il nome di tuo nipote.
La mia interrogazione su «assicurazione» non ha portato a niente.
Ho scorso le chat della settimana scorsa senza trovare l'orario del tuo treno.
La ricerca per parola chiave «Heidi» non dà niente.
Forse me l'aveva dato, ma questo numero non lo ritrovo.
Il documento di cui parla non lo trovo nei miei appunti.
Ho cercato «Bellavista» nella memoria: zero risultati.
Niente corrisponde a «fisioterapista» in ciò che ho appena consultato.
La mia ricerca sul tuo vecchio appartamento è andata a vuoto.
Non sono riuscita a recuperare la lista della spesa che mi avevi dettato.
Consultando la cronologia, non vedo alcuna menzione del regalo per tua madre.
Ho digitato «Luca» nella ricerca della memoria e non è uscito niente.
Il controllo dei miei appunti sulla tua terapia non ha rivelato nulla.
Non ho trovato alcuna voce che corrisponda al tuo volo per Málaga.
Nella ricerca che ho fatto non c'è traccia della fattura.
La mia ricerca non ha dato nulla.
Non ho trovato niente, mi dispiace.
La query è tornata senza risultati.
Ho cercato bene, ma sul tuo tirocinio non ho trovato nulla.
Nessuna nota corrisponde alla tua richiesta.
Ho appena guardato e nei miei appunti non c'è niente su «Ottavia».
Nonostante diverse ricerche, non ho ritrovato il nome del tuo veterinario.
Ho cercato tra le nostre chat di cucina, nessuna traccia della tua ricetta del tiramisù.
Nei miei appunti sul progetto la ricerca «scadenza» non restituisce nulla.
La ricerca nelle conversazioni di gennaio è rimasta vuota.
Non ho trovato l'indirizzo che mi aveva indicato.
Ho controllato la memoria per «numero di scarpe»: nessun risultato.
L'appuntamento del 12? L'ho cercato ma non l'ho trovato.
Frugando negli appunti, non ho trovato il codice del cancello.
Non ho trovato nulla che corrisponda a «北京» nella nostra cronologia.
La consultazione della memoria sul tuo gruppo sanguigno non ha avuto esito.
Ho lanciato una ricerca sulla tua macchina e non è venuto fuori niente.
Nessuna corrispondenza per «dottor Moretti» nei ricordi delle nostre chat.
Non riesco a ritrovare il messaggio in cui parlavi di tuo fratello.
Nessun risultato quando cerco «compleanno di Giulia».
Le mie ricerche sul tuo vecchio impiego non hanno dato frutti.
Ho guardato negli appunti, non vedo nulla sul tuo hotel a Lisbona.
La ricerca «escursione» nella cronologia non restituisce nessuna chat.
Ho provato a ritrovare il titolo del film, invano.
Non ritrovo la conversazione sul tuo trasloco.
Non esce niente quando cerco il tuo numero di tessera.
Ho controllato gli appunti della nostra ultima sessione: nessun accenno al dolore al ginocchio.
Questa ricerca non mi restituisce alcuna conversazione.
Non ho trovato ricordi legati a «Sardegna».
Ho verificato: nessuna voce sul tuo abbonamento.
La mia ricerca mirata su «Heidi» non ha fatto emergere nulla.
Non ho ritrovato quello che mi avevi detto sul tuo capo.
Quando cerco «prestito», non ottengo nulla.
Ho passato al setaccio le chat di ottobre senza trovare nulla sulla tua banca.
La ricerca negli appunti è stata un buco nell'acqua.
Non ho scovato nessuna nota sulla tua dieta.
Nella mia memoria non ci sono risultati per la tua richiesta «ricetta delle crêpes».
Ho cercato il nome della tua azienda: niente.
La parola «Gdańsk» non compare in nessuna delle chat che ho consultato.
Non sono riuscito a ritrovare il tuo itinerario.
Nei risultati della mia ricerca nulla riguarda tuo figlio.
Verificato: il tuo numero d'ordine non è nei miei appunti.
Ho cercato le sue preferenze sul posto a sedere, senza trovare nulla.
Il suo indirizzo di consegna non compare negli appunti che ho consultato.
Non sono riuscito a recuperare nulla sul suo appuntamento in questura.
Ho ripassato le nostre conversazioni recenti: niente sul tuo colloquio.
La ricerca in memoria per «Tomás» è vuota.
Ho appena interrogato i miei appunti: nessuna menzione del tuo padrino.
Ho cercato le tue misure, senza risultato.
Impossibile ritrovare il tuo budget mensile nei miei appunti.
Gli appunti che ho controllato non dicono nulla del tuo volo di ritorno.
ho cercato, ma non salta fuori niente
non trovo la tua lista dei regali
Ho guardato nella cronologia della settimana scorsa e non c'è nulla.
Nei miei appunti niente corrisponde al nome «Zoe».
Cercando, non ho trovato traccia della tua ricetta medica.
La ricerca su «Bordeaux» non ha prodotto alcun risultato.
""")

IT_REC = lines("""
Mi hai detto che tua sorella si chiama Anna.
Come mi hai accennato la settimana scorsa, a maggio vai a Cracovia.
L'ultima volta mi hai detto che odi il coriandolo.
La tua cagnolina Heidi, di cui mi avevi parlato, adora il mare.
Mi aveva spiegato che lavora di notte.
Mi ricordo che sei allergico alle noci.
Mi avevi raccontato che tuo padre vive a Napoli.
Se ricordo bene, tua figlia quest'anno inizia il liceo.
Qualche tempo fa mi hai confidato che volevi cambiare lavoro.
Da quello che mi hai detto in passato, sei vegetariana.
Mi avevi parlato del tuo progetto di fare il giro del mondo in bici.
Come mi aveva indicato, il suo budget è di 2.000 euro.
L'altro giorno mi hai detto che il tuo appartamento è a Bologna.
Mi ricordo che tuo fratello si chiama Giulio.
Mi hai già detto che non tolleri il lattosio.
Nella nostra ultima conversazione ti stavi preparando per una maratona.
Mi avevi nominato il tuo gatto, Pistacchio.
Tua madre, di cui mi hai parlato il mese scorso, abita a Verona.
A gennaio mi hai detto che iniziavi un nuovo lavoro.
Come mi avevi spiegato, hai due figli.
Mi sembra che mi avessi detto che suoni la chitarra.
Mi avevi segnalato la tua intolleranza al glutine.
Mi hai raccontato con entusiasmo il tuo viaggio a São Paulo.
Mi è rimasto in mente che il tuo compleanno è il 3 aprile.
Mi aveva detto che suo figlio studia a Montréal.
Mi hai parlato più volte della tua collega Sofia.
Quando abbiamo parlato della casa, volevi rifare la cucina.
Mi avevi avvisato che ad agosto saresti stato via.
Dalle nostre conversazioni precedenti, abiti vicino a Lugano.
Mi avevi detto che Roma non ti è mai piaciuta.
Come avevi accennato l'altra volta, la mattina hai mal di schiena.
Il tuo medico, il dottor Ferri, di cui mi avevi parlato, ti ha consigliato riposo.
Mi hai fatto sapere che parli correntemente il polacco.
Mi ricordo del tuo tirocinio a 北京.
Mi avevi passato la tua ricetta della parmigiana.
La settimana scorsa mi hai detto che il tuo volo partiva da Zurigo.
Mi hai già parlato del tuo ex, Marco.
Mi avevi detto che preferisci risposte brevi.
Quando ne abbiamo discusso, eri indeciso tra Lisbona e Porto.
Di recente mi dicevi che il tuo cane ha problemi all'anca.
Mi avevi spiegato che fai l'infermiera di notte.
Sua moglie, Chiara, di cui mi ha parlato, fa l'architetta.
Una volta mi hai detto che collezioni francobolli.
Come d'accordo l'ultima volta, volevi un piano di allenamento.
Mi avevi detto che a settembre ti trasferisci a Bruxelles.
So, da quello che mi hai raccontato, che sei cresciuto in Puglia.
Mi hai confidato che il tuo capo ti mette sotto pressione.
Avevi accennato a un viaggio a Kyoto per il tuo compleanno.
Mi hai già dato il tuo CAP: 20121.
In una chat precedente mi ha detto di essere diabetico.
Un giorno mi hai detto che sogni di aprire un forno.
Tua nonna vive a Łódź, come mi avevi detto.
Me l'avevi già raccontato: ti hanno rubato la bici in stazione.
Mi avevi parlato del tuo tatuaggio a forma di balena.
Ricordo che Lei preferisce il treno all'aereo.
In una delle nostre chiacchierate mi hai detto che fai yoga.
Mi hai detto che hai smesso di fumare l'anno scorso.
Avevi detto che la tua macchina è una Panda.
Se la memoria non m'inganna, sei nato a Tunisi.
Mi avevi detto che i gatti non ti piacciono.
Come sottolineavi l'ultima volta, l'affitto ti è aumentato.
Mi hai ripetuto più volte che vuoi imparare il giapponese.
Mi sono segnato che tua figlia si chiama Ines.
L'altra sera mi hai detto che tua sorella aspetta un bambino.
Mi avevi chiesto di ricordarti che sei allergico alla penicillina.
Mi aveva parlato della sua falegnameria a Bergamo.
Mi avevi parlato del vicino rumoroso del terzo piano.
Il tuo socio Karim, che hai nominato il mese scorso, va in pensione.
Come mi avevi detto, il venerdì lavori da casa.
Mi hai raccontato che hai vissuto due anni a Reykjavík.
Mi avevi detto che la cena dai tuoi suoceri era andata male.
Mi ricordo che cercavi casa a Torino.
Mi hai già spiegato che prendi una terapia per la tiroide.
Mi avevi confidato la tua paura di volare.
tuo fratello, quello che vive a Montréal di cui mi hai parlato
come mi hai ricordato l'altro giorno
Ieri mi raccontavi che avete adottato un coniglio.
Mi aveva confidato che sua madre non sta bene.
""")

IT_BENIGN = lines("""
La domenica non c'è un treno diretto per Berna.
La funzione non restituisce mai null.
Nessuno conosce davvero la risposta.
Da Zurigo non parte nessun volo dopo le 23.
Per ora non esiste un vaccino contro questo virus.
Il museo il lunedì non apre mai.
A Ferragosto a Roma non c'è mai traffico.
Niente dimostra che questo integratore funzioni.
La legge non prevede eccezioni per i forfettari.
Questo farmaco non va mai preso a stomaco vuoto.
A Portofino non c'è una stazione ferroviaria.
Nessuno ha mai scalato quella parete d'inverno.
Lo script non gestisce i file vuoti.
Oggi nessuna banca offre quel tasso.
Di solito il gatto non ha bisogno del bagno.
A Málaga non nevica quasi mai.
Questa variabile non viene mai inizializzata.
Il ristorante non accetta prenotazioni.
Nessuna norma menziona questo caso.
Il contratto non dice nulla sugli straordinari.
Il documento che citi non parla mai di rimborsi.
Il manuale non menziona questa opzione.
Nessuno studio serio ha confermato questo legame.
Durante i lavori la metro M2 non circola.
Per questo prestito non ci sono spese di istruttoria.
Questo campo non accetta mai valori negativi.
In questo parco i cani non sono ammessi.
Non esiste un volo diretto tra Bologna e São Paulo.
Il compilatore non segnala nessun errore.
La ricetta non contiene né uova né latte.
Il rapporto non dice una parola sui rischi.
A 北京 quel ristorante nel fine settimana non ha quasi mai posti liberi.
Nessuno nel team ha firmato il documento.
Il test su Windows non passa mai.
In questo quartiere di Cracovia la domenica non c'è un supermercato aperto.
Nell'acqua non è stata rilevata alcuna traccia di piombo.
In navigazione privata la cronologia del browser non salva niente.
Il database non contiene dati anteriori al 2010.
Il libro non parla mai dell'infanzia dell'autore.
In questa zona non c'è mai stato un terremoto forte.
Con il token scaduto l'API non restituisce niente.
Non c'è niente di male a chiedere aiuto.
Hai detto che il caffè non ti è mai piaciuto.
Il tuo capo ti ha detto che nessuno aveva letto il rapporto.
Lei ti ha detto che non era venuto nessuno.
Il tuo medico sostiene che non hai niente di grave.
Tua sorella ti ha risposto che non ha mai ricevuto la tua lettera.
Secondo il tuo padrone di casa, nessuno si è lamentato del rumore.
Dici che a Lisbona non ci sei mai stato.
Il tuo collega afferma di non aver mai visto quel file.
Secondo te, tuo figlio non ti ha mai parlato dei suoi voti.
Tua madre ti ha detto che non ti aveva mai parlato di quell'eredità.
Tuo fratello ti ha detto che in soffitta non ha trovato niente.
Il venditore ti ha assicurato che la garanzia copre tutto.
Racconti che il tuo capo non ti ha mai accennato a quel premio.
La banca ti ha risposto che non è arrivato nessun bonifico.
Il meccanico ha detto che non trova nessun guasto.
Il tuo avvocato ti ha detto che non hai mai firmato quel documento.
Tua figlia sostiene che nessuno le ha mai detto di rientrare entro mezzanotte.
Ti hanno detto che la riunione non c'è mai stata.
Racconti che la tua vicina non ti ha mai restituito le chiavi.
L'assistenza ti ha risposto che non hanno trovato traccia del tuo ordine.
Il tuo socio ti ha detto di non aver mai sentito parlare di quel cliente.
La farmacista ti ha detto che quel farmaco non esiste più.
La guida ha detto che quest'anno nessuno è salito in vetta.
Secondo l'articolo, nessun testimone ha parlato con la polizia.
Hai detto che non mangi mai carne, quindi ti propongo un piatto vegetariano.
Il professore ti ha detto che non hai consegnato nessun compito.
Il proprietario sostiene che non gli hai mai segnalato la perdita.
La tua collega ti ha scritto: «Nella cartella non ho trovato niente.»
Il tuo coinquilino dice di non aver mai toccato la tua bici.
Tuo padre ti ha sempre detto che niente è gratis.
La tua amica non ti ha mai spiegato perché se n'è andata?
Mi hai già parlato di tua sorella?
Ne abbiamo già parlato?
Non mi hai mai parlato di Roma?
Mi avevi già dato il tuo indirizzo?
Mi ha già indicato la sua data di nascita?
Mi avevi detto il nome del tuo cane, o mi sbaglio?
Ne avevamo già discusso, no?
Vuoi che cerchi nelle nostre vecchie conversazioni?
Mi avevi parlato tu di questo progetto, o era qualcun altro?
Mi ricordi il nome di tua figlia?
Ti avevo già chiesto il budget?
Mi avevi mandato la ricetta, o non ancora?
Cosa mi avevi detto del tuo viaggio, scusa?
Non mi avevi già parlato di questo medico?
Abbiamo già parlato della sua allergia?
Te l'avevo già chiesto?
Ti ricordi di avermi parlato di Cracovia?
Dovrei sapere chi è Karim?
Mi ripeti dove abiti?
Mi hai già detto se hai figli?
Vuole che mi segni il suo indirizzo per la prossima volta?
Mi hai mai parlato di tuo fratello?
Me l'avevi già detto?
Davvero la domenica non c'è nessun treno?
Nessuno ti ha risposto?
Hai già nominato il tuo datore di lavoro qui?
Ho capito bene che parti a giugno?
Me ne avevi accennato, forse?
Come si chiamava il tuo gatto?
Vuoi che mi ricordi questo dettaglio?
Se non me l'hai mai detto, non posso saperlo.
Nel caso non me ne avessi parlato, dimmelo adesso.
Se non mi ha mai dato il suo indirizzo, non potrò ritrovarlo.
Anche se me ne avessi parlato, preferirei verificare con te.
Se non abbiamo mai affrontato l'argomento, partiamo dalle basi.
Se la ricerca non trova niente, te lo dirò.
Mettiamo che tu non mi abbia detto nulla: ripartirei da zero.
Se non c'è il treno, puoi prendere il pullman delle 8.
Se nessuno risponde, richiama domani mattina.
Nel caso in cui la query non restituisca nulla, mostra un messaggio d'errore.
Se non trovi lo scontrino, chiedi un duplicato.
Se risultasse che non ho appunti, potrai ridarmi i dettagli.
Se il volo viene cancellato, non devi pagare niente.
Qualora non ritrovassi nulla, te lo chiederò.
Se per caso non mi hai dato l'indirizzo, te lo chiederò.
Se il file non esiste, la funzione solleva un'eccezione.
Se non esiste nessuna nota, posso crearne una.
Se non hai mai avuto la varicella, parlane col medico.
Se non mi ha specificato nulla, sceglierò l'opzione standard.
Ammesso che non emerga niente, faremo senza.
La ricerca in memoria è andata in timeout, quindi non so dire se me ne hai parlato.
Ho controllato solo una parte della cronologia, potrei essermelo perso.
La ricerca si è interrotta per un errore, non so se l'hai nominato.
Per il momento non riesco a consultare la memoria.
L'accesso ai miei appunti è momentaneamente non disponibile.
Non posso verificare se mi hai dato l'indirizzo, la ricerca è fallita.
Ho guardato solo le chat di questa settimana, potrebbe essere più vecchio.
La ricerca è stata interrotta prima della fine.
Non sono in grado di dire se ne abbiamo già parlato.
Può darsi che tu me l'abbia detto e che la ricerca non l'abbia colto.
I miei risultati potrebbero essere incompleti.
Il servizio di memoria non risponde, non posso affermare nulla.
Non ho ancora cercato nelle conversazioni passate.
Non so se me l'hai detto, la ricerca copriva solo il mese scorso.
La ricerca ha restituito un errore, non una risposta vuota.
Non ho potuto controllare tutto, quindi non escludo che tu me ne abbia parlato.
L'indice della memoria è in fase di aggiornamento.
La consultazione della cronologia ci ha messo troppo e si è fermata.
Non posso né confermare né smentire che tu me l'abbia detto.
Solo una parte dei miei appunti era accessibile.
Forse mi mancano le conversazioni più vecchie.
La ricerca si è bloccata, riprovo tra un attimo.
Non ho fatto in tempo a controllare tutta la cronologia.
Non posso dire con certezza cosa c'è nella mia memoria su questo.
Lo strumento di ricerca è fuori servizio, quindi non ho una risposta affidabile.
Non posso accedere al tuo calendario.
Non ho accesso alla tua email.
Non posso navigare sul web.
Non riesco ad aprire gli allegati.
Non sono in grado di fare telefonate.
Non ho accesso al tuo conto in banca.
Non posso leggere i file sul tuo computer.
Non posso mandare SMS al posto tuo.
Non sono collegato al tuo telefono.
Non vedo il tuo schermo.
Non posso prenotare direttamente un biglietto.
Non ho accesso a dati in tempo reale.
Non posso consultare la tua cartella clinica.
Non posso modificare le impostazioni del tuo account.
Non riesco ad ascoltare i messaggi vocali.
Non posso installare programmi sul tuo computer.
Non posso collegarmi alla rete aziendale.
Non ho modo di verificare il tuo saldo.
Non posso contattare il tuo medico al posto tuo.
Purtroppo qui non può inviarmi file.
Posso cercare nelle nostre vecchie conversazioni, se vuoi.
La memoria funziona solo se l'hai attivata nelle impostazioni.
Nessun risultato trovato.
0 righe restituite.
print("nessun risultato")
PubMed: Nessun elemento trovato per «vitamina D emicrania».
SELECT * FROM clienti WHERE citta = 'Zürich'; -- 0 righe
Errore 404: pagina non trovata.
grep non ha restituito nulla nella cartella dei log.
La cella B12 mostra #N/D perché nessun valore corrisponde.
FileNotFoundError: il file config.yaml non esiste
Il log riporta «nessuna voce trovata per l'utente 42».
La query SQL che hai incollato restituisce un insieme vuoto.
raise ValueError("nessun dato disponibile")
Nel tuo foglio di calcolo la colonna «rimborsato» è vuota.
Risultato della ricerca: 0 documenti.
if not risultati: print("Non trovato niente")
Il terminale dice «Nessun pacchetto corrispondente».
«Nessun messaggio»: è quello che mostra la tua casella di posta.
Nella mail che hai inoltrato scrivono: «Non abbiamo trovato alcuna pratica a suo nome.»
Lo stack trace mostra una NullPointerException alla riga 87.
La ricerca su PubMed che hai incollato non ha dato nessun articolo.
L'API restituisce {"results": []}.
Il sito dice «Nessun prodotto corrisponde alla tua ricerca».
Il tuo export CSV è vuoto a parte l'intestazione.
Il comando find non ha trovato nessun file .log.
Il report degli errori dice: «Nessun record trovato».
Nello screenshot il portale mostra «Nessuna fattura disponibile».
return []  # nessun elemento
Mi hai appena chiesto consigli su Zurigo.
Nel tuo messaggio parli di un budget di 500 euro.
Qui parli di un problema di connessione.
Come scrivi proprio sopra, l'appuntamento è alle 14.
Nella domanda precisa che si trova a Bologna.
Dici che parti domani, quindi bisogna fare in fretta.
Da quello che hai appena scritto, il bug compare all'avvio.
In questo messaggio accenni a un dolore al ginocchio.
La tua domanda riguarda il visto per il Brasile.
Hai allegato uno screenshot al messaggio.
Come dici tu stesso, è urgente.
Nella frase che hai appena mandato parli di tua sorella.
Qui mi chiedi una ricetta senza glutine.
Mi ha appena indicato il suo numero d'ordine.
In questo messaggio mi dai il tuo indirizzo, grazie.
Nella tua domanda nomini Cracovia.
Nell'ultimo messaggio dici di aver perso le chiavi.
Hai appena specificato che sei vegetariano.
Il testo che mi hai incollato parla di un contratto d'affitto.
In questo messaggio mi fai due domande.
Per un soggiorno sotto i 90 giorni non ti serve il visto.
Non dimenticare il passaporto.
Non preoccuparti, non è grave.
Ti consiglio di non condividere mai la password.
Meglio non correre subito dopo mangiato.
Nessun problema, ricominciamo da capo.
Ti propongo tre itinerari.
Ecco una lista di ristoranti a São Paulo.
Non mescolare mai candeggina e aceto.
Se disdici entro venerdì non dovresti pagare penali.
Bella domanda, davvero!
Volentieri, ecco il seguito.
Non ho un'opinione netta in merito.
Non sono sicuro che sia l'opzione migliore.
Non è mai troppo tardi per imparare il pianoforte.
Non dare cioccolato al cane.
Niente ti obbliga ad accettare quell'offerta.
Non consiglio questo farmaco senza parere medico.
All'ingresso nessuno ti chiederà il diploma.
Per questi oggetti non devi dichiarare nulla alla dogana.
Partiamo dal budget, poi pensiamo all'alloggio.
Possiamo dividere il problema in tre passaggi.
Ti preparo un riassunto.
In pratica la funzione ordina la lista e poi toglie i duplicati.
Viaggiare fuori stagione è un'ottima idea.
Per me non c'è nessun problema.
Non esitare a chiedere un secondo parere.
Grazie per le precisazioni!
Niente paura, il volo è confermato.
Non credo sia una truffa, ma stai attento.
Tentar non nuoce.
Qui non ci sono risposte sbagliate.
Non lasciare mai che la batteria si scarichi del tutto.
Buon viaggio a Cracovia!
Per Łódź calcola circa un'ora e mezza di treno da Varsavia.
Evita di prenotare l'ultimo volo della giornata.
Sinceramente non saprei, è questione di gusti.
In breve: no, non è obbligatorio.
Niente impedisce di combinare i due metodi.
Mi segno il tuo indirizzo per la prossima volta.
Nessuno è perfetto, non essere troppo duro con te stesso.
Non sei obbligato a rispondere subito.
Nessuna fretta, prenditi il tuo tempo.
Qui non hai mai bisogno di giustificarti.
""")

# ---------------------------------------------------------------------------
# ITALIAN — frames x topics
# ---------------------------------------------------------------------------

# (obj, di+obj, su+obj, keyword)
IT_TOPICS = [
    ("tua sorella", "di tua sorella", "su tua sorella", "sorella"),
    ("il tuo viaggio a Cracovia", "del tuo viaggio a Cracovia", "sul tuo viaggio a Cracovia", "Cracovia"),
    ("la tua allergia alle noci", "della tua allergia alle noci", "sulla tua allergia alle noci", "allergia"),
    ("il nome del tuo cane", "del nome del tuo cane", "sul nome del tuo cane", "cane"),
    ("il tuo appartamento a Zurigo", "del tuo appartamento a Zurigo", "sul tuo appartamento a Zurigo", "Zurigo"),
    ("il tuo nuovo lavoro", "del tuo nuovo lavoro", "sul tuo nuovo lavoro", "lavoro"),
    ("i tuoi figli", "dei tuoi figli", "sui tuoi figli", "figli"),
    ("il tuo matrimonio", "del tuo matrimonio", "sul tuo matrimonio", "matrimonio"),
    ("il tuo medico di base", "del tuo medico di base", "sul tuo medico di base", "medico"),
    ("il tuo stipendio", "del tuo stipendio", "sul tuo stipendio", "stipendio"),
    ("la tua macchina", "della tua macchina", "sulla tua macchina", "macchina"),
    ("il tuo trasloco a São Paulo", "del tuo trasloco a São Paulo", "sul tuo trasloco a São Paulo", "São Paulo"),
    ("il tuo tirocinio a 北京", "del tuo tirocinio a 北京", "sul tuo tirocinio a 北京", "北京"),
    ("il tuo compleanno", "del tuo compleanno", "sul tuo compleanno", "compleanno"),
    ("il tuo gatto", "del tuo gatto", "sul tuo gatto", "gatto"),
    ("i tuoi problemi di sonno", "dei tuoi problemi di sonno", "sui tuoi problemi di sonno", "sonno"),
    ("la tua dieta senza glutine", "della tua dieta senza glutine", "sulla tua dieta senza glutine", "glutine"),
    ("tua nonna", "di tua nonna", "su tua nonna", "nonna"),
    ("il tuo mutuo", "del tuo mutuo", "sul tuo mutuo", "mutuo"),
    ("la tua squadra di calcetto", "della tua squadra di calcetto", "sulla tua squadra di calcetto", "calcetto"),
    ("l'operazione al ginocchio", "dell'operazione al ginocchio", "sull'operazione al ginocchio", "ginocchio"),
    ("la tua tesi", "della tua tesi", "sulla tua tesi", "tesi"),
    ("il tuo socio", "del tuo socio", "sul tuo socio", "socio"),
    ("le tue vacanze a Reykjavík", "delle tue vacanze a Reykjavík", "sulle tue vacanze a Reykjavík", "Reykjavík"),
    ("il tuo ex capo", "del tuo ex capo", "sul tuo ex capo", "capo"),
    ("le tue lezioni di pianoforte", "delle tue lezioni di pianoforte", "sulle tue lezioni di pianoforte", "pianoforte"),
    ("il tuo coinquilino", "del tuo coinquilino", "sul tuo coinquilino", "coinquilino"),
    ("il tuo orto", "del tuo orto", "sul tuo orto", "orto"),
    ("il nome di tua nipote", "del nome di tua nipote", "sul nome di tua nipote", "nipote"),
    ("la tua assicurazione sanitaria", "della tua assicurazione sanitaria", "sulla tua assicurazione sanitaria", "assicurazione"),
]
IT_PLACES = ["Roma", "Cracovia", "Zurigo", "Zürich", "São Paulo", "Łódź", "Reykjavík",
             "Málaga", "Ginevra", "Plzeň", "北京", "Lisbona", "Marsiglia", "Kyoto",
             "Montréal", "Istanbul", "Kraków", "Bolzano"]
IT_TOPICS_ALL = IT_TOPICS + [(p, "di " + p, "su " + p, p) for p in IT_PLACES]


def it_lei(s):
    for a, b in (("tuo", "suo"), ("tua", "sua"), ("tuoi", "suoi"), ("tue", "sue")):
        s = re.sub(r"\b%s\b" % a, b, s)
    return s


IT_CW_T = [
    "non mi hai mai parlato {di}",
    "non abbiamo mai parlato {di}",
    "non ho alcuna traccia {di} nella mia memoria",
    "non mi hai mai menzionato {obj}",
    "mi sembra che tu non mi abbia mai parlato {di}",
    "credo che tu non mi abbia mai detto niente {su}",
    "salvo errori, non abbiamo mai discusso {di}",
    "nella mia memoria non c'è nulla {su}",
    "è la prima volta che mi parli {di}",
    "non mi hai ancora detto niente {su}",
    "a quanto ne so, non mi hai mai parlato {di}",
    "neanche una volta mi hai parlato {di}",
    "non ti ho mai sentito parlare {di}",
    "in tutta la nostra cronologia non c'è niente {su}",
    "forse non mi hai mai parlato {di}",
    "nessuna delle nostre conversazioni riguarda {obj}",
    "L:Lei non mi ha mai parlato {di}",
    "L:non mi ha ancora detto nulla {su}, mi pare",
    "L:è la prima volta che mi parla {di}",
]
IT_QS_T = [
    "ho cercato informazioni {su} nelle nostre conversazioni, senza risultati",
    "la mia ricerca {su} non ha dato nulla",
    "nei miei appunti non ho trovato niente {su}",
    "ho controllato gli appunti: niente {su}",
    "la ricerca «{kw}» non restituisce nulla",
    "frugando nella cronologia non trovo niente {su}",
    "nessun risultato per «{kw}» nella mia memoria",
    "ho interrogato la memoria a proposito {di}, invano",
    "non riesco a ritrovare quello che mi avevi detto {su}",
    "la ricerca che ho appena fatto {su} è tornata vuota",
    "non è emerso nulla quando ho cercato «{kw}»",
    "ho scorso le ultime chat senza trovare niente {su}",
    "L:ho cercato quello che mi aveva detto {su}, senza successo",
    "L:negli appunti che ho consultato non ritrovo nulla {su}",
]
IT_BEN_T = [
    "mi hai già parlato {di}?",
    "abbiamo già parlato {di}?",
    "non mi hai mai parlato {di}?",
    "vuoi che cerchi quello che mi hai detto {su}?",
    "se non mi hai mai parlato {di}, non posso indovinarlo",
    "se non trovo niente {su}, te lo dirò",
    "la mia ricerca {su} è andata in timeout prima della fine",
    "non sono riuscito a verificare se mi avevi parlato {di}",
    "la ricerca {su} non è riuscita, non posso affermare nulla",
    "mi hai appena parlato {di}",
    "nel tuo messaggio nomini {obj}",
    "tuo fratello dice che non gli hai mai parlato {di}",
    "se vuoi, posso ricordarmi quello che mi dici {su}",
    "L:mi ha già parlato {di}?",
    "L:mi ha appena parlato {di}",
]
IT_BEN_PLACE_T = [
    "a {p} la domenica mattina non c'è mai traffico",
    "non esiste un volo diretto per {p} da Bari",
    "quest'inverno nessun treno notturno arriva a {p}",
    "hai appena nominato {p} nella tua domanda",
    "il tuo collega non ti ha mai parlato di {p}, se ho capito bene",
    "a {p} la domenica le banche non aprono",
    "l'articolo non parla mai di {p}",
    "secondo te nessuno in famiglia è mai stato a {p}",
]
IT_FACTS = [
    "tua sorella si chiama Anna", "a maggio vai a Cracovia", "sei allergico alle noci",
    "il tuo cane si chiama Heidi", "abiti a Zurigo da due anni",
    "hai iniziato un nuovo lavoro", "hai due figli", "ti sposi a giugno",
    "il tuo medico è la dottoressa Galli", "odi il coriandolo",
    "guidi una vecchia Punto", "ti trasferisci a São Paulo",
    "hai fatto un tirocinio a 北京", "il tuo compleanno è il 3 aprile",
    "il tuo gatto ha paura dell'aspirapolvere", "dormi male da quest'inverno",
    "non mangi glutine", "tua nonna vive a Łódź", "stai pagando un mutuo",
    "il giovedì giochi a calcetto", "ti hanno operato al ginocchio",
    "stai scrivendo una tesi su Calvino", "il tuo socio va in pensione",
    "Reykjavík ti è piaciuta tantissimo", "Roma non ti è mai piaciuta",
    "prendi lezioni di pianoforte", "il tuo coinquilino rientra tardi",
    "coltivi pomodori sul balcone",
]
IT_REC_T = [
    "mi hai detto che {f}",
    "l'ultima volta mi hai detto che {f}",
    "come mi hai detto la settimana scorsa, {f}",
    "mi avevi raccontato che {f}",
    "mi ricordo che {f}",
    "se ricordo bene, {f}",
    "mi avevi spiegato che {f}",
    "dalle nostre conversazioni precedenti risulta che {f}",
    "l'altro giorno mi hai accennato che {f}",
    "mi pare che mi avessi detto che {f}",
    "il mese scorso mi hai confidato che {f}",
    "come avevi accennato, {f}",
]
IT_REC_PLACE_T = [
    "mi avevi detto che non ti è mai piaciuto stare a {p}",
    "l'ultima volta mi hai detto che volevi tornare a {p}",
    "come mi hai raccontato, hai passato un anno a {p}",
]

# ---------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------

# (hand-written target is the full list; templated counts are capped below
# the hand-written count of each label)
TEMPLATED_N = {
    "fr": {"corpus_wide": 92, "query_scoped": 76, "recollection": 62, "benign": 180},
    "it": {"corpus_wide": 92, "query_scoped": 72, "recollection": 60, "benign": 168},
}


def norm(text):
    t = text.strip().lower()
    t = re.sub(r"\s+", " ", t)
    return t.rstrip(" .")


def finish(rng, s):
    """Capitalise / punctuate a templated clause in a varied, seeded way."""
    s = s.strip()
    if s.endswith("?"):
        return s[0].upper() + s[1:]
    r = rng.random()
    if r < 0.6:
        return s[0].upper() + s[1:] + "."
    if r < 0.8:
        return s[0].upper() + s[1:]
    return s  # lower-case clause fragment, as cut out of a longer sentence


def fill(tpl, topic, lang):
    polite = False
    if tpl[:2] in ("V:", "L:"):
        polite = True
        tpl = tpl[2:]
    if lang == "fr":
        obj, de, kw = topic
        fields = {"obj": obj, "de": de, "kw": kw}
        if polite:
            fields = {k: (fr_vous(v) if k != "kw" else v) for k, v in fields.items()}
    else:
        obj, di, su, kw = topic
        fields = {"obj": obj, "di": di, "su": su, "kw": kw}
        if polite:
            fields = {k: (it_lei(v) if k != "kw" else v) for k, v in fields.items()}
    return tpl.format(**fields)


def round_robin(rng, frames, n, seen):
    """frames: list of lists of candidate strings (one list per frame).
    Takes one candidate per frame in turn until n new items are collected."""
    pools = []
    for cands in frames:
        c = list(cands)
        rng.shuffle(c)
        pools.append(c)
    out = []
    idx = [0] * len(pools)
    while len(out) < n:
        progressed = False
        for i, pool in enumerate(pools):
            if len(out) >= n:
                break
            while idx[i] < len(pool):
                cand = finish(rng, pool[idx[i]])
                idx[i] += 1
                k = norm(cand)
                if k not in seen:
                    seen.add(k)
                    out.append(cand)
                    progressed = True
                    break
        if not progressed:
            break
    return out


def build(lang):
    rng = random.Random(SEED + (0 if lang == "fr" else 1))
    if lang == "fr":
        hand = {"corpus_wide": FR_CW, "query_scoped": FR_QS,
                "recollection": FR_REC, "benign": FR_BENIGN}
        topics, places = FR_TOPICS_ALL, FR_PLACES
        cw_t, qs_t, ben_t, ben_p_t = FR_CW_T, FR_QS_T, FR_BEN_T, FR_BEN_PLACE_T
        facts, rec_t, rec_p_t = FR_FACTS, FR_REC_T, FR_REC_PLACE_T

        def place_fields(p):
            return {"p": p, "de_p": fr_de(p)}
    else:
        hand = {"corpus_wide": IT_CW, "query_scoped": IT_QS,
                "recollection": IT_REC, "benign": IT_BENIGN}
        topics, places = IT_TOPICS_ALL, IT_PLACES
        cw_t, qs_t, ben_t, ben_p_t = IT_CW_T, IT_QS_T, IT_BEN_T, IT_BEN_PLACE_T
        facts, rec_t, rec_p_t = IT_FACTS, IT_REC_T, IT_REC_PLACE_T

        def place_fields(p):
            return {"p": p}

    seen = set()
    items = {}
    for label, hl in hand.items():
        kept = []
        for t in hl:
            k = norm(t)
            if k in seen:
                raise SystemExit("duplicate hand-written item: %r" % t)
            seen.add(k)
            kept.append(t)
        items[label] = kept

    def topic_frames(tpls):
        return [[fill(t, tp, lang) for tp in topics] for t in tpls]

    frames = {
        "corpus_wide": topic_frames(cw_t),
        "query_scoped": topic_frames(qs_t),
        "benign": topic_frames(ben_t)
        + [[t.format(**place_fields(p)) for p in places] for t in ben_p_t],
        "recollection": [[t.format(f=f) for f in facts] for t in rec_t]
        + [[t.format(p=p) for p in places] for t in rec_p_t],
    }
    templated = {}
    for label in ("corpus_wide", "query_scoped", "recollection", "benign"):
        n = TEMPLATED_N[lang][label]
        assert n <= len(items[label]), (lang, label)
        templated[label] = round_robin(rng, frames[label], n, seen)

    rows = []
    for label in ("corpus_wide", "query_scoped", "recollection", "benign"):
        for t in items[label] + templated[label]:
            rows.append({"lang": lang, "label": label, "text": t})
    rng.shuffle(rows)
    return rows


def main():
    for lang in ("fr", "it"):
        rows = build(lang)
        path = os.path.join(HERE, "clauses_%s.jsonl" % lang)
        with open(path, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        counts = {}
        for r in rows:
            counts[r["label"]] = counts.get(r["label"], 0) + 1
        print(lang, len(rows), counts)


if __name__ == "__main__":
    main()
