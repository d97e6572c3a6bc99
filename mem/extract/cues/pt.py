"""Portuguese cue words and heading names."""

from mem.extract.cues import Cues

CUES = Cues(
    rules={
        "task": (
            r"^(?:Pendente|A fazer)\b\s*[:\-]",
            r"^(?:ainda\s+)?falta(?:m)?\s+(?:\w+r\b|fazer\b)",
            r"^pr[oó]ximo\s+passo\s*:\s*\S",
            r"\bainda\s+(?:\S+\s+){0,3}(?:precisa(?:m)?|deve(?:m)?)\b",
            r"\bprecisa(?:m)?\s+ser\s+\w+",
            r"\bfalta(?:m)?\s+\w+r\b|\bfica\s+pendente\b",
            r"\bainda\s+(?:usa(?:m)?|roda(?:m)?)\b",
            r"^(?:o|a|os|as)\s+[^,;:]{0,60}?\bainda\s+n[aã]o\s+\w+",
        ),
        "decision": (
            r"^(?:decisão|decisao)\s*:",
            r"\b(?:corrigid[oa]s?|resolvid[oa]s?)\s+(?:ao|usando|trocando|mudando|movendo)\b",
            (
                r"^(?:troquei|recriei|tirei|preferi|mantive|usei|fixei|movi|substitu[ií])\b.*"
                r"\b(?:porque|pra|para|no\s+lugar|em\s+vez)\b"
            ),
            # A value changed on purpose: "Corrigimos o threshold de 60s para 200s".
            (
                r"^(?:corrigimos|corrigi|ajustamos|ajustei|aumentamos|aumentei|reduzimos|reduzi"
                r"|mudamos|mudei|alteramos|alterei)\b[^.;]{0,80}\bde\s+\S+\s+para\s+\S"
            ),
            r"^(?:preferi(?:mos)?|mantive(?:mos)?)\b",
            r"\bdaqui\s+(?:pra|para)\s+frente\b",
            r"\b(?:a\s+escolha|a\s+decis[aã]o)\s+foi\b",
            r"^(?:trocamos|troquei|substitu[ií]mos|substitu[ií]|migramos|migrei)\b",
            r"\b(?:em\s+vez\s+de|ao\s+inv[eé]s\s+de|no\s+lugar\s+de)\b",
            r"\b(?:ficamos|fiquei|mantivemos|mantive)\s+com\b",
            r"\b(?:decidimos|decidi|escolhemos|escolhi|optamos|optei|adotamos|ficou\s+decidido)\b",
            r"\bvamos\s+(?:usar|manter|adotar|trocar|seguir)\b",
            r"\b(?:usaremos|manteremos|adotaremos)\b",
        ),
        "rule": (
            r"^(?:sempre|nunca)\b",
            r"\bn[aã]o\s+devem?\s+ser\b",
            r"\bseguem?\s+o\s+(?:estilo|padr[aã]o)\b",
            r"\b(?:este|esse)\s+(?:projeto|reposit[oó]rio|repo)\s+usa\b",
            r"^tod[oa]s?\s+\S+(?:\s+\S+){0,3}\s+(?:aqui|neste|nesta|precisa|deve|passa|usa)\b",
        ),
        "warning": (r"^(?:cuidado|atenção|atencao|aviso)\s*[:!]",),
        "lesson": (
            r"^(?:li[cç][aã]o|nota|importante)\s*:",
            r"\bn[aã]o\s+fazia\s+nada\b",
            r"\bo\s+culpado\s+(?:era|foi)\b",
            r"\bn[aã]o\s+basta\b",
            r"\bme\s+pegou\b",
            r"\b\w+(?:avam?|iam?)\b.*\bporque\b",
            (
                r"\b(?:n[aã]o\s+\w+(?:ava|ia)m?|nunca\s+\w+(?:ava|ia)m?|travava|sumiam?|custava)\b.*"
                r"\b(?:porque|quando)\b"
            ),
            r"\b(?:vinham?|veio|vieram)\s+d[oae]s?\b|\bpor\s+causa\s+d[oae]s?\b",
            r"\b(?:era|foi)\s+causad[oa]\b|\bo\s+motivo\s+(?:era|foi|é)\b",
            r"\b(?:aprendemos|aprendi|descobrimos|descobri|percebemos)\b",
            r"\b(?:a\s+causa(?:\s+raiz)?|o\s+problema|o\s+bug|o\s+erro)\s+(?:era|foi|é|estava)\b",
            r"\b(?:falhava|falha|quebrava|quebra|travava)\b.*\bporque\b",
            r"\bs[oó]\s+acontece\b|\bacontece\s+s[oó]\b",
            r"\bna\s+verdade\b.*\b(?:era|é)\b",
        ),
        "preference": (
            r"\b(?:o\s+usuário|o\s+usuario|a\s+usuária|o\s+cliente)\s+(?:prefere|quer|gosta)\b",
            r"\bprefiro\b|\bpreferimos\b",
        ),
        "convention": (
            r"\b(?:aqui|neste|nesta|nosso|nossa)\b.*\b(?:sempre|nunca)\b",
            r"\b(?:sempre|nunca)\b.*\b(?:aqui|neste|nesta)\b",
            r"\baqui\s+(?:sempre|nunca)\b",
            r"^(?:lembrete|regra|norma)\s*:",
            r"\b(?:neste|nesse)\s+(?:repo(?:sit[oó]rio)?|projeto|cluster|firmware|time|monorepo)\b",
            (
                r"\b(?:o\s+projeto|este\s+projeto|o\s+repositório|o\s+time|a\s+equipe)\s+"
                r"(?:usa|segue|utiliza|exige)\b"
            ),
            r"\bconven[cç][aã]o\b",
            r"^(?:sempre|nunca)\s+\w+",
            (
                r"\b(?:sempre|nunca)\s+(?:rode|rodar|use|usar|faça|fazer|execute|executar|commite"
                r"|edite)\b"
            ),
            r"\b(?:e|mas)\s+nunca\b|\b(?:é|são)\s+sempre\b",
            r"\bcertifique-se\b|^lembre(?:-se)?\s+de\b|\bn[aã]o\s+esque[cç]a\s+de\b",
        ),
        "fact": (
            # A measured duration: "Synthesis leva 77s".
            (
                r"^\S+(?:\s+\S+){0,3}\s+(?:leva|levou|demora|demorou)\s+~?\d+(?:[.,]\d+)?\s*"
                r"(?:ms|s|seg|segundos|min|minutos)\b"
            ),
        ),
    },
    lead_ins={
        "task": (
            (
                r"^(?:tamb[eé]m\s+)?(?:falta(?:m)?\s*:|fica\s+pendente|pendente|ainda\s+n[aã]o"
                r"|pr[oó]ximo\s+passo)\b\s*:?"
            ),
            r"\bfic(?:ou|a)\s+(?:pendente|faltando)\b",
            r"^n[aã]o\s+(?:fiz|testei|implementei|cheguei|tratei|validei)\b",
            r"^n[aã]o\s+(?:mexi|toquei)\b.*\bainda\b",
        ),
        "decision": (r"^(?:mudan[cç]a|decis[aã]o|solu[cç][aã]o|corre[cç][aã]o)\s*:",),
        "warning": (r"^cuidado\b[^:]{0,30}:",),
        "lesson": (
            r"^(?:detalhe|pegadinha|observa[cç][aã]o|obs)\b[^:]{0,30}:",
            r"^(?:causa|motivo|problema|bug)\s*:",
            r"^por\s+qu[eê]\b[^:]{0,40}:",
            r"^o\s+que\s+(?:estava\s+\w+|deu\s+errado|quebrou|aconteceu)\s*:",
        ),
        "fact": (r"^para\s+registro\b", r"^(?:dica|lembrete)\s*:"),
    },
    sections={
        "task": (
            r"pend[eê]ncias",
            r"pendente",
            r"a\s+fazer",
            r"fica\s+pendente",
            r"ainda\s+n[aã]o\s+feito",
            r"pr[oó]ximos?\s+passos?",
            r"recomenda[cç][oõ]es",
        ),
        "lesson": (
            r"por\s+qu[eê]",
            r"causa(?:\s+raiz)?",
            r"o\s+que\s+(?:estava|deu)\s+errado",
            r"diagn[oó]stico",
            r"o\s+problema\b[^:]{0,40}",
            r"problemas?(?:\s+encontrad[oa]s?)?",
            r"erros?\s+e\s+corre[cç][oõ]es",
            r"por\s+que\s+\S+(?:\s+\S+){0,6}\??",
        ),
        "warning": (
            r"problemas\s+conhecidos",
            r"limita[cç][oõ]es",
            r"riscos?",
            r"aten[cç][aã]o",
        ),
        "decision": (
            r"(?:[\w-]+\s+){0,3}decis[oõ]es(?:\s+[\w-]+){0,4}",
            r"abordagem",
            r"corre[cç][aã]o(?:\s+do\s+\w+)?",
            r"solu[cç][aã]o(?:\s+(?:implementada|aplicada|escolhida))?",
        ),
        "convention": (
            r"conven[cç][oõ]es",
            r"prefer[eê]ncias",
            r"requisitos",
            r"restri[cç][oõ]es",
            r"comportamento\s+esperado",
            r"regras(?:\s+cr[ií]ticas)?",
        ),
        "done": (r"resumo", r"implementa[cç][aã]o"),
    },
    introducers={
        "decision": (r"\b(?:a\s+)?(?:solu[cç][aã]o|corre[cç][aã]o)\s+(?:foi|é)\b",),
        "lesson": (r"\bo\s+problema\s+(?:é|era|foi)\s+que\b",),
        "task": (r"\b(?:a\s+)?pr[oó]xima\s+etapa\s+seria\b", r"\bpr[oó]ximos?\s+passos?\b"),
    },
    next_steps=(r"pr[oó]ximos\s+passos", r"pend[eê]ncias", r"falta(?:m)?(?:\s+fazer)?"),
    narration=(
        r"^(?:vou|deixe-me|agora\s+vou|ok|ótimo|perfeito|pronto|aqui\s+est[aá]|aqui\s+est[aã]o)\b",
        (
            r"\b(?:decidi|resolvi)\s+(?:primeiro\s+)?(?:olhar|verificar|checar|ver|investigar|começar"
            r"|ler|rodar|abrir|procurar|confirmar|testar|medir|reproduzir)\b"
        ),
        r"\ba\s+tarefa\s+est[aá]\s+conclu[ií]da\b",
        r"\bquer\s+que\s+eu\b",
        r"\b(?:a\s+n[aã]o\s+ser\s+que\s+voc[eê]|se\s+voc[eê])\b",
        r"\b(?:voc[eê]\s+poderia|daria\s+para|d[aá]\s+para)\b",
        r"\bat[eé]\s+voc[eê]\s+(?:responder|confirmar)\b",
        r"\b(?:mudou|mudaram)\s+s[oó]\b",
        r"\b(?:por\s+enquanto|por\s+ora|nesta\s+execução)\b",
        r"^o\s+usu[aá]rio\s+(?:est[aá]\s+perguntando|pediu|quer)\b",
    ),
    general=(
        r"\bpor\s+padr[aã]o\b",
        r"^(?:observe|repare|note)\s+que\b",
        r"\b(?:o|a)\s+(?:certo|ideal|correto|recomendado)\s+(?:é|seria)\b",
        r"^(?:em\s+geral|geralmente|normalmente)\b",
        r"\bum\s+padr[aã]o\s+comum\b",
        r"\b(?:quase\s+todo\s+mundo|muita\s+gente)\b",
    ),
    specific=(
        r"\b(?:nós|nosso|nossa|aqui|neste|nesta|eu|este\s+projeto)\b",
        r"\b(?:foi|era|eram|tinha|fiz|fizemos|\w{3,}avam?)\b",
    ),
    note_about_self=(
        r"^(?:nota|importante|obs\.?)\s*:\s*(?:eu\b|vou)",
        r"^(?:nota|importante|obs\.?)\s*:\s*(?:eu\s+)?(?:(?:só|não|nao)\s+)?\w+(?:ei|i)\b",
    ),
    decided_in_passing=(),
    user_preference=(
        (
            r"\b(?:n[aã]o\s+(?:mexe|mexa|use|usa|mude|troque)|prefiro|quero|queremos|usamos"
            r"|mantenha|sempre|nunca)\b"
        ),
    ),
    user_fact=(r"\b(?:eu\s+)?s[oó]\s+(?:tenho|uso|temos|usamos)\b",),
    why_question=(
        r"\bo\s+que\s+(?:deu|estava)\s+errado\b",
        r"\bqual\s+(?:era|foi|é)\s+o\s+problema\b",
    ),
    outcome=(
        (
            r"^(?:corrigi|corrigimos|adicionei|adicionamos|implementei|implementamos|criei|criamos"
            r"|atualizei|atualizamos|removi|removemos|troquei|trocamos|ajustei|ajustamos)\b"
        ),
    ),
    intent=(
        (
            r"^(?:(?:agora|ok|certo|entendi|perfeito|beleza)[,.!]?\s+){0,2}(?:vou|irei|vamos)\s+"
            r"(?=(?:corrigir|alterar|atualizar|adicionar|remover|criar|implementar|ajustar"
            r"|simplificar|mover|renomear|substituir|modificar|refatorar)\b)"
        ),
    ),
    diagnosis=(
        (
            r"^(?!.*\bainda\b).*\b(?:porque|por\s+causa|exige|recusa|n[aã]o\s+(?:est[aá]"
            r"\s+instalad|[eé]\s+suportad)|obsolet)"
        ),
    ),
    task_labels=(r"pendente", r"a\s+fazer", r"pr[oó]ximo\s+passo", r"falta(?:m)?"),
    meaning={
        "known": (
            (
                r"\bpr[eé]-?existente|\bj[aá]\s+(?:falhava|existia|estava\s+quebrad)"
                r"|\btamb[eé]m\s+(?:falha|ocorre|acontece)\s+(?:na|no)\s+(?:`x+`|main|master)\b"
                r"|\bn[aã]o\s+(?:foi\s+|[eé]\s+)?(?:causad|relacionad)\w*\s+(?:pel[ao]s?|com|a|ao)"
                r"\s+(?:minhas?|nossas?|est[ea]s?|ess[ea]s?)\s+(?:\w+\s+)?(?:mudan[cç]|altera[cç]|PR\b|commit)"
            ),
        ),
        "open": (
            (
                r"\b(?:pendente|ainda\s+(?:n[aã]o|falta|precisa)|falta(?:m)?\s+|a\s+fazer"
                r"|pr[oó]ximos?\s+passos?|n[aã]o\s+(?:commitad|implementad|testad)\w*)"
            ),
        ),
        "cause": (
            (
                r"\b(?:porque|pois|devido\s+a|por\s+causa|causad\w+|causa(?:va|ndo)?|result(?:ou|a)"
                r"\s+em)"
            ),
            r"[,;:—–]\s*(?:sen[aã]o|caso\s+contr[aá]rio)\b",
            r"\bpor\s+isso\b",
        ),
        "failure": (
            (
                r"\b(?:falh\w+|erros?\b|bug|quebr\w+|errad\w+|faltando|problema|n[aã]o\s+funciona"
                r"|timeout|lent\w+|conflit\w+|obsolet\w+"
                # how, as English "not found", "never", "isn't set": "não existe", "nunca"
                r"|n[aã]o\s+(?:existe|existia|(?:foi\s+|é\s+)?encontrad\w+|carreg\w+|suport\w+"
                r"|reconhec\w+|est[aá]\s+(?:definid|configurad|instalad)\w*)|nunca|ausente)"
            ),
        ),
        "choice": (
            (
                r"\b(?:em\s+vez\s+de|ao\s+inv[eé]s\s+de|em\s+lugar\s+de|optamos|optei|escolh\w+"
                r"|decidi\w*|preferi\w*|mantive|mantivemos|revert\w+|adiad\w+|mais\s+simples)"
            ),
        ),
        "change": (
            (
                # Portuguese forms only: a bare stem (`cri\w+`) would match English "critical".
                r"^(?:\S+\s+){0,3}?(?:adicion|remov|alter|atualiz|renome|implement|cri|troc|ajust"
                r"|migr|aument)(?:ei|ou|amos|aram|ado|ada|ados|adas)\b"
                r"|^(?:\S+\s+){0,3}?(?:corrig|substitu|reduz|mov)(?:i|iu|imos|iram|ido|ida|eu|emos)\b"
            ),
            r"\bagora\s+\w+",
        ),
    },
    obligation=(
        r"\b(?:nunca|sempre|n[aã]o\s+(?:deve|pode|quero|use|mexa)|deve|precisa)\b",
        # "Não remover nenhuma funcionalidade": do not remove ("não quer dizer" says no rule)
        r"^n[aã]o\s+(?!(?:quer|ter|ser|estar|haver|poder|saber)\b)\w+(?:ar|er|ir)\b",
    ),
    offer=(r"^(?:quer\s+que\s+eu|deseja\s+que|posso\s+(?:tamb[eé]m|ajudar)|se\s+quiser)\b",),
    to_reader=(
        r"^(?:se\s+voc[eê]|voc[eê]\s+(?:pode|deve|precisa|vai))\b|\bpor\s+favor\b",
        (  # "Sua entrega agora não é apenas um software", "Seu app está pronto"
            r"^(?:sua|seu|suas|seus)\s+(?:\w+\s+){0,2}(?:agora\s+)?(?:n[aã]o\s+)?(?:est[aá]|[eé]"
            r"|s[aã]o)\s+(?:\w+\s+)?(?:pront\w*|no\s+ar|publicad\w*|conclu[ií]d\w*|apenas|s[oó])\b"
        ),
    ),
    hedge=(r"\b(?:talvez|provavelmente|possivelmente|pode\s+ser|parece)\b",),
    directive=(
        r"\b(?:certifique-se|garanta)\s+(?:de\s+)?que\s+(?:cada|todo|toda|todos|todas|sempre)\b",
        (
            r"\bsiga\s+(?:o\s+)?(?:nosso|nossa|meu|minha)\s+(?:\w+\s+){0,2}(?:template|padr[aã]o"
            r"|guia|conven[cç][aã]o|estilo)\b"
        ),
    ),
    request=(
        (
            r"^(?:por\s+favor\s+)?(?:adicione|crie|construa|implemente|fa[cç]a|corrija|atualize"
            r"|remova|mude|altere|escreva|mova|renomeie|substitua|mostre|exiba|inclua|gere"
            r"|transforme|integre|melhore|prepare|desenvolva)\b"
        ),
    ),
    unfinished=(
        r"a|o|os|as|de|da|do|das|dos|em|no|na|nos|nas|com|para|por|pelo|pela|que|e|ou|um|uma|ao",
        r"deve|devemos|vou|vamos|como|incluindo",
    ),
    option=(
        r"(?:op[cç][aã]o|alternativa|abordagem|proposta)\s+(?:[A-Z]|\d{1,2})",
        r"(?:op[cç][oõ]es|alternativas|abordagens)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)",
        (
            r"(?:poss[ií]ve(?:l|is)|potenciais|potencial)\s+(?:solu[cç](?:[aã]o|[oõ]es)"
            r"|corre[cç](?:[aã]o|[oõ]es)|causas?)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)"
        ),
        (
            r"(?:solu[cç](?:[aã]o|[oõ]es)|corre[cç](?:[aã]o|[oõ]es)|causas?)\s+(?:poss[ií]ve(?:l|is)"
            r"|potenciais|prov[aá]ve(?:l|is))\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)"
        ),
    ),
    reasons=(r"justificativa|motivos?|raz[aã]o|raz[oõ]es|porqu[eê]|causa(?:\s+raiz)?",),
    checked=(r"testes?", r"plano\s+de\s+testes?", r"verifica[cç][aã]o", r"valida[cç][aã]o"),
)
