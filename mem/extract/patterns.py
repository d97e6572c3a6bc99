"""Find what is worth keeping in agent prose: decisions, lessons, facts and tasks, by rule."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

MIN_CHARS = 15  # shorter lines are acknowledgements, headings, noise
MAX_CHARS = 300  # an extract is cut at a sentence end within this
RULE_WINDOW = 2 * MAX_CHARS  # how much of a sentence the rules read
WORD_CHAR = re.compile(r"\w")
LAST_WORD = re.compile(r"\w+\Z")


class Candidate(NamedTuple):
    """Something a careful person would keep, before dedup and storage."""

    category: str  # decisions | lessons | facts | tasks
    kind: str
    text: str
    is_next_step: bool = False  # a task listed under "Next steps" rather than left unfinished


def words(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(patterns), re.IGNORECASE)


# Each rule: (category, kind, pattern). The first rule that matches a sentence wins.
RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "tasks",
        "task",
        words(
            r"^(?:TODO|FIXME|Follow[- ]up|Pendente|A fazer)\b\s*[:\-]",
            r"^\[ \]\s",
            r"^next\s+steps?\s*:\s*\S",
            r"^(?:still\s+(?:need|needs|have)\s+to|remaining\s*:|left\s+to\s+do\s*:)",
            r"^(?:ainda\s+)?falta(?:m)?\s+(?:\w+r\b|fazer\b)",
            r"^pr[oó]ximo\s+passo\s*:\s*\S",
            r"\b(?:still|ainda)\s+(?:\S+\s+){0,3}(?:needs?|should|must|has\s+to|have\s+to"
            r"|precisa(?:m)?|deve(?:m)?)\b",
            r"\b(?:needs?|precisa(?:m)?)\s+(?:to\s+be|ser)\s+\w+",
            r"\bfalta(?:m)?\s+\w+r\b|\bfica\s+pendente\b",
            r"\bshould\s+(?:probably\s+)?(?:get|go|run|move|switch)\b",
            r"\b(?:still|ainda)\s+(?:uses?|usa(?:m)?|roda(?:m)?|runs?|holds?|calls?)\b",
            r"^(?:o|a|os|as|the)\s+[^,;:]{0,60}?\b(?:still|ainda)\s+(?:doesn't|does\s+not|isn't|is\s+not"
            r"|n[aã]o)\s+\w+(?<!do)\b",
        ),
    ),
    (
        "decisions",
        "decision",
        words(
            r"^(?:decision|decisão|decisao)\s*:",
            r"\b(?:we|i|team|they)\s+(?:have\s+)?(?:decided|chose|opted|settled|picked|agreed)\b",
            r"\bdecided\s+(?:to\s+(?:use|keep|go|switch|move|adopt|drop|replace|store|stay)|on"
            r"|against)\b",
            r"\b(?:chose|choosing|picked|prefer(?:red)?)\s+\S+(?:\s+\S+){0,3}\s+over\s+\S",
            r"^(?:chose|picked|switched|opted|adopted|standardi[sz]ed\s+on)\b",
            r"^(?:kept|pinned|made|replaced|moved|dropped|used|split|wrapped|preferred|"
            r"troquei|recriei|tirei|preferi|mantive|usei|fixei|movi|substitu[ií])\b.*\b(?:so\s+that|"
            r"so|because|instead\s+of|rather\s+than|since|to\s+avoid|to\s+keep|porque|pra|para|"
            r"no\s+lugar|em\s+vez)\b",
            r"\b(?:went|going|go)\s+with\b",
            r"\b(?:stayed|stuck|staying|sticking)\s+with\b",
            r"\b(?:use|used|using|chose|kept|went\s+with|prefer(?:red)?|opted\s+for|picked)\b"
            r".*\b(?:rather\s+than|in\s+favou?r\s+of)\b",
            r"^(?:i|we)\s+(?:kept|made|switched|replaced|moved|pinned|preferred|used)\b.*\b(?:instead"
            r"|rather|so|because|over|since)\b",
            r"^(?:kept|preferi(?:mos)?|mantive(?:mos)?)\b",
            r"^(?:i|we)\s+\w+ed\b.*\brather\s+than\b",
            r"^going\s+forward\b|\bdaqui\s+(?:pra|para)\s+frente\b",
            r"^(?:we(?:'re|\s+are)|i'm|i\s+am)\s+\w+ing\b.*\b(?:rather\s+than|instead\s+of)\b",
            r"^(?:\w+ed|made|kept|went|chose|built|wrote|set|put|left)\b.*\b(?:instead\s+of|rather\s+than)\b",
            r"\b(?:a\s+escolha|a\s+decis[aã]o)\s+foi\b|\bthe\s+(?:choice|decision)\s+(?:was|is)\b",
            r"^replaced\b.*\bwith\b",
            r"^(?:trocamos|troquei|substitu[ií]mos|substitu[ií]|migramos|migrei)\b",
            r"\bwe\s+kept\b.*\b(?:because|since|as)\b",
            r"\b(?:em\s+vez\s+de|ao\s+inv[eé]s\s+de|no\s+lugar\s+de)\b",
            r"\b(?:ficamos|fiquei|mantivemos|mantive)\s+com\b",
            r"\bsettled\s+on\b",
            r"\bopted\s+(?:for|to)\b",
            r"\b(?:we|i)(?:'ll|\s+will)\s+use\b",
            r"(?:^|\b(?:we|i|to|will|'ll)\s+)use\s+\S+(?:\s+\S+){0,4}\s+instead\s+of\b",
            r"\bswitch(?:ed|ing)\s+(?:from\s+\S+(?:\s+\S+){0,3}\s+)?to\b",
            r"\binstead\s+of\b.*\bbecause\b",
            r"\b(?:decidimos|decidi|escolhemos|escolhi|optamos|optei|adotamos|ficou\s+decidido)\b",
            r"\bvamos\s+(?:usar|manter|adotar|trocar|seguir)\b",
            r"\b(?:usaremos|manteremos|adotaremos)\b",
        ),
    ),
    (
        "facts",
        "convention",
        words(
            r"^(?:always|never|sempre|nunca)\b",
            r"\byou\s+(?:said|told\s+me|mentioned|asked)\b.*\b(?:want|prefer|like|always|never)\b",
            r"^we\s+(?:use|profile|deploy|test|build|write|run|ship|keep|pin|store)\b",
            r"^per\s+(?:the\s+)?(?:repo|project|team)(?:'s)?\b|\baccording\s+to\s+(?:the\s+)?"
            r"(?:contributing|readme|style\s+guide)\b",
            r"\bn[aã]o\s+devem?\s+ser\b|\bmust\s+not\s+be\b|\bshould\s+never\b",
            r"\bseguem?\s+o\s+(?:estilo|padr[aã]o)\b|\bfollows?\s+the\s+\w+\s+style\b",
            r"\b(?:this|este|esse)\s+(?:project|projeto|codebase|repo(?:sitory)?|reposit[oó]rio)"
            r"\s+(?:uses|usa)\b",
            r"^(?:every|all|each|tod[oa]s?)\s+\S+(?:\s+\S+){0,3}\s+(?:in\s+this|here|aqui|neste|"
            r"nesta|must|should|precisa|deve|passa|goes|go|exposes?|uses?|usa)\b",
        ),
    ),
    (
        "lessons",
        "warning",
        words(
            r"^(?:warning|careful|beware|cuidado|atenção|atencao|aviso)\s*[:!]",
            r"\b(?:watch out|be careful|never\s+\w+\s+without|do not forget|don't forget)\b",
        ),
    ),
    (
        "lessons",
        "lesson",
        words(
            r"^(?:lesson(?:s)?(?: learned)?|gotcha|note|important|caveat|li[cç][aã]o|nota"
            r"|importante)\s*:",
            r"\b(?:root\s+cause|the\s+(?:real\s+)?(?:problem|issue|bug|culprit)\s+(?:was|is))\b",
            r"\bturn(?:s|ed)\s+out\b",
            r"\b(?:we|i)\s+(?:learned|learnt|found out|discovered|realized|realised)\b",
            r"\bthe\s+fix\s+(?:was|is)\b",
            r"\bwas\s+caused\s+by\b|\bbecause\s+of\s+a\b",
            r"\bcame\s+from\b|\bstem(?:s|med)?\s+from\b",
            # "The NaNs come from …" names a cause; "That is where it comes from" explains one.
            r"^(?!(?:those|these|that|this|it|they|which)\b)(?:(?!\bwhere\b).)*\bcomes?\s+from\b",
            r"\bdid\s+nothing\b|\bhad\s+no\s+effect\b|\bn[aã]o\s+fazia\s+nada\b",
            r"\bo\s+culpado\s+(?:era|foi)\b|\bthe\s+culprit\b",
            r"\b(?:isn't|is\s+not|wasn't|was\s+not)\s+enough\b|\bn[aã]o\s+basta\b",
            r"\bthe\s+(?:hot\s*spot|bottleneck|slow\s+part)\s+(?:was|is)\b",
            r"\bme\s+pegou\b|\b(?:bit|tripped(?:\s+up)?)\s+(?:me|us)\b",
            r"\b\w+(?:avam?|iam?)\b.*\bporque\b",
            r"\b(?:didn't|did\s+not|wasn't|was\s+not|weren't|stuck|dropped|jumped|looked|lost|"
            r"leaked|timed\s+out|duplicated|n[aã]o\s+\w+(?:ava|ia)m?|nunca\s+\w+(?:ava|ia)m?|travava|"
            r"sumiam?|custava)\b.*\b(?:because|porque|since|as\s+soon\s+as|when)\b",
            r"\b(?:same|the\s+real)\s+cause\b|\bcaused\b",
            r"\b(?:the\s+reason\s+(?:was|is)|was\s+due\s+to|is\s+due\s+to|it\s+was\s+because)\b",
            r"\bthe\s+(?:culprit|catch|trick|gotcha)\s+(?:was|is)\b",
            r"\b(?:only|doesn't|does\s+not|won't)\s+work(?:s)?\s+(?:if|when|unless|with)\b",
            r"\b(?:vinham?|veio|vieram)\s+d[oae]s?\b|\bpor\s+causa\s+d[oae]s?\b",
            r"^the\s+(?:\S+\s+){0,4}(?:failure|crash|error|bug|jitter|mismatch|flak(?:e|iness)|hang|leak"
            r"|slowdown|timeout|regression|outage)\s+(?:was|came|happened|is)\b",
            r"\bnever\s+\w+ed\b.*\b(?:because|since)\b",
            r"\b(?:era|foi)\s+causad[oa]\b|\bo\s+motivo\s+(?:era|foi|é)\b",
            r"\b(?:fails?|failed|failing|breaks?|broke|crashe[sd]|hangs?)\b.*\b(?:because|since)\b",
            r"\b(?:only\s+happens|happens\s+only|only\s+fails|fails\s+only)\b",
            r"^it\s+was\s+(?:the|a|an)\b",
            r"\b(?:was|were)\s+(?:\S+\s+){0,3}because\b",
            r"^(?:the|a|an|our|this|that|its?)\s+(?:\S+\s+){0,6}?\w{3,}ed\b[^;]*\bbecause\b",
            r"\b(?:aprendemos|aprendi|descobrimos|descobri|percebemos)\b",
            r"\b(?:a\s+causa(?:\s+raiz)?|o\s+problema|o\s+bug|o\s+erro)\s+(?:era|foi|é|estava)\b",
            r"\b(?:falhava|falha|quebrava|quebra|travava)\b.*\bporque\b",
            r"\bs[oó]\s+acontece\b|\bacontece\s+s[oó]\b",
            r"\bna\s+verdade\b.*\b(?:era|é)\b",
        ),
    ),
    (
        "facts",
        "preference",
        words(
            r"\b(?:the\s+)?user\s+(?:prefers|wants|likes|asked\s+(?:for|that|to)|dislikes)\b",
            r"\b(?:i|we|you)\s+prefer\b",
            r"^you\s+(?:want|wanted|prefer|like|asked(?:\s+me)?\s+to|asked\s+for)\b",
            r"\b(?:o\s+usuário|o\s+usuario|a\s+usuária|o\s+cliente)\s+(?:prefere|quer|gosta)\b",
            r"\bprefiro\b|\bpreferimos\b",
        ),
    ),
    (
        "facts",
        "convention",
        words(
            r"\b(?:this|the)\s+(?:codebase|project|repo(?:sitory)?|team)\s+(?:uses|follows|keeps"
            r"|prefers|requires|expects|has|pins)\b",
            r"\bconvention\b",
            r"^(?:always|never)\s+\w+",
            r"\b(?:make\s+sure\s+(?:to\s+)?|should\s+|must\s+)(?:always|never)\s+\w+",
            r"\bwe\s+(?:always|never)\b",
            r"\b(?:here|in\s+this\s+(?:repo|project|codebase|app)|our|aqui|neste|nesta|nosso|nossa)\b"
            r".*\b(?:always|never|sempre|nunca)\b",
            r"\b(?:always|never|sempre|nunca)\b.*\b(?:here|in\s+this\s+(?:repo|project|codebase|app)"
            r"|aqui|neste|nesta)\b",
            r"\b(?:here|aqui)\s+(?:always|never|sempre|nunca)\b",
            r"^(?:remember|don't\s+forget)\s+to\b",
            r"^(?:reminder|convention|rule|policy|lembrete|regra|norma)\s*:",
            r"\bmake\s+sure\s+(?:to|that|you)\b",
            r"\bin\s+this\s+(?:repo(?:sitory)?|project|codebase|cluster|firmware|team|monorepo)\b"
            r"|\b(?:neste|nesse)\s+(?:repo(?:sit[oó]rio)?|projeto|cluster|firmware|time|monorepo)\b",
            r"\b(?:must|should)\s+always\b",
            r"\b(?:o\s+projeto|este\s+projeto|o\s+repositório|o\s+time|a\s+equipe)\s+"
            r"(?:usa|segue|utiliza|exige)\b",
            r"\bconven[cç][aã]o\b",
            r"^(?:sempre|nunca)\s+\w+",
            r"\b(?:sempre|nunca)\s+(?:rode|rodar|use|usar|faça|fazer|execute|executar|commite"
            r"|edite)\b",
            r"\b(?:e|mas)\s+nunca\b|\b(?:é|são)\s+sempre\b",
            r"\bcertifique-se\b|^lembre(?:-se)?\s+de\b|\bn[aã]o\s+esque[cç]a\s+de\b",
        ),
    ),
    (
        "facts",
        "pattern",
        words(
            r"\bthe\s+pattern\s+(?:is|here)\b",
            r"\bfollows?\s+the\s+\w+(?:\s+\w+)?\s+pattern\b",
            r"\b(?:lives|live|are\s+kept|is\s+kept|are\s+stored|is\s+stored)\s+in\s+`",
        ),
    ),
)

# What a person states in a prompt that is worth keeping: how they want things done.
USER_FACTS = words(
    r"\bplease\s+(?:keep|always|never|don't|do\s+not|use|stick)\b",
    r"^(?:keep|stick\s+with|use)\b|\bi\s+always\b|\bwe(?:'re|\s+are)\s+not\s+moving\b",
    r"\b(?:i|we)\s+(?:want|need|like|prefer|would\s+like|'d\s+like)\b(?!\s+you\b)",
    r"\bwe\s+(?:don't|do\s+not|never|always|only|target|use|keep|ship)\b",
    r"\b(?:keep|leave)\s+(?:all|every|the)\b",
    r"\bthat's\s+how\b|\bthe\s+rest\s+of\s+the\s+(?:app|code|codebase)\b",
    r"\b(?:n[aã]o\s+(?:mexe|mexa|use|usa|mude|troque)|prefiro|quero|queremos|usamos|"
    r"mantenha|sempre|nunca)\b",
)

# Sentences about what the agent is doing right now, not what it learned or decided.
NARRATION = words(
    r"^(?:let me|let's|i'll|i will|i'm going to|i am going to|now i|next,? i|first,? i|"
    r"i need to|i should|i can|i'm|i am|okay|ok|great|perfect|done|sure|vou|deixe-me|agora vou)\b",
    r"\b(?:decided|decidi)\s+to\s+(?:look|check|start|read|run|try|first|explore|investigate|"
    r"open|see|begin|search|inspect|review)\b",
    r"\b(?:decidi|resolvi)\s+(?:primeiro\s+)?(?:olhar|verificar|checar|ver|investigar|começar"
    r"|ler|rodar|abrir|procurar|confirmar|testar|medir|reproduzir)\b",
    r"\bdecided\s+to\s+(?:first\s+)?(?:confirm|verify|reproduce|measure|test|double-check)\b",
    r"\b(?:a\s+tarefa\s+est[aá]\s+conclu[ií]da|the\s+task\s+is\s+(?:done|complete))\b",
    r"\b(?:wants|asked|needs)\s+me\s+to\b|\bquer\s+que\s+eu\b",
    r"\b(?:unless\s+you|a\s+n[aã]o\s+ser\s+que\s+voc[eê]|se\s+voc[eê])\b",
    r"\b(?:could\s+also|you\s+could|you\s+might|voc[eê]\s+poderia|daria\s+para|d[aá]\s+para"
    r"|alternatively|one\s+option|another\s+option|if\s+you\s+(?:want|prefer|'d\s+rather))\b",
    r"\b(?:until|at[eé])\s+(?:you|voc[eê])\s+(?:reply|answer|respond|confirm|responder|confirmar)\b",
    r"\bdecided\s+to\s+(?:re-?run|wait|pause|ask)\b",
    r"\b(?:mudou|mudaram|changed|touched)\s+(?:só|only)\b",
    r"\b(?:for\s+now|for\s+this\s+run|temporarily|por\s+enquanto|por\s+ora|nesta\s+execução)\b",
)
# How a library or tool behaves in general, as an explanation would put it: true, but documentation,
# not memory of this project. Kept only when the sentence is anchored here (SPECIFIC).
GENERAL = words(
    r"\bby\s+default\b|\bdefaults?\s+to\b|\bpor\s+padr[aã]o\b",
    r"^note\s+that\b|^(?:observe|repare|note)\s+que\b",
    r"\b(?:o|a)\s+(?:certo|ideal|correto|recomendado)\s+(?:é|seria)\b"
    r"|\bthe\s+(?:right|correct|ideal|idiomatic|recommended|usual)\s+(?:way|thing|approach|fix)\b",
    r"^(?:in\s+general|generally|typically|usually|em\s+geral|geralmente|normalmente)\b",
    r"\ba\s+common\s+(?:pattern|approach|mistake|fix)\b|\bum\s+padr[aã]o\s+comum\b",
    r"\b(?:most\s+people|many\s+people|quase\s+todo\s+mundo|muita\s+gente)\b",
    r"\b(?:standard|textbook|well-known|classic)\s+(?:pattern|behaviou?r|approach|problem)\b|^background\b",
)
SPECIFIC = words(
    r"\b(?:we|i|our|us|here|this\s+(?:repo|project|codebase|app|service|team)|nós|nosso|nossa"
    r"|aqui|neste|nesta|eu|este\s+projeto)\b",
    r"\b(?:was|were|had|did|broke|failed|crashed|turned|caused|happened|started|stopped|changed"
    r"|foi|era|eram|tinha|fiz|fizemos|\w{3,}avam?)\b",
)
# A note about the agent's own run ("Note: I only ran the unit tests"): a label, but not memory.
NOTE_ABOUT_SELF = words(
    r"^(?:note|nota|important|importante|obs\.?)\s*:\s*(?:i\b|i'|i’|running|we're|eu\b|vou)",
    r"^(?:nota|importante|obs\.?)\s*:\s*(?:eu\s+)?(?:(?:só|não|nao)\s+)?\w+(?:ei|i)\b",
)
# "I'll use X instead of Y" opens like narration but records a choice.
DECIDED_IN_PASSING = words(
    r"^(?:i'll|i will|we'll|we will|i'm|we're|i am|we are)\s+(?:use|using|keep|keeping|switch"
    r"|switching|go|going)\b.*\b(?:instead\s+of|over|rather\s+than)\b",
    r"^(?:i'm|we're|i am|we are)\s+going\s+with\b",
)
BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s+)?")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[`*]?[A-ZÀ-Ý0-9])")


def sentences(text: str) -> list[str]:
    """Split prose at sentence ends, never inside `inline code` (`XCLAIM ... JUSTID`)."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"`[^`\n]*`", text)]
    cuts = [
        m
        for m in SENTENCE_END.finditer(text)
        if not any(start < m.start() < end for start, end in spans)
    ]
    parts, last = [], 0
    for m in cuts:
        parts.append(text[last : m.start()])
        last = m.end()
    parts.append(text[last:])
    return parts


def section(*names: str) -> re.Pattern[str]:
    """A heading (or a short `Title:` line) naming a section of a summary."""
    return re.compile(
        r"^(?:#+\s*)?\**\s*(?:" + "|".join(names) + r")(?:\s*\([^)]*\))?\s*\**\s*:?\s*\**$",
        re.IGNORECASE,
    )


# What the bullets and sentences under a heading are, when the heading says so.
SECTIONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        section(
            r"follow[- ]ups?",
            r"todo",
            r"to[- ]do",
            r"pending",
            r"not\s+done(?:\s+yet)?",
            r"left\s+for\s+later",
            r"open\s+items",
            r"pend[eê]ncias",
            r"pendente",
            r"a\s+fazer",
            r"fica\s+pendente",
            r"ainda\s+n[aã]o\s+feito",
            r"later",
            r"future\s+work",
            r"still\s+open",
            r"open\s+questions?",
            r"out\s+of\s+scope",
            r"remaining\s+work",
            r"next\s+pr",
        ),
        "tasks",
        "task",
    ),
    (
        section(
            r"why",
            r"root\s+cause",
            r"cause",
            r"what\s+went\s+wrong",
            r"what\s+was\s+wrong",
            r"diagnosis",
            r"findings",
            r"por\s+qu[eê]",
            r"causa(?:\s+raiz)?",
            r"o\s+que\s+(?:estava|deu)\s+errado",
            r"diagn[oó]stico",
        ),
        "lessons",
        "lesson",
    ),
    (
        section(
            r"known\s+issues",
            r"caveats?",
            r"gotchas?",
            r"heads[- ]up",
            r"warnings?",
            r"limitations?",
            r"risks?",
            r"problemas\s+conhecidos",
            r"limita[cç][oõ]es",
            r"riscos?",
            r"aten[cç][aã]o",
        ),
        "lessons",
        "warning",
    ),
    (
        section(r"(?:design\s+)?decisions?", r"approach", r"decis[oõ]es", r"abordagem"),
        "decisions",
        "decision",
    ),
    (
        section(
            r"conventions?",
            r"preferences?",
            r"notes?\s+for\s+next\s+time",
            r"conven[cç][oõ]es",
            r"prefer[eê]ncias",
        ),
        "facts",
        "convention",
    ),
)
# A lead-in that files the rest of its sentence.
LEAD_INS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        words(
            r"^(?:also\s+|still\s+|tamb[eé]m\s+)?(?:still\s+open|still\s+to\s+(?:do|look\s+at|check|fix)"
            r"|falta(?:m)?\s*:|not\s+(?:done|touched|tested|handled|fixed)|left\s+for\s+later|left\s+open"
            r"|pending"
            r"|follow[- ]up|fica\s+pendente|"
            r"pendente|ainda\s+n[aã]o)\b\s*:?",
            r"\bfic(?:ou|a)\s+(?:pendente|faltando)\b",
            r"^n[aã]o\s+(?:fiz|testei|implementei|cheguei|tratei|validei)\b",
            r"^n[aã]o\s+(?:mexi|toquei)\b.*\bainda\b",
            r"^i\s+(?:didn't|did\s+not|haven't|have\s+not)\s+(?:do|get\s+to|start|fix|test|handle|implement)"
            r"\w*\b(?!\s+(?:anything|nothing))",
            r"^i\s+(?:didn't|did\s+not|haven't|have\s+not)\s+(?:touch|change|update|look)\w*\b.*\byet\b",
            r"\b(?:haven't|have\s+not|not\s+yet)\s+started\b",
        ),
        "tasks",
        "task",
    ),
    (
        words(r"^(?:change|decision|approach|solution|mudan[cç]a|decis[aã]o|solu[cç][aã]o)\s*:"),
        "decisions",
        "decision",
    ),
    (
        words(
            r"^(?:heads[- ]up|fyi|caveat|known\s+issue)\s*:",
            r"^(?:cuidado|careful|watch\s+out|beware)\b[^:]{0,30}:",
        ),
        "lessons",
        "warning",
    ),
    (
        words(
            r"^(?:gotcha|lesson|caveat|detalhe|pegadinha|observa[cç][aã]o|obs)\b[^:]{0,30}:",
        ),
        "lessons",
        "lesson",
    ),
    (
        words(r"^(?:for\s+the\s+record|keep\s+in\s+mind\s+that|para\s+registro)\b"),
        "facts",
        "fact",
    ),
    (
        words(
            r"^(?:cause|causa|motivo)\s*:",
            r"^(?:why|por\s+qu[eê])\b[^:]{0,40}:",
            r"^what\s+(?:was\s+\w+|went\s+wrong|broke|happened)\s*:",
            r"^o\s+que\s+(?:estava\s+\w+|deu\s+errado|quebrou|aconteceu)\s*:",
        ),
        "lessons",
        "lesson",
    ),
)

NEXT_STEPS = words(
    r"^(?:#+\s*)?\**\s*(?:next\s+steps?|remaining(?:\s+work)?|still\s+to\s+do|unfinished|"
    r"follow[- ]ups?|pr[oó]ximos\s+passos|pend[eê]ncias|falta(?:m)?(?:\s+fazer)?)\s*\**\s*:?\s*\**$"
)


STACK_FRAME = re.compile(r"^at\s+[\w$.<>]+\s*\(.*\)$|^at\s+\S+:\d+")
# Source code outside a fence: declarations, box-drawn repo maps, statement endings.
CODE_LINE = re.compile(
    r"^(?:export|import|from\s+\S+\s+import|def|class|function|async\s+(?:function|def)|const|let"
    r"|var|return|public|private|protected|fn|func|package|#include|using)\b[^.!?]*$"
    r"|^@(?:param|returns?|throws|type|typedef|example|see)\b"
    r"|[│┃├└]|[;{]\s*$"
)
INLINE_CODE = re.compile(r"`[^`\n]+`")


def looks_like_output(line: str) -> bool:
    """Tell tool output, tracebacks, diffs, tables and code from prose."""
    stripped = line.strip()
    if not stripped:
        return False
    if line.startswith(("    ", "\t")) and not BULLET.match(line):
        return True  # indented code or a traceback frame
    if stripped.startswith(
        (
            "$ ",
            ">>> ",
            "+++ ",
            "--- ",
            "@@",
            "diff --git",
            "Traceback (",
            'File "',
            "E  ",
            "|",
            "```",
            "~~~",
            "#!",
            "==",
            "PASS",
            "FAIL",
            "ok ",
            "not ok",
        )
    ):
        return True
    if re.match(r"^[+-](?![-+\s]*$)\S", stripped) and not BULLET.match(line):
        return True  # a diff line
    if STACK_FRAME.match(stripped) or CODE_LINE.search(stripped):
        return True
    # Inline code counts as one word, so prose full of `identifiers` still reads as prose.
    prose = INLINE_CODE.sub("code", stripped)
    letters = sum(map(str.isalpha, prose))
    return letters < len(prose) * 0.5  # mostly symbols, paths, numbers


HEADING_MARK = "\x00"  # prefixes a heading among the units prose_units yields


def is_title_line(line: str) -> bool:
    """A short line that names what follows: `**Why:**`, `Known issues:`, `**What was wrong**`."""
    bare = line.strip("*_ ")
    if len(bare) > 40 or len(bare.split()) > 5:
        return False
    return bare.endswith(":") or (line.startswith(("**", "__")) and line.endswith(("**", "__")))


def prose_units(text: str) -> Iterator[tuple[str, bool]]:
    """Yield (unit, is_bullet) for the prose of a message: paragraphs' sentences and list items,
    skipping code fences, tool output and headings."""
    in_fence = False
    paragraph: list[str] = []

    def flush() -> Iterator[tuple[str, bool]]:
        if paragraph:
            joined = " ".join(part.strip() for part in paragraph)
            paragraph.clear()
            for sentence in sentences(joined):
                yield sentence, False

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            yield from flush()
            in_fence = not in_fence
            continue
        if in_fence or not stripped or looks_like_output(line):
            yield from flush()
            continue
        if stripped.startswith("#") or is_title_line(stripped):
            yield from flush()
            yield HEADING_MARK + stripped.lstrip("#").strip(), False
            continue
        if BULLET.match(line):
            yield from flush()
            # A bullet may hold several sentences; each is judged on its own.
            marker = BULLET.match(line)
            assert marker is not None
            first, *rest = sentences(line[marker.end() :].strip())
            yield line[: marker.end()] + first, True
            for sentence in rest:
                yield sentence, False
            continue
        paragraph.append(line)
    yield from flush()


def extract(text: str) -> Iterator[Candidate]:
    """Yield the candidates in one message's prose."""
    in_next_steps = False
    filed: tuple[str, str] | None = None  # the category a section heading gives what follows
    for unit, is_bullet in prose_units(text):
        if unit.startswith(HEADING_MARK):
            heading = clean(unit[1:])
            in_next_steps = bool(NEXT_STEPS.match(heading))
            filed = next(((c, k) for p, c, k in SECTIONS if p.match(heading)), None)
            continue
        bullet = BULLET.match(unit) if is_bullet else None
        body = clean(unit[bullet.end() :] if bullet else unit)
        if len(body) < MIN_CHARS:
            continue
        if bullet and bullet.group("box") == " ":
            yield Candidate("tasks", "task", cap(body))
            continue
        if bullet and bullet.group("box"):
            continue  # a ticked box is done, not memory
        if in_next_steps:
            yield Candidate("tasks", "task", cap(body), is_next_step=True)
            continue
        found = classify(body)
        if (
            found is None
            and filed is not None
            and not (NARRATION.search(body) or NOTE_ABOUT_SELF.search(body))
        ):
            found = Candidate(filed[0], filed[1], cap(body))
        if found is not None:
            yield found


def classify(sentence: str) -> Candidate | None:
    """Match one sentence against the rules; narration about the agent's own steps is skipped.

    Rules read only the start of a long sentence, about what an extract keeps of it: a cue far
    beyond that would not be in the extract, and a run-on line of log output (thousands of
    characters with no sentence end) would cost every rule a scan of all of it.
    """
    if sentence.rstrip().endswith(("?", ":")):
        return None  # a question to the person, or a line introducing what follows
    probe = sentence[:RULE_WINDOW]
    if WORD_CHAR.match(sentence, RULE_WINDOW):
        probe = LAST_WORD.sub("", probe)  # not half a word: "use" of "useful" is no cue
    # An explicit label ("Still open:", "Cause:") says what the sentence is, whatever follows.
    if NOTE_ABOUT_SELF.search(probe):
        return None
    for pattern, category, kind in LEAD_INS:
        if found := pattern.search(probe):
            if kind == "warning" and facts_rule(probe[found.end() :].strip()):
                return Candidate("facts", "convention", cap(sentence))  # "Heads-up: X lives in Y"
            return Candidate(category, kind, cap(sentence))
    if NARRATION.search(probe) and not DECIDED_IN_PASSING.search(probe):
        return None
    if GENERAL.search(probe) and not SPECIFIC.search(probe):
        return None
    for category, kind, pattern in RULES:
        if pattern.search(probe):
            text = sentence
            if category == "tasks":
                text = re.sub(
                    r"^(?:TODO|FIXME|Follow[- ]up|Pendente|A fazer|next\s+steps?"
                    r"|pr[oó]ximo\s+passo)\s*[:\-]\s*",
                    "",
                    text,
                    flags=re.IGNORECASE,
                )
            return Candidate(category, kind, cap(text))
    return None


def facts_rule(text: str) -> bool:
    """Whether a facts rule, and no earlier rule, claims the text."""
    for category, _, pattern in RULES:
        if pattern.search(text):
            return category == "facts"
    return False


def clean(text: str) -> str:
    """Flatten markdown emphasis and whitespace from a unit of prose."""
    text = re.sub(r"\*\*|__", "", text)
    return " ".join(text.split())


def cap(text: str) -> str:
    """Cut to MAX_CHARS at a sentence end (else at a word, with an ellipsis)."""
    if len(text) <= MAX_CHARS:
        return text
    window = text[:MAX_CHARS]
    ends = [match.end() for match in re.finditer(r"[.!?](?=\s|$)", window)]
    if ends and ends[-1] >= MIN_CHARS:
        return window[: ends[-1]]
    return window[: window.rfind(" ")].rstrip(",;:") + "…"


def user_facts(text: str) -> Iterator[Candidate]:
    """Yield the preferences and conventions a person states in a prompt."""
    for unit, is_bullet in prose_units(text):
        if unit.startswith(HEADING_MARK):
            continue
        bullet = BULLET.match(unit) if is_bullet else None
        body = clean(unit[bullet.end() :] if bullet else unit)
        if len(body) < MIN_CHARS or body.endswith("?"):
            continue
        found = classify(body)
        if found is not None and found.category == "facts":
            yield found
        elif USER_FACTS.search(body):
            yield Candidate("facts", "preference", cap(body))
