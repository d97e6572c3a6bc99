"""German cue words and heading names: the general signals of meaning, headings and narration."""

from mem.extract.cues import Cues

CUES = Cues(
    rules={
        "task": (r"^(?:TODO|Offen|Nächste\s+Schritte?)\s*:",),
        "decision": (
            r"^(?:Entscheidung|Lösung)\s*:",
            r"\b(?:behoben|gelöst),?\s+(?:durch|indem)\b",
        ),
        "lesson": (
            r"^(?:Ursache|Grund|Problem)\s*:",
            # as English "the problem was", "it was just a timing issue"
            (
                r"\b(?:das\s+(?:eigentliche\s+)?problem|die\s+(?:eigentliche\s+)?ursache)\s+(?:ist|war"
                r"|liegt)\b(?!(?:\s+\w+){0,2}\s+(?:noch|behoben|gelöst)\b)"
            ),
            # (a kind said with it: "nur ein Timing-Problem", not "nur ein Problem, wenn…")
            r"\b(?:war|ist)\s+(?:nur|bloß|lediglich)\s+ein\s+[\w-]+(?:problem|fehler)\b",
        ),
        "warning": (r"^(?:Achtung|Warnung|Hinweis)\s*:",),
        # as English reads "we prefer" and "this project uses"
        "preference": (r"\b(?:ich|wir)\s+(?:bevorzuge|bevorzugen)\b",),
        "convention": (
            (
                r"\b(?:dieses|das|unser)\s+(?:projekt|repo(?:sitory)?|team)\s+(?:verwendet|nutzt"
                r"|benutzt|folgt|setzt\s+auf|basiert\s+auf)\b"
            ),
        ),
    },
    lead_ins={
        "task": (r"^(?:offen|todo|nächster\s+schritt)\s*:",),
        "lesson": (r"^(?:ursache|grund|problem|fehler)\s*:",),
        "decision": (r"^(?:lösung|fix|änderung|entscheidung)\s*:",),
    },
    sections={
        "task": (
            r"(?:nächste\s+)?schritte",
            r"empfehlungen?",
            r"(?:offene\s+)?(?:punkte|aufgaben)",
            r"todos?",
            r"to-?dos?",
            r"verbesserungs\w*",
        ),
        "lesson": (
            r"(?:gefundene\s+)?(?:probleme?|fehler|bugs?)",
            r"ursachen?",
            r"(?:kritische\s+)?(?:probleme|fehler)",
        ),
        "warning": (r"hinweise?", r"risiken", r"bekannte\s+probleme", r"einschränkungen"),
        "decision": (
            r"(?:[\w-]+\s+){0,3}entscheidungen?(?:\s+[\w-]+){0,4}",
            r"lösung(?:en)?",
            r"änderungen",
        ),
        "convention": (
            r"konventionen?",
            r"regeln",
            r"anforderungen",
            r"erwartetes\s+verhalten",
        ),
    },
    introducers={},
    next_steps=(r"nächste\s+schritte", r"empfohlene\s+schritte"),
    narration=(
        (
            r"^(?:lass\s+mich|ich\s+(?:werde|schaue|prüfe|sehe|lese)|jetzt\s+(?:habe|werde)\s+ich"
            r"|zuerst|nun|okay|gut|perfekt|hier\s+(?:ist|sind))\b"
        ),
    ),
    general=(),
    specific=(),
    note_about_self=(),
    decided_in_passing=(),
    user_preference=(
        (
            # "wir wollen jetzt die Tests ausführen" is the work at hand, not a preference
            r"\b(?:ich\s+(?:möchte|will|bevorzuge)|wir\s+bevorzugen"
            r"|bitte\s+(?:immer|nie|nicht))\b"
        ),
    ),
    user_fact=(),
    why_question=(r"\bwarum\b|\bwas\s+ist\s+(?:schief|falsch)\b",),
    outcome=(
        r"^(?:ich\s+habe|wir\s+haben)\s+(?:\S+\s+){0,6}?(?:behoben|hinzugefügt|geändert|aktualisiert|entfernt)\b",
    ),
    intent=(
        (
            r"^(?:(?:jetzt|ok|gut|verstanden|alles\s+klar)[,.!]?\s+){0,2}(?:ich\s+(?:werde|will)"
            r"|lass\s+mich)\s+(?=.*\b(?:ändern|anpassen|beheben|korrigieren|hinzufügen|entfernen"
            r"|aktualisieren|erstellen|umbenennen|ersetzen|vereinfachen)\b)"
        ),
    ),
    diagnosis=(r"\b(?:weil|fehlt|existiert\s+nicht|nicht\s+unterstützt)\b",),
    task_labels=(r"todo", r"offen"),
    meaning={
        "known": (
            (
                r"\b(?:bereits\s+(?:vorher|vorhanden\w*|bestehend\w*)|vorbestehend\w*"
                r"|(?:auch|ebenfalls)\s+(?:auf|in)\s+(?:`x+`|main|master)"
                r"|nicht\s+(?:durch|von)\s+(?:meine|diese|unsere)\w*\s+(?:\w+\s+)?(?:Änderung|PR|Commit)"
                r"|unabhängig\s+von\s+(?:meiner|dieser|unserer)\s+Änderung)"
            ),
        ),
        "open": (
            (
                r"\b(?:noch\s+(?:nicht|offen|zu)|offen|ausstehend|sollte\w*|muss\s+noch|fehlt\s+noch"
                r"|später|nicht\s+committ\w*)\b"
            ),
        ),
        "cause": (
            (r"\b(?:weil|da\s+(?:die|der|das|es)|wegen|aufgrund|verursach\w*|führt\w*\s+zu)\b"),
            r"[,;:—–]\s*(?:sonst|andernfalls)\b",
            r"\b(?:deshalb|deswegen|daher)\b",
        ),
        "failure": (
            (
                r"\b(?:fehl\w*|falsch\w*|kaputt|existiert\s+nicht|nicht\s+(?:definiert|unterstützt|gefunden"
                r"|vorhanden)|veraltet\w*|leer|unsinnig\w*|problem\w*|bug|typo|tippfehler|undefiniert\w*"
                r"|doppelt\w*|inkonsisten\w*"
                # a verb negated, as English "doesn't", "isn't": "akzeptiert keine Optionen"
                r"|kein(?:e|en|er|em|es)?|nicht|nie|niemals)\b"
            ),
        ),
        "choice": (
            (
                r"\b(?:statt|anstatt|anstelle|stattdessen|lieber|einfacher|entschieden|gewählt"
                r"|zurückgesetzt|verschoben|beibehalten)\b"
            ),
        ),
        "change": (
            (
                r"^(?:\S+\s+){0,3}?(?:hinzugefügt|entfernt|geändert|aktualisiert|umbenannt|behoben"
                r"|implementiert|erstellt|ersetzt|verschoben|migriert|umgestellt)\b"
            ),
        ),
    },
    obligation=(
        r"\b(?:nie(?:mals)?|immer|muss|müssen|darf\s+nicht|nicht\s+(?:mehr|verwenden))\b",
        # "Keine neuen Abhängigkeiten hinzufügen", "Nicht auf main pushen": do not
        r"^(?:bitte\s+)?(?:keine?[nmrs]?|nicht)\s+(?:\S+\s+){0,5}\w+(?:en|ern|eln)[.!]?$",
    ),
    offer=(r"^(?:soll\s+ich|möchtest\s+du|willst\s+du|wenn\s+du\s+(?:willst|möchtest))\b",),
    to_reader=(r"\b(?:du|dein\w*|bitte)\b",),
    hedge=(r"\b(?:vielleicht|wahrscheinlich|möglicherweise|eventuell|könnte\w*)\b",),
    request=(
        (
            r"^(?:bitte\s+)?(?:füge|erstelle|baue|implementiere|mache|behebe|aktualisiere"
            r"|entferne|ändere|schreibe|verschiebe|ersetze|zeige)\b"
        ),
    ),
    unfinished=(
        r"der|die|das|den|dem|des|ein|eine|einen|und|oder|mit|für|von|zu|auf|an|bei|dass|als",
        r"wie|entweder",
    ),
    option=(
        r"(?:option|variante|alternative|ansatz|vorschlag)\s+(?:[A-Z]|\d{1,2})",
        r"(?:[\w-]+\s+){0,2}(?:optionen|varianten|alternativen|ansätze)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)",
        r"mögliche\s+(?:lösungen|ursachen|gründe|fixes|ansätze)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)",
    ),
    reasons=(r"begründung|gründe|grund|warum|ursache",),
    checked=(r"tests?", r"testplan", r"überprüfung", r"prüfung", r"validierung"),
)
