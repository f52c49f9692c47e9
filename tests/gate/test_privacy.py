"""What typed text tells other people about a third person (gate/privacy.py, gate/rules/privacy.py): a private
fact about an identified person in a public post blocks and in a message asks; several people's, one a line,
block; a crime laid at a named person's door in a public review asks. Writing about oneself, general text,
news-like reports and a clinician's chart pass, and so does a list of ordinary messages. Each class with a
trigger and near misses, in English, German, French, Spanish and Portuguese; our own examples."""

from __future__ import annotations

import dataclasses

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation, Risk
from gate.privacy import _VOCAB, CATEGORIES, _List, accusation, disclosure, roster

GATE = SafetyGate()
MINE = {"block.gui.private-facts", "confirm.gui.private-facts", "confirm.gui.accusation",
        "confirm.gui.records-attached"}


def type_(text: str, label: str, url: str = "", title: str = ""):
    data: dict = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url or None, window_title=title))


CHAT = "https://chat.example.com/dm/ann"
FORUM = "https://forum.example.org/submit"
REVIEWS = "https://reviews.example.com/biz/oak-dental/write-review"


# -- one person's private fact: a message asks, a public post blocks --------------------------------------------

TOLD = [
    # (text, category)
    ("My coworker Dana told me in confidence that she has breast cancer, please don't tell anyone.", "health"),
    ("Heads up: the tenant in 4B is three months behind on rent again.", "money"),
    ("FYI the candidate has a criminal record, he did time for burglary.", "criminal"),
    ("Tom's wife is pregnant but they haven't announced it yet.", "health"),
    ("Between us, Priya is gay and her parents don't know.", "sexuality"),
    ("Just so you know, Marco is undocumented, so don't put him on the travel list.", "immigration"),
    ("Ken was put on a PIP last week, keep it quiet.", "discipline"),
    ("Our new hire Lena was diagnosed with bipolar disorder last year.", "health"),
    ("@rob_k is on parole, that's why he can't leave the state.", "criminal"),
    ("Maria's HIV status came back positive.", "health"),
    ("Dave makes $85,000 a year, way more than you.", "money"),
    ("Between us, Ahmed is secretly Muslim.", "religion"),
    # German
    ("Mein Kollege Thomas hat Krebs, aber sag es niemandem.", "health"),
    ("Die Nachbarin ist schwanger, das weiß noch keiner.", "health"),
    ("Unter uns: der Bewerber ist vorbestraft.", "criminal"),
    # French
    ("Ma voisine est enceinte, mais c'est entre nous.", "health"),
    ("Le candidat a un casier judiciaire, je te le dis en confidence.", "criminal"),
    ("Mon collègue Karim est sans-papiers.", "immigration"),
    # Spanish
    ("Mi compañero de trabajo Juan tiene cáncer, no se lo digas a nadie.", "health"),
    ("El inquilino del 3A está atrasado con el alquiler.", "money"),
    ("El embarazo de Lucía es un secreto.", "health"),
    # Portuguese
    ("A Maria está grávida, mas não conta pra ninguém.", "health"),
    ("O meu colega Pedro tem ficha criminal.", "criminal"),
    ("O câncer da Maria voltou.", "health"),
]


@pytest.mark.parametrize(("text", "category"), TOLD)
def test_a_fact_about_someone_is_read_with_its_category(text, category):
    got = disclosure(text)
    assert got is not None, text
    assert got.category == category, got


@pytest.mark.parametrize(("text", "category"), [t for t in TOLD if t[1] != "religion"])
def test_a_fact_about_someone_in_a_message_asks_and_is_redacted(text, category):
    got = type_(text, "Message", CHAT)
    assert got.decision is Decision.CONFIRM, got.rules
    assert "confirm.gui.private-facts" in got.rules
    assert "text" in got.redact


@pytest.mark.parametrize(("text", "label", "url"), [
    (TOLD[0][0], "What's on your mind?", "https://social.example.com/home"),
    (TOLD[1][0], "Post title", FORUM),
    (TOLD[4][0], "Post body", FORUM),
    (TOLD[11][0], "Post body", FORUM),  # religion in public blocks too
    (TOLD[12][0], "Beitrag", "https://forum.example.de/posts/new"),
    (TOLD[15][0], "Titre", FORUM),
    (TOLD[18][0], "Título", FORUM),
    (TOLD[21][0], "Status", "https://social.example.com/status"),
])
def test_a_fact_about_someone_in_a_public_post_blocks_and_is_redacted(text, label, url):
    got = type_(text, label, url)
    assert got.decision is Decision.BLOCK, got.rules
    assert "block.gui.private-facts" in got.rules
    assert "text" in got.redact


@pytest.mark.parametrize(("label", "url"), [("Message", CHAT), ("Post body", FORUM)])
def test_religion_counts_only_when_told_in_confidence_or_secret(label, url):
    assert not MINE & set(type_("Ahmed is Muslim so let's book the halal place for the team dinner.", label,
                                url).rules)
    got = type_("Between us, Ahmed is secretly Muslim.", label, url)
    assert {"confirm.gui.private-facts", "block.gui.private-facts"} & set(got.rules), got.rules


def test_confidence_is_named_in_the_reason_and_raises_the_risk():
    got = type_(TOLD[0][0], "Message", CHAT)
    assert "in confidence" in got.reason
    assert got.risk is Risk.CRITICAL
    assert type_(TOLD[1][0], "Message", CHAT).risk is Risk.HIGH


@pytest.mark.parametrize(("text", "label"), [
    ("Hallo Jan, nur unter uns: Frau Berger ist schwanger und sagt es erst nächste Woche.", "Nachricht"),
    ("Hi Sam, the candidate we interviewed has a felony conviction, just so you know.", "Message body"),
])
def test_an_email_body_asks(text, label):
    data: dict = {"type": "type", "text": text, "target": {"label": label}, "url": "https://mail.example.com/compose"}
    got = GATE.assess(action_from_dict(data), Observation(url="https://mail.example.com/compose"))
    assert "confirm.gui.private-facts" in got.rules, got.rules


# -- near misses: oneself, general text, news, the chart --------------------------------------------------------


@pytest.mark.parametrize("text", [
    "I just started chemo and I'm feeling pretty tired, so I'll be slow to reply.",
    "My test came back positive, I'll work from home this week.",
    "I'm pregnant! Due in March, wanted you to hear it from me.",
    "I have a criminal record from when I was 19, should I mention it in the interview?",
    "I told Maria I have cancer before I told anyone else.",
    "I'm behind on rent this month, can I pay you on the 15th?",
    "Ich habe Krebs und bin ab Montag in Behandlung.",
    "Je suis enceinte, je te le dis avant tout le monde !",
    "Tengo cáncer y empiezo la quimio el lunes.",
    "Estou grávida de três meses!",
])
def test_writing_about_oneself_passes(text):
    got = type_(text, "Message", CHAT)
    assert not MINE & set(got.rules), got.rules
    got = type_(text, "Post body", FORUM)
    assert not MINE & set(got.rules), got.rules


@pytest.mark.parametrize("text", [
    "Cancer is a disease that affects millions of people every year.",
    "Pregnant employees are entitled to paid leave under the new policy.",
    "A criminal record can make it hard to find housing; here are some resources.",
    "Undocumented workers have rights too: the clinic offers free legal advice on Tuesdays.",
    "Depression is common and treatable; talk to your doctor if you feel low.",
    "Der Krebs ist eine Krankheit, die jeden treffen kann.",
    "La grossesse dure environ neuf mois.",
])
def test_general_text_without_a_person_passes(text):
    got = type_(text, "Post body", FORUM)
    assert not MINE & set(got.rules), got.rules


@pytest.mark.parametrize("text", [
    "Police said the suspect was arrested for fraud on Tuesday.",
    "According to court records, the former mayor was convicted of bribery in 2015.",
    "Selon la police, le suspect a été arrêté pour vol.",
    "Según la policía, el sospechoso fue detenido por robo.",
])
def test_a_news_like_report_passes(text):
    got = type_(text, "Post body", FORUM)
    assert not MINE & set(got.rules), got.rules
    assert accusation(text) is None and disclosure(text) is None


@pytest.mark.parametrize(("text", "label", "url", "title"), [
    ("Patient Dana Roe has breast cancer, started chemo cycle 2, tolerating well.", "Clinical notes",
     "https://ehr.example.org/patient/1042/chart", ""),
    ("Mr. Lee was diagnosed with type 2 diabetes, started metformin.", "Progress note", "", "OpenEMR"),
    ("Frau Weber ist schwanger, 12. SSW, Kontrolle in 4 Wochen.", "Befund", "",
     "Patientenakte - Praxis Dr. Kim"),
])
def test_a_clinicians_note_in_the_chart_passes(text, label, url, title):
    got = type_(text, label, url, title)
    assert not MINE & set(got.rules), got.rules


def test_the_same_note_in_a_chat_asks():
    got = type_("Patient Dana Roe has breast cancer, started chemo cycle 2.", "Message", CHAT)
    assert "confirm.gui.private-facts" in got.rules


@pytest.mark.parametrize("text", [
    # the same words in their other senses
    "Our new hire is on probation until March, then she gets the full benefits.",
    "Tom has a record for the fastest lap on this track.",
    "Tom made $200 at the bake sale for the school.",
    "Tom is dying of laughter at your meme.",
    "Ken has a breakdown of costs for the offsite.",
    "Tom is in the closet looking for the spare cables.",
    "Tom came out as the winner of the hackathon.",
    "Lena is transitioning to the new team next sprint.",
    "Castling is an illegal move when the king is in check.",
    "Eso es ilegal en la mayoría de los países.",
    "Juan está deprimido por el partido de ayer.",
    "Tom is gay-friendly? I mean his bar is.",
    "Tom is trans-atlantic this week, reach him by mail.",
    "Mark is a convicted fan of Star Wars.",
    "Lisa was written up in the newspaper for her charity work!",
    # a fact word that modifies a thing
    "Mike is a criminal defense attorney in Ohio.",
    "Jeff is gay pride parade organizer this year, sign up with him!",
    "Omar is Muslim Students Association president.",
    "Tom's credit score tool is live on staging.",
    "Priya's pregnancy app got 5 stars in the store.",
    "The Company has huge debts, according to the annual report.",
    "Tom's diagnosis of the bug was right: the cache was stale.",
    "The build is in serious trouble and Tom has the logs.",
    "Anna shared a great post about mental health at work.",
])
def test_near_misses_about_things_not_people_pass(text):
    assert disclosure(text) is None, text
    assert accusation(text) is None, text
    got = type_(text, "Post body", FORUM)
    assert not MINE & set(got.rules), got.rules


# -- several people's private facts, one a line -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Salaries 2025\nJohn Smith $85,000\nMary Jones $92,000\nPeter Brown $78,500",
    "Patients this week:\nAna Ruiz - type 2 diabetes\nJohn Smith - HIV positive\nMary Jones - depression",
    "Gehälter\nJonas Weber 64.000 €\nLea Fischer 71.500 €\nMaximilian Braun 58.000 €",
    "Background checks\nKevin Doyle: felony conviction 2016\nSara Lind: probation until 2026\n"
    "Omar Haddad: misdemeanor 2019",
])
def test_several_peoples_private_facts_in_a_message_block(text):
    assert roster(text) is not None
    got = type_(text, "Message", CHAT)
    assert got.decision is Decision.BLOCK, got.rules
    assert "block.gui.private-facts" in got.rules
    assert "text" in got.redact


@pytest.mark.parametrize("text", [
    "Invoice\nJohn Smith $85\nMary Jones $92\nPeter Brown $78",
    "Team lunch order\nJohn Smith - pasta\nMary Jones - salad\nPeter Brown - soup",
    "Speakers\nAna Ruiz - keynote\nJohn Smith - panel\nMary Jones - workshop",
])
def test_an_ordinary_list_of_people_passes(text):
    assert roster(text) is None
    got = type_(text, "Message", CHAT)
    assert not MINE & set(got.rules), got.rules


def test_a_list_of_patients_in_the_chart_passes():
    text = "Ward round\nAna Ruiz - type 2 diabetes\nJohn Smith - HIV positive\nMary Jones - depression"
    got = type_(text, "Nursing notes", "https://ehr.example.org/ward/3/notes")
    assert not MINE & set(got.rules), got.rules


# -- a file of people's private records, attached --------------------------------------------------------------


def attach(path: str, url: str = "https://mail.example.com/compose"):
    data: dict = {"type": "type", "text": path, "target": {"label": "File name"}}
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title="File Upload", app="Firefox"))


@pytest.mark.parametrize("path", [
    "/home/ann/patient-list.csv",
    "~/Downloads/background_checks.pdf",
    "C:\\Users\\ann\\Documents\\Gehaltsliste.pdf",
    "~/hr/candidates_home_addresses.csv",
    "~/Documentos/nominas marzo.xlsx",
])
def test_attaching_a_file_of_peoples_private_records_asks(path):
    got = attach(path)
    assert "confirm.gui.records-attached" in got.rules, got.rules
    assert got.decision is not Decision.ALLOW


@pytest.mark.parametrize("path", [
    "~/Documents/Q3_report.pdf",
    "~/Pictures/team_photo.jpg",
    "~/payroll/",
    "~/src/patients/app.py",
])
def test_attaching_other_files_passes(path):
    assert "confirm.gui.records-attached" not in attach(path).rules


def test_the_same_name_typed_into_a_message_or_on_a_chart_page_is_not_an_attachment():
    got = type_("please find patient-list.csv in the shared drive", "Message", CHAT)
    assert "confirm.gui.records-attached" not in got.rules
    assert "confirm.gui.records-attached" not in attach("/home/ann/patient-list.csv",
                                                         "https://ehr.example.org/patient/7/records").rules


# -- accusations in a public review ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Avoid this practice. Dr. Lee is under investigation for fraud and overbills everyone.",
    "This dentist is a thief, he charged me for work he never did.",
    "The contractor Mike Hale stole from us and disappeared with the deposit.",
    "Dr. Weber betrügt seine Patienten, finger weg!",
    "Ce notaire est un escroc, fuyez.",
    "El abogado Pérez es un estafador.",
    "O advogado é um golpista, não contratem.",
])
def test_a_crime_laid_at_a_named_door_in_a_review_asks_and_is_redacted(text):
    got = type_(text, "Your review", REVIEWS)
    assert got.decision is Decision.CONFIRM, got.rules
    assert "confirm.gui.accusation" in got.rules
    assert "text" in got.redact


@pytest.mark.parametrize("text", [
    "Messi stole the show last night, what a goal.",
    "The repair took three weeks and the dentist was always late. Two stars.",
    "Dr. Lee was rude and the wait was long, but the filling is fine.",
    "This app is a scam, it charged me twice.",
    "Police said the dentist is under investigation for fraud.",
])
def test_an_ordinary_bad_review_passes(text):
    got = type_(text, "Your review", REVIEWS)
    assert "confirm.gui.accusation" not in got.rules, got.rules


def test_an_accusation_in_a_private_message_is_not_this_rule():
    got = type_("This dentist is a thief, don't go there.", "Message", CHAT)
    assert "confirm.gui.accusation" not in got.rules, got.rules


# -- where it is typed -----------------------------------------------------------------------------------------


def test_a_terminal_or_a_search_box_is_not_a_message():
    text = "Mein Kollege Thomas hat Krebs, aber sag es niemandem."
    assert not MINE & set(type_(text, "Search", "https://www.example.com/").rules)
    shell = GATE.assess(action_from_dict({"type": "type", "text": "echo 'Tom is on probation'"}),
                        Observation(app="gnome-terminal", window_title="Terminal"))
    assert not MINE & set(shell.rules), shell.rules


def test_a_note_field_goes_with_what_it_is_attached_to_but_a_notes_app_is_ones_own():
    text = "Ken was put on a PIP last week, keep it quiet."
    assert "confirm.gui.private-facts" in type_(text, "Add a note", "https://pay.example.com/send").rules
    own = GATE.assess(action_from_dict({"type": "type", "text": text}), Observation(app="Notes", window_title="Notes"))
    assert not MINE & set(own.rules), own.rules


def test_a_chat_window_without_a_field_label_asks():
    got = GATE.assess(action_from_dict({"type": "type", "text": "Ken was put on a PIP last week, keep it quiet."}),
                      Observation(url="https://chat.example.com/messages/ann"))
    assert "confirm.gui.private-facts" in got.rules, got.rules


# -- ordinary messages: none of these fires ---------------------------------------------------------------------

ORDINARY = [
    "Can we move the design review to Thursday? Tom has the slides.",
    "Happy birthday Sarah! Hope you have a great day.",
    "Maria is out sick today, she'll be back tomorrow.",
    "Tom is on vacation until the 12th, ping Priya instead.",
    "Lena just had her baby! Mother and daughter are doing well.",
    "Congrats to Ken on the promotion, well deserved.",
    "Dana's flight lands at 6, can someone pick her up?",
    "The candidate has great references and five years of Go experience.",
    "The tenant in 4B asked about the broken heater, can you send someone?",
    "Marco is moving to the Berlin office next month.",
    "Anna is Jewish, so let's avoid scheduling the offsite on Yom Kippur.",
    "Please review Ahmed's pull request before the release.",
    "Dave is leading the migration, ask him about the database.",
    "I'm feeling much better, thanks for the soup!",
    "My doctor says I should rest this week, so I'll be offline.",
    "Our team hit the quarterly target, great job everyone.",
    "Jonas hat morgen frei, bitte frag Lea.",
    "Thomas ist heute im Homeoffice.",
    "Marie est en réunion jusqu'à 15h.",
    "Ma collègue part en congé demain.",
    "Juan está de vacaciones hasta el lunes.",
    "Mi vecina me regaló tomates de su huerto.",
    "A Maria está em reunião, liga mais tarde.",
    "O Pedro vai apresentar o projeto amanhã.",
    "Sarah came out of the meeting with good news about the budget.",
    "Tom was fired up about the new roadmap!",
    "Lisa got a warning light on her car dashboard, she'll be late.",
    "Ken was arrested by the beauty of the sunset, he says (photos attached).",
    "The server was charged with too many requests and fell over.",
    "Priya's cancer research grant was approved!",
    "Mark's talk on debt refactoring was great.",
    "Our landlord fixed the leak within a day, very responsive.",
    "Dr. Lee was great with my kids, highly recommend.",
    "The contractor finished on time and cleaned up after.",
    "Can you send the salary bands for the new roles to HR?",
    "Who is on call this weekend? Tom or Dana?",
    "Priya is pregnant with ideas for the next sprint, as always.",
    "The police said the road will be closed until noon.",
    "Reminder: flu shots are available in the lobby on Friday.",
    "Thanks Maria, the report looks good. Ship it.",
]


@pytest.mark.parametrize("text", ORDINARY)
@pytest.mark.parametrize(("label", "url"), [("Message", CHAT), ("Post body", FORUM), ("Your review", REVIEWS)])
def test_ordinary_messages_pass(text, label, url):
    got = type_(text, label, url)
    assert not MINE & set(got.rules), (text, got.rules)


# -- the vocabulary and its prefilter ---------------------------------------------------------------------------


def test_every_list_entry_has_a_prefilter():
    """Each entry of resources/privacy.toml has the word beginnings its parse requires: a text without any of
    them is never searched with it."""
    for lst in (_VOCAB.facts, _VOCAB.nouns, _VOCAB.accuse):
        assert not lst.always, [lst.entries[i].pattern.pattern[:60] for i in lst.always]
    assert {e.category for e in _VOCAB.facts.entries} == set(CATEGORIES)


def _unfiltered():
    def every(lst: _List) -> _List:
        return _List.of(tuple(e._replace(keys=None) for e in lst.entries))
    return dataclasses.replace(_VOCAB, facts=every(_VOCAB.facts), nouns=every(_VOCAB.nouns),
                               accuse=every(_VOCAB.accuse))


def test_the_prefilter_never_changes_a_result():
    whole = _unfiltered()
    long = " ".join(ORDINARY) + " " + TOLD[2][0] + " " + " ".join(ORDINARY)
    texts = [t for t, _ in TOLD] + ORDINARY + [long, "Tom is an ex-con.", "Sara ist HIV-positiv."]
    for text in texts:
        assert disclosure(text) == disclosure(text, whole), text
        assert accusation(text) == accusation(text, whole), text
    assert disclosure(long) is not None


def test_a_vocabulary_without_a_category_is_refused():
    from importlib import resources

    from gate.privacy import load

    text = resources.files("resources").joinpath("privacy.toml").read_text("utf-8")
    with pytest.raises(ValueError, match="religion"):
        load(text.replace("[facts.religion]", "[facts.faith]"))


@pytest.mark.parametrize("text", [
    "My neighbour Tom told me in confidence he's starting chemo next month",
    "Ask Priya, but she's on antidepressants since the divorce",
])
def test_a_pronouns_contraction_is_read_as_its_verb(text):
    got = disclosure(text)
    assert got is not None and got.category == "health", text


def test_a_contraction_about_oneself_or_a_thing_says_nothing():
    assert disclosure("She's been great this week, my sister is visiting on Friday") is None
    assert disclosure("It's starting chemo-free trials next year, the clinic said") is None


def test_a_note_that_starts_with_the_relation_and_a_name_in_brackets_names_someone():
    got = disclosure("Handover note: tenant in 2A (Marta Lopez) is 2 months behind on rent")
    assert got is not None and got.category == "money"
    assert disclosure("Handover note: the boiler in 2A is 2 months behind on its service") is None


def test_a_fact_joined_to_a_first_predicate_is_still_said_of_the_person():
    assert accusation("Avoid this garage, Mr. Grant overcharged us and is under investigation for fraud") is not None
    assert disclosure("My neighbour Lisa moved out last week and is in rehab now") is not None
    assert accusation("I went to the hearing and the case is under investigation for months") is None


# -- a public office's holder accused in a post ----------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "BREAKING: sources say the governor is addicted to cocaine and his staff hide it.",
    "Our mayor is a crook who takes bribes from developers.",
    "Der Bürgermeister ist heimlich drogensüchtig, das wissen alle.",
    "Le maire est accro à la cocaïne, partagez.",
])
def test_a_crime_or_drug_use_laid_at_an_office_holders_door_asks(text):
    got = type_(text, "What's happening?", "https://social.example.com/home")
    assert "confirm.gui.accusation" in got.rules, got.rules


@pytest.mark.parametrize("text", [
    "The president was diagnosed with covid, the press office said today.",
    "Our mayor is using the new bike lanes every morning!",
    "The senator is hosting a town hall on opioid addiction on Friday.",
])
def test_news_and_ordinary_posts_about_office_holders_pass(text):
    got = type_(text, "What's happening?", "https://social.example.com/home")
    assert "confirm.gui.accusation" not in got.rules, got.rules
