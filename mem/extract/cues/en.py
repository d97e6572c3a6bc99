"""English cue words and heading names."""

from mem.extract.cues import Cues

CUES = Cues(
    rules={
        "task": (
            r"^(?:TODO|FIXME|Follow[- ]up)\b\s*[:\-]",
            r"^\[ \]\s",
            r"^next\s+steps?\s*:\s*\S",
            r"^(?:still\s+(?:need|needs|have)\s+to|remaining\s*:|left\s+to\s+do\s*:)",
            r"\bstill\s+(?:\S+\s+){0,3}(?:needs?|should|must|has\s+to|have\s+to)\b",
            r"\b(?<!\bmight\s)(?<!\bmay\s)(?<!\bcould\s)needs?\s+to\s+be\s+\w+",
            r"\bshould\s+(?:probably\s+)?(?:get|go|run|move|switch)\b",
            r"^(?:the)\s+[^,;:]{0,60}?\bstill\s+(?:doesn't|does\s+not|isn't|is\s+not)\s+\w+(?<!do)\b",
            # A check recommended and not yet done: "it would be ideal to run the suite on Windows".
            (
                r"\b(?:it\s+would\s+be\s+(?:ideal|good|wise|best|worth)|i(?:'d|\s+would)\s+recommend"
                r"|(?:you|we)\s+should\s+also)\s+(?:to\s+)?(?:run|test|verify|check|confirm|try)\w*\b"
            ),
            (
                r"\b(?:remains?|left)\s+(?:for|to)\s+(?:the\s+)?(?:\w+\s+){0,2}(?:to\s+)?"
                r"(?:do|run|check|verify|review|the\s+kernel|ci|later|follow[- ]up)\b"
            ),
            r"\b(?:build|tests?|verification|review|check)s?\s+(?:remains?|is\s+left|are\s+left)\b",
            r"\bi\s+am\s+missing\b|\bi'm\s+missing\b",
        ),
        "decision": (
            r"^decision\s*:",
            (
                r"\b(?:we|i|team|they|the\s+user|user)\s+(?:have\s+)?(?:decided|chose|opted|settled"
                r"|picked|agreed)\b"
            ),
            (
                r"\bdecided\s+(?:to\s+(?:use|keep|go|switch|move|adopt|drop|replace|store|stay)|on"
                r"|against)\b"
            ),
            r"\b(?:chose|choosing|picked|prefer(?:red)?)\s+\S+(?:\s+\S+){0,3}\s+\(?over\s+\S",
            r"^(?:chose|picked|switched|opted|adopted|standardi[sz]ed\s+on)\b",
            (
                r"^(?:kept|pinned|made|replaced|moved|dropped|used|split|wrapped|preferred|updated"
                r"|changed|extracted|raised|lowered|bumped|increased|reduced|limited|capped|added"
                r"|removed|disabled|enabled|configured|set|restricted|renamed)\b.*\b(?:so\s+that|so"
                r"|because|instead\s+of|rather\s+than|since|to\s+avoid|to\s+keep)\b"
            ),
            r"\b(?:went|going|go)\s+with\b",
            r"\b(?:stayed|stuck|staying|sticking)\s+with\b",
            (
                r"\b(?:use|used|using|chose|kept|went\s+with|prefer(?:red)?|opted\s+for|picked)\b"
                r".*\b(?:rather\s+than|in\s+favou?r\s+of)\b"
            ),
            (
                r"^(?:i|we)\s+(?:kept|made|switched|replaced|moved|pinned|preferred|used)\b.*\b(?:instead"
                r"|rather|so|because|over|since)\b"
            ),
            r"^kept\b",
            r"^(?:i|we)\s+\w+ed\b.*\brather\s+than\b",
            r"^going\s+forward\b",
            r"^(?:we(?:'re|\s+are)|i'm|i\s+am)\s+\w+ing\b.*\b(?:rather\s+than|instead\s+of)\b",
            (
                r"^(?:\w+ed|made|kept|went|chose|built|wrote|set|put|left)\b.*\b(?:instead\s+of"
                r"|rather\s+than)\b"
            ),
            r"\bthe\s+(?:choice|decision)\s+(?:was|is)\b",
            # The fix said by what it did: "The fix was to…", "This was fixed by refactoring…".
            r"\bthe\s+(?:real\s+)?fix\s+(?:was|is)\b",
            r"\b(?:fixed|resolved|solved|addressed)\s+(?:(?:it|this|that)\s+)?by\s+\w+ing\b",
            r"^replaced\b.*\bwith\b",
            r"\bwe\s+kept\b.*\b(?:because|since|as)\b",
            r"\bsettled\s+on\b",
            r"\bopted\s+(?:for|to)\b",
            r"\b(?:we|i)(?:'ll|\s+will)\s+use\b",
            r"^use\s+\S+(?:\s+\S+){0,4}\s+instead\s+of\b",
            r"\b(?:we|i|to|will|'ll)\s+use\s+\S+(?:\s+\S+){0,4}\s+instead\s+of\b",
            r"\bswitch(?:ed|ing)\s+(?:from\s+\S+(?:\s+\S+){0,3}\s+)?to\b",
            r"\binstead\s+of\b.*\bbecause\b",
            # A value changed on purpose: "raised the timeout from 60s to 200s".
            (
                r"^(?:changed|raised|lowered|bumped|increased|reduced|fixed|corrected|moved|set)\b"
                r"[^.;]{0,80}\bfrom\s+\S+\s+to\s+\S"
            ),
        ),
        "rule": (
            r"^(?:always|never)\b",
            r"\byou\s+(?:said|told\s+me|mentioned|asked)\b.*\b(?:want|prefer|like|always|never)\b",
            r"^we\s+(?:use|profile|deploy|test|build|write|run|ship|keep|pin|store)\b",
            (
                r"^per\s+(?:the\s+)?(?:repo|project|team)(?:'s)?\b|\baccording\s+to\s+(?:the\s+)?"
                r"(?:contributing|readme|style\s+guide)\b"
            ),
            r"\bmust\s+not\s+be\b|\bshould\s+never\b",
            r"\bfollows?\s+the\s+\w+\s+style\b",
            r"\bthis\s+(?:project|codebase|repo(?:sitory)?)\s+uses\b",
            (
                r"^(?:every|all|each)\s+\S+(?:\s+\S+){0,3}\s+(?:in\s+this|here|must|should|goes|go"
                r"|exposes?|uses?)\b"
            ),
        ),
        "warning": (
            r"^(?:warning|careful|beware)\s*[:!]",
            r"\b(?:watch out|be careful|never\s+\w+\s+without|do not forget|don't forget)\b",
        ),
        "lesson": (
            r"^(?:lesson(?:s)?(?: learned)?|gotcha|note|important|caveat)\s*:",
            # (not "the issue is still occurring", "the bug is fixed now": its state; nor
            # "helps identify if the issue is with the data": a question, not its answer)
            (
                r"\b(?:root\s+cause|(?<!if\s)(?<!whether\s)the\s+(?:real\s+)?(?:problem|issue|bug"
                r"|culprit)\s+(?:was|is)"
                r"(?!\s+(?:still|now|gone|fixed|resolved|back|solved|persisting)\b))\b"
            ),
            r"\bturn(?:s|ed)\s+out\b",
            # "It was just a timing issue in the deploy check": what kind of trouble it was
            (
                r"(?:\b(?:was|is)|'s)\s+(?:just|only|simply|merely)\s+an?\s+[\w-]+\s+(?:issue|problem|bug)"
                r"\b(?!\s+(?:link|number|tracker|template|page|report)\b)"
            ),
            (
                r"\b(?:we|i)\s+(?:learned|learnt|found out|discovered|realized|realised|realize"
                r"|realise)\b"
            ),
            r"\bwas\s+caused\s+by\b|\bbecause\s+of\s+a\b",
            r"\bcame\s+from\b|\bstem(?:s|med)?\s+from\b",
            # "The NaNs come from …" names a cause; "That is where it comes from" explains one.
            r"^(?!(?:those|these|that|this|it|they|which)\b)(?:(?!\bwhere\b).)*\bcomes?\s+from\b",
            r"\bdid\s+nothing\b|\bhad\s+no\s+effect\b",
            r"\bthe\s+culprit\b",
            r"\b(?:isn't|is\s+not|wasn't|was\s+not)\s+enough\b",
            r"\bthe\s+(?:hot\s*spot|bottleneck|slow\s+part)\s+(?:was|is)\b",
            r"\b(?:bit|tripped(?:\s+up)?)\s+(?:me|us)\b",
            (
                r"\b(?:didn't|did\s+not|wasn't|was\s+not|weren't|stuck|dropped|jumped|looked|lost|"
                r"leaked|timed\s+out|duplicated)\b.*\b(?:because|since|as\s+soon\s+as|when)\b"
            ),
            r"\b(?:same|the\s+real)\s+cause\b|\bcaused\b",
            r"\b(?:the\s+reason\s+(?:was|is)|was\s+due\s+to|is\s+due\s+to|it\s+was\s+because)\b",
            (
                r"\bthe\s+(?:(?:main|key|real|one)\s+)?(?:culprit|catch|trick|gotcha|subtlety"
                r"|pitfall|caveat)\s+(?:was|is|here\s+is)\b"
            ),
            r"\b(?:only|doesn't|does\s+not|won't)\s+work(?:s)?\s+(?:if|when|unless|with)\b",
            (
                r"^the\s+(?:\S+\s+){0,4}(?:failure|crash|error|bug|jitter|mismatch|flak(?:e|iness)|hang"
                r"|leak|slowdown|timeout|regression|outage)\s+(?:was|came|happened|is)\b"
            ),
            r"\bnever\s+\w+ed\b.*\b(?:because|since)\b",
            (
                r"\b(?:fails?|failed|failing|breaks?|broke|crashe[sd]|hangs?)\b.*\b(?:because|since"
                r"|due\s+to)\b"
            ),
            r"\b(?:only\s+happens|happens\s+only|only\s+fails|fails\s+only)\b",
            r"^it\s+was\s+(?:the|a|an)\b",
            r"\b(?:was|were)\s+(?:\S+\s+){0,3}because\b",
            r"^(?:the|a|an|our|this|that|its?)\s+(?:\S+\s+){0,6}?\w{3,}ed\b[^;]*\bbecause\b",
            # "The error occurs because …", "The problem occurs because …"
            (
                r"\b(?:error|problem|issue|bug|failure|crash|exception)\s+(?:occurs?|occurred|happens?"
                r"|happened|arises?|appears?)\s+(?:because|when|due\s+to)\b"
            ),
            (
                r"\b(?:could\s+not|couldn't|cannot|can't)\s+(?:run|build|start|compile|load|connect"
                r"|resolve|parse|import|install)\s+(?:on|with|against|under|in)\b"
            ),
            r"\bdoesn't\s+(?:directly\s+)?(?:address|fix|solve|resolve)\b",
            r"\b(?:expects?|requires?)\s+\S+(?:\s+\S+){0,5},\s+not\s+",
            r"\bcost\s+(?:us\s+)?(?:hours|days|a\s+day|an\s+hour)\b",
            (
                r"^fixed\s+(?:an?\s+|the\s+)?(?:\S+\s+){0,5}(?:bug|error|crash|race|leak|typo|regression"
                r"|deadlock)\b"
            ),
            # "I see the issue - X" (not "I see the issue is still occurring": a status)
            r"\bi\s+see\s+the\s+(?:issue|problem)\s*(?:[-—–:]|now\b)",
            r"\bneeds?\s+\S+(?:\s+\S+){0,3}\s+(?:i|we)\s+(?:don't|do\s+not)\s+have\b",
            (
                r"\bexisted\b.*\bbut\s+(?:wasn't|was\s+not|isn't|is\s+not)\s+(?:recognized|found"
                r"|picked\s+up|loaded|used)\b"
            ),
        ),
        "preference": (
            r"\b(?:the\s+)?user\s+(?:prefers|wants|likes|dislikes)\b",
            r"\b(?:i|we|you)\s+prefer\b",
            r"^you\s+(?:want|wanted|prefer|like|asked(?:\s+me)?\s+to|asked\s+for)\b",
        ),
        "convention": (
            (
                r"\b(?:this|the)\s+(?:codebase|project|repo(?:sitory)?|team)\s+(?:uses|follows|keeps"
                r"|prefers|requires|expects|has|pins)\b"
            ),
            r"\bconvention\b",
            r"^(?:always|never)\s+\w+",
            r"\b(?:make\s+sure\s+(?:to\s+)?|should\s+|must\s+)(?:always|never)\s+\w+",
            r"\bwe\s+(?:always|never)\b",
            r"\b(?:here|in\s+this\s+(?:repo|project|codebase|app)|our)\b.*\b(?:always|never)\b",
            r"\b(?:always|never)\b.*\b(?:here|in\s+this\s+(?:repo|project|codebase|app))\b",
            r"\bhere\s+(?:always|never)\b",
            r"^(?:remember|don't\s+forget)\s+to\b",
            r"^(?:reminder|convention|rule|policy)\s*:",
            r"\bmake\s+sure\s+(?:to|that|you)\b",
            r"\bin\s+this\s+(?:repo(?:sitory)?|project|codebase|cluster|firmware|team|monorepo)\b",
            r"\b(?:must|should)\s+always\b",
        ),
        "pattern": (
            r"\bthe\s+pattern\s+(?:is|here)\b",
            r"\bfollows?\s+the\s+\w+(?:\s+\w+)?\s+pattern\b",
            r"\b(?:lives|live|are\s+kept|is\s+kept|are\s+stored|is\s+stored)\s+in\s+`",
        ),
        "fact": (
            # How the tests are run, said plainly: "Ran test suite using `uv run pytest`".
            (
                r"\b(?:ran|run|runs|running)\s+(?:the\s+)?(?:\w+\s+)?(?:test\s*suite|tests|suite)"
                r"\s+(?:using|with|via)\s+`(?![A-Z_]+=)"
            ),
            r"\b(?:required|needed)\s+by\b|^requires\s+\S",
            r"\b(?:url|endpoint|homepage|site|docs|dashboard|console|repo)\s*:\s*https?://",
            r"\btriggers\s+(?:a\s+)?(?:re)?(?:build|deploy|release|run)\b",
            # How-to with a place: "Add new posts: Create .md files in /src/content/blog/".
            (
                r"^[\w ]{3,30}:\s+(?:create|put|add|place|store|keep|write)\s+[^:]{0,40}\b(?:in|under"
                r"|into)\s+`?[./~]?[\w.-]*/"
            ),
            # A measured duration: "Synthesis takes 77s".
            (
                r"^\S+(?:\s+\S+){0,3}\s+(?:takes|took)\s+~?\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|min"
                r"|minutes)\b"
            ),
        ),
    },
    lead_ins={
        "task": (
            (
                r"^(?:also\s+|still\s+)?(?:still\s+open|still\s+to\s+(?:do|look\s+at|check|fix)"
                r"|not\s+(?:done|touched|tested|handled|fixed)|left\s+for\s+later|left\s+open"
                r"|pending|follow[- ]up|todo)\b\s*:?|^next\s*:"
            ),
            (
                r"^i\s+(?:didn't|did\s+not|haven't|have\s+not)\s+(?:do|get\s+to|start|fix|test|handle"
                r"|implement)\w*\b(?!\s+(?:anything|nothing))"
            ),
            (
                r"^i\s+(?:didn't|did\s+not|haven't|have\s+not)\s+(?:touch|change|update|look)\w*\b.*"
                r"\byet\b"
            ),
            r"\b(?:haven't|have\s+not|not\s+yet)\s+started\b",
        ),
        "decision": (
            r"^(?:\w+\s+)?(?:change|decision|approach|solution|fix|choice|workaround|strategy)\s*:",
            r"^decided\s+on\b",
        ),
        "warning": (
            r"^(?:heads[- ]up|fyi|caveat|known\s+issue)\s*:",
            r"^(?:careful|watch\s+out|beware)\b[^:]{0,30}:",
        ),
        "lesson": (
            r"^(?:gotcha|lesson|caveat)\b[^:]{0,30}:",
            (
                r"^(?:root\s+)?(?:cause|bug|problem|issue|symptom|finding|key\s+finding|learned"
                r"|lesson\s+learned)\s*:"
            ),
            r"^why\b[^:]{0,40}:",
            r"^what\s+(?:was\s+\w+|went\s+wrong|broke|happened)\s*:",
        ),
        "fact": (
            r"^(?:for\s+the\s+record|keep\s+in\s+mind\s+that)\b",
            r"^(?:pro\s+)?(?:tip|hint|note\s+for\s+later)\s*:",  # "Tip: run it with `py -m …`"
        ),
    },
    sections={
        "task": (
            r"follow[- ]ups?",
            r"todo",
            r"to[- ]do",
            r"pending(?:\s+tasks?)?",
            r"not\s+done(?:\s+yet)?",
            r"left\s+for\s+later",
            r"open\s+items",
            r"later",
            r"future\s+work",
            r"still\s+open",
            r"open\s+questions?",
            r"out\s+of\s+scope",
            r"remaining(?:\s+work|\s+tasks|\s+issues)?",
            r"recommendations?",
            r"(?:suggested|recommended)\s+next\s+steps?",
            r"next\s+pr",
            r"(?:optional\s+)?next\s+steps?",
        ),
        "lesson": (
            r"why",
            r"(?:the\s+)?root\s+cause",
            r"cause",
            r"what\s+went\s+wrong",
            r"what\s+was\s+wrong",
            r"diagnosis",
            r"(?:key\s+)?findings",
            r"errors?\s+and\s+fix(?:es)?",
            r"problem\s+solving",
            r"lessons?(?:\s+learned)?",
            r"why\s+(?:is|was|does|did)\b[^:]{0,40}\??",
        ),
        "warning": (
            r"known\s+issues",
            r"caveats?",
            r"gotchas?",
            r"heads[- ]up",
            r"warnings?",
            r"important\s+notes?",
            r"limitations?",
            r"risks?",
        ),
        "decision": (
            r"(?:design\s+|key\s+)?decisions?",
            # "Key Architectural Decisions for Your Review": decisions, whatever words surround
            r"(?:[\w-]+\s+){0,3}decisions(?:\s+[\w-]+){0,4}",
            r"(?:the\s+)?(?:solution|fix|workaround|resolution)(?:\s+(?:implemented|applied|chosen))?",
            r"approach",
            r"trade[- ]offs?",
            r"decision",
        ),
        "convention": (
            r"conventions?",
            r"preferences?",
            r"notes?\s+for\s+next\s+time",
            # What an issue or a spec requires of the work: it holds after the session.
            r"(?:expected|target|desired|intended|required)\s+(?:behaviou?r|results?|outcome)",
            r"(?:hard\s+)?(?:requirements?|constraints?)",
            r"acceptance\s+criteria",
        ),
        "done": (
            r"implementation",
            r"files\s+and\s+code\s+sections",
            r"current\s+work",
            r"(?:what\s+was\s+)?(?:done|changed|completed)",
            r"completed\s+features",
            r"key\s+files\s+created",
            r"files\s+(?:changed|modified|created)",
            r"summary",
        ),
        "skip": (
            r"all\s+user\s+messages",
            r"primary\s+request\s+and\s+intent",
            r"key\s+technical\s+concepts",
        ),
    },
    introducers={
        "decision": (
            r"\b(?:the\s+)?(?:workaround|fix|solution|approach)\s+(?:was|is|were)\s+to\b",
            r"\bdecided\s+on\b",
            r"\b(?:this|the)\s+change\s+does\s+the\s+following\b",
            # "Summary of the change:", "Improved the Windows test reliability:" over what each
            # change does ("Extension removal now retries…"): a quality or an area made better,
            # the items say how. Not "Added two tests:" (the items name what was added), nor
            # "Fixed these issues:" (they say what was wrong).
            r"^(?:a\s+)?summary\s+of\s+(?:the\s+|my\s+|these\s+)?changes?\s*[:：]?$",
            (
                r"^(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:improved|hardened|reworked|simplified"
                r"|stabili[sz]ed|streamlined|tightened)\b(?![^:：]*\b(?:issues?|problems?|bugs?"
                r"|errors?|failures?|follows?|following)\b)[^:：]*[:：]$"
            ),
            r"\bthe\s+(?:main\s+)?changes\s+(?:are|were)\b",
            r"\bhere's\s+what\s+was\s+(?:updated|changed)\b",
            r"\b(?:i|we)\s+(?:chose|picked|went\s+with|settled\s+on)\b",
            # "I patched:" over the files it changed and how
            (
                r"^(?:i|we)\s+(?:patched|changed|fixed|updated|modified|made\s+(?:these|the"
                r"\s+following)\s+changes)(?:\s+(?:the\s+following|these|this|it|them))?\s*[:：]?$"
            ),
            # "To fix this properly, we need to change the order in `start.ts`:"
            (
                r"^to\s+(?:fix|solve|resolve|address)\s+(?:this|it|the\s+\w+)(?:\s+\w+)?,\s+"
                r"(?:we|i)\s+(?:need|have|will|should|must)\b"
            ),
        ),
        "lesson": (
            (
                r"\b(?:two|three|several|some|a\s+few|the)?\s*(?:issues|problems|gotchas|findings"
                r"|caveats)\b"
            ),
            r"\b(?:one|a|the)\s+(?:potential\s+)?(?:issue|problem|gotcha|catch)\b",
            r"\bwhat\s+went\s+wrong\b",
        ),
        "task": (
            r"\bcreated\s+(?:\w+\s+)?tasks?\b",
            r"\b(?:next\s+steps?|still\s+to\s+do|remaining|left\s+to\s+do|todo)\b",
        ),
    },
    next_steps=(
        r"next\s+steps?",
        r"optional\s+next\s+steps?",
        r"remaining(?:\s+work)?",
        r"still\s+to\s+do",
        r"unfinished",
        r"follow[- ]ups?",
        r"pending\s+tasks?",
    ),
    narration=(
        (
            # "Now let me add…", "Next, I'll…": a step's word before it changes nothing
            r"^(?:(?:now|next|then|first|also|finally|so|and)[,.]?\s+){0,2}(?:let me|let's|i'll"
            r"|i will|i'm going to|i am going to|i need to|i should|i can|i'm|i am)\b"
            r"|^(?:now i|okay|ok|great|perfect|done|sure|excellent|good)\b"
        ),
        (
            r"\bdecided\s+to\s+(?:look|check|start|read|run|try|first|explore|investigate|open|see"
            r"|begin|search|inspect|review)\b"
        ),
        r"\bdecided\s+to\s+(?:first\s+)?(?:confirm|verify|reproduce|measure|test|double-check)\b",
        r"\bthe\s+task\s+is\s+(?:done|complete)\b",
        # The investigation retold: "I've now traced both code paths", "I checked the logs".
        (
            r"^i(?:'ve|\s+have)?\s+(?:now\s+|also\s+|just\s+)?(?:traced|checked|read|reviewed"
            r"|looked|inspected|examined|gone\s+through|went\s+through|double-checked)\b"
        ),
        r"\bhmm+\b",  # a thought on the way
        # A step under way, as reasoning titles and status lines put it ("Checking whether…",
        # "Suspecting the install skipped…").
        (
            r"^(?:checking|reading|looking|suspecting|searching|investigating|examining|verifying"
            r"|considering|planning|trying|running|inspecting|exploring|analy[sz]ing|reviewing"
            r"|locating|identifying|confirming|figuring|thinking|debugging|tracing|testing)\b"
            # "Looking at the linter error, the issue is that…": a participle before what was
            # found, which is no step under way.
            r"(?![^.]*?,\s+(?:the|this|that|it|there|we|i)\s+(?:\w+\s+){0,2}(?:is|was|are|were"
            r"|has|had|comes|came)\b)"
            # "Running `make` twice fails because…", "Testing on Windows requires…": a gerund
            # as the subject of what holds, not a step under way.
            r"(?![^.]*?\b(?:fails|breaks|requires|needs|causes|takes|hangs|crashes|leaks)\b)"
        ),
        # "I have created the plan", "I verified with `git check-ignore` that…": the agent's
        # account of its own steps; what they found or decided is said without the "I".
        (
            r"^i(?:'ve|\s+have)?\s+(?:\w+ly\s+)?(?:created|verified|checked|confirmed|ran|tested"
            r"|reviewed|looked|read|went|started|prepared|drafted|written"
            r"|wrote|set\s+up|gone)\b(?![^.]*\b(?:because|so\s+that|since|instead\s+of)\b)"
        ),
        r"\b(?:wants|asked|needs)\s+me\s+to\b",
        r"\bunless\s+you\b",
        (
            r"\b(?:could\s+also|you\s+could|you\s+might|alternatively|one\s+option|another\s+option"
            r"|if\s+you\s+(?:want|prefer|'d\s+rather))\b"
        ),
        r"\buntil\s+you\s+(?:reply|answer|respond|confirm)\b",
        r"\bdecided\s+to\s+(?:re-?run|wait|pause|ask)\b",
        r"\b(?:changed|touched)\s+only\b",
        r"\b(?:for\s+now|for\s+this\s+run|temporarily)\b",
        r"^(?:the\s+)?user\s+(?:asked|wants|is\s+asking|is\s+thanking|said)\b",
        r"\bi'm\s+\w+ing\b[^.]*\bnow\b",
        (  # "Since the sibling repo exists, I'm checking whether…"
            r"\b(?:i'm|i\s+am|we're)\s+(?:checking|looking|reading|running|trying|testing|verifying"
            r"|investigating|searching|inspecting|exploring|going\s+to)\b"
        ),
        r"^here(?:'s|\s+is|\s+are)\b",  # "Here's what I found:" presents what follows  # "…; I'm creating and switching to it now."
        # The steps of the work, not what it found: "I looked into the failing test."
        (
            r"^(?:i|we)\s+(?:looked|checked|read|explored|investigated|searched|inspected|examined"
            r"|went\s+through|started\s+by|began)\b"
        ),
    ),
    general=(
        r"\bby\s+default\b|\bdefaults?\s+to\b",
        r"^note\s+that\b",
        (
            r"\bthe\s+(?:right|correct|ideal|idiomatic|recommended|usual)\s+(?:way|thing|approach"
            r"|fix)\b"
        ),
        r"^(?:in\s+general|generally|typically|usually)\b",
        r"\ba\s+common\s+(?:pattern|approach|mistake|fix)\b",
        r"\b(?:most\s+people|many\s+people)\b",
        (
            r"\b(?:standard|textbook|well-known|classic)\s+(?:pattern|behaviou?r|approach|problem)\b"
            r"|^background\b"
        ),
        r"\btypically\s+occurs\b",
    ),
    specific=(
        r"\b(?:we|i|our|us|here|this\s+(?:repo|project|codebase|app|service|team))\b",
        (
            r"\b(?:was|were|had|did|broke|failed|crashed|turned|caused|happened|started|stopped"
            r"|changed)\b"
        ),
    ),
    note_about_self=(r"^(?:note|important|obs\.?)\s*:\s*(?:i\b|i'|i’|running|we're)",),
    decided_in_passing=(
        (
            # (not "I'm using the CI-fix skill because…": the agent's own tooling for the task)
            r"^(?:i'll|i will|we'll|we will|i'm|we're|i am|we are)\s+(?:use|using|keep|keeping"
            r"|switch|switching|go|going)\b(?!\s+(?:the\s+)?[\w-]+\s+(?:skill|subagent|tool)\b)"
            r".*\b(?:instead\s+of|over|rather\s+than|since|because)\b"
        ),
        r"^(?:i'm|we're|i am|we are)\s+going\s+with\b",
        # One way taken over another, whatever the verb: "I'll bump line-length to 120 to
        # match the codebase rather than reformat all tests".
        # (not "I'll check the docs rather than rely on memory": a way to look, not to build)
        (
            r"^(?:i'll|i will|we'll|we will)\s+(?!(?:check|look|read|search|verify|inspect|review"
            r"|explore|investigate|examine|see|try|ask|confirm)\b)\w+\b.*\b(?:instead\s+of"
            r"|rather\s+than)\b"
        ),
    ),
    user_preference=(
        r"\bplease\s+(?:keep|always|never|don't|do\s+not|use|stick)\b",
        r"^(?:keep|stick\s+with|use)\b|\bi\s+always\b|\bwe(?:'re|\s+are)\s+not\s+moving\b",
        (
            r"\b(?:i|we)\s+(?:want|like|prefer|would\s+like|'d\s+like)\b(?!\s+(?:you|it|to"
            r"|that|this)\b)"
        ),
        r"\bwe\s+(?:don't|do\s+not|never|always|only|target|use|keep|ship)\b",
        r"\b(?:keep|leave)\s+(?:all|every|the)\b",
        r"\bthat's\s+how\b|\bthe\s+rest\s+of\s+the\s+(?:app|code|codebase)\b",
        r"\bi\s+(?:hate|love|dislike|can't\s+stand)\b",
        r"\bremember\s+to\b|\bdon't\s+ever\b|^no,\s+(?:use|do|don't|keep)\b",
        # "stop adding comments", "avoid new dependencies", "only use the stdlib"
        r"^(?:please\s+)?(?:stop\s+\w+ing|avoid\s+\w+|only\s+(?:use|run|touch|change|edit))\b",
        r"\b(?:it's|it\s+is)\s+(?:fine|ok|okay|acceptable)\s+to\b|\bbe\s+careful\b",
        r"\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on|in\s+the\s+future)\b",
        # "that's wrong, the config lives in ~/.config/app": a correction says how it is
        r"^(?:no,\s+)?(?:that's|that\s+is|this\s+is)\s+(?:wrong|not\s+right|incorrect)\b",
    ),
    user_fact=(
        r"\b(?:only|just)\s+(?:appears?|happens?|occurs?|fails?|breaks?|shows?\s+up)\b",
        r"\b(?:i|we)\s+only\s+(?:have|use|run|ship|support|deploy)\b",
    ),
    why_question=(
        r"\bwhat\s+(?:was|were|is)\s+the\s+(?:issue|problem|bug|cause)",
        r"\bwhat\s+went\s+wrong\b",
    ),
    outcome=(
        (
            r"^(?:i|we)\s+(?:fixed|added|implemented|built|wrote|created|updated|removed|replaced"
            r"|refactored|moved|changed|made|migrated|converted|extracted|renamed|deployed"
            r"|configured|resolved)\b"
        ),
        (
            r"^(?:fixed|added|implemented|built|wrote|created|updated|removed|replaced|refactored"
            r"|moved|changed|made|migrated|converted|extracted|renamed|deployed|configured"
            r"|resolved)\b"
        ),
    ),
    intent=(
        (
            r"^(?:(?:now|next|then|so|first|ok(?:ay)?|sure|alright|understood|got\s+it|great"
            r"|perfect)[,.!]?\s+){0,2}(?:i'll|i\s+will|let\s+me|let's|i'm\s+going\s+to|we'll"
            r"|we\s+will)\s+(?:now\s+|also\s+|go\s+ahead\s+and\s+)?(?=(?:fix|update|change|modify"
            r"|add|remove|rewrite|refactor|rename|move|replace|create|implement|simplify|reorder"
            r"|correct|adjust|extract|delete|convert)\b)"
        ),
    ),
    diagnosis=(
        (
            r"^(?!.*\byet\b).*\b(?:because|since|due\s+to|requires?|needs?|expects?|only\s+works"
            r"|refuses?|not\s+installed|not\s+on\s+(?:the\s+)?path|is\s+a\s+stub|no\s+such"
            r"|not\s+supported|unsupported|deprecated)\b"
        ),
    ),
    task_labels=(r"TODO", r"FIXME", r"follow[- ]up", r"next\s+steps?", r"next", r"pending"),
    meaning={
        "known": (
            (
                r"\bpre-?existing\b|\balready\s+(?:failing|failed|broken|red)\b"
                r"|\b(?:reproduces?|fails?|failing|happens?|occurs?|exists?|broken|flaky|red)\s+(?:on|in)"
                r"\s+(?:`x+`|main|master|trunk)\b"
            ),
            (  # "not caused by this PR", "unrelated to my change"
                r"\b(?:not|isn't|aren't|wasn't|weren't|nothing)\s+(?:caused\s+by|related\s+to|due\s+to"
                r"|from|introduced\s+by|to\s+do\s+with)|\bunrelated\s+to"
            )
            + r"\s+(?:my|this|the|our|these|any\s+of\s+(?:my|the|these|our))\s+(?:\w+\s+)?(?:changes?"
            r"|PR|pull\s+request|commits?|work|fix|edits?|(?:new\s+)?code|diff|branch)\b",
            # "the warning is from the existing dependency build"
            r"\bfrom\s+the\s+existing\s+(?:\w+\s+)?(?:build|code|dependenc\w+|setup|config\w*|tests?)\b",
        ),
        "open": (
            (
                r"\b(?:todo|follow[- ]ups?|next\s+steps?|not\s+yet|yet\s+to\s+be|still\s+(?:needs?"
                r"|has\s+to|have\s+to|to\s+be|open|pending|missing|unresolved)|remains?\s+(?:open|to\s+be)"
                r"|left\s+(?:open|to\s+do|for\s+later)|uncommitted|unpushed|not\s+(?:committed|pushed"
                r"|merged|released|deployed)|needs?\s+to\s+(?:land|be\s+(?:merged|released|deployed"
                r"|done|fixed|added|updated)))\b"
            ),
        ),
        "cause": (
            (
                r"\b(?:because|since\s+(?:the|it|they|we|a|an)|due\s+to|caused\s+by|causes?|causing"
                r"|result(?:s|ed)?\s+in|leads?\s+to|led\s+to|which\s+(?:means|meant|made|makes|broke"
                r"|caused)|so\s+(?:the|it|that|any|every|a|an|this|its|nothing)\b|root\s+cause)\b"
            ),
            # "…nests everything under `plugins/`, which is why Cursor installs break"
            r"\b(?:which|that|this)(?:'s|\s+is|\s+was)\s+why\b|\bhence\b|\btherefore\b",
            # "…records any return as a success — so returning `{}` flips the flag": what follows
            # from it, after a pause; not "…, so I'm rerunning it" (the agent acting)
            (
                r"(?:[,;—–]|\s-)\s*so\s+(?!(?:i|i'm|i'll|i've|let|let's|we|we'll|we're|we've|you|far"
                r"|much|many|yes|no|now)\b)(?=[a-z`])"
            ),
            # "needs a separate ref input, otherwise dispatching it would use the old file": what
            # would happen; not "…when missing, otherwise append": what to do in the other case
            (
                r"(?:[,;:—–]|\s-)\s*otherwise\b[^.;]{0,80}?\b(?:would|will|might|could|can't"
                r"|cannot|won't|fails?|breaks?)\b"
            ),
        ),
        "failure": (
            (
                # not "error handling", "error messages": what handles a failure names none
                r"\b(?:fail(?:s|ed|ing|ure)?|broke|broken|breaks|crash\w*|errors?(?!\s+(?:handling"
                r"|handlers?|logging|reporting|boundar\w+|recovery|tracking))|errored|erroring"
                r"|erroneous\w*|bugs?|wrong|incorrect"
                r"|missing|race\s+condition|regression|overwrit\w*|los(?:es|ing|t)|stale|conflicts?"
                r"|problem|issue|gotcha|tricky|flaky|never|not\s+(?:being|found|recognized|set|called"
                r"|loaded|attached|ignored|supported|allowed)|doesn't|does\s+not|didn't|did\s+not"
                r"|isn't|wasn't|aren't|weren't|can't|cannot|couldn't|won't|unable|invalid"
                r"|undefined|deprecated|outdated|mismatch\w*|typo|mistakes?)\b"
            ),
        ),
        "choice": (
            (
                r"\b(?:instead\s+of|rather\s+than|in\s+favou?r\s+of|over\s+(?:the\s+)?\w+|alternatives?"
                r"|simpler|trade-?offs?|revert(?:ed|ing)?|roll(?:ed)?\s+back|defer(?:red)?|declined"
                r"|postponed|punt(?:ed)?|chose|chosen|opted|picked|decided|went\s+with"
                # (the verb, not "preferences": "session starts with preferences" chooses nothing)
                r"|prefer(?:s|red|ring|able|ably)?"
                r"|kept|keep|skip(?:ped)?|avoid\w*)\b"
            ),
        ),
        "change": (
            (
                r"^(?:\S+\s+){0,3}?(?:added|adds|removed|removes|moved|changed|updated|renamed|fixed"
                r"|implemented|created|introduced|bumped|upgraded|downgraded|dropped|replaced"
                r"|refactored|extracted|merged|enabled|disabled|migrated|wired|switched|rewrote"
                r"|rewritten|converted|deleted|precomputed|attached|wrapped|split|made|set|now"
                r"|expanded|extended|documented)\b"
            ),
            r"\bnow\s+(?:\w+s|uses|returns|reads|writes|runs|has|is|are)\b",
            r"\b(?:was|were|has\s+been|have\s+been|is\s+now)\s+(?:\w+ed|made|set|built|written)\b",
        ),
    },
    obligation=(
        (
            r"\b(?:must|must\s+not|mustn't|never|always|should\s+not|shouldn't|should\s+never"
            r"|don't|dont|do\s+not|shouldnt|no\s+more|not\s+allowed|only\s+ever)\b"
        ),
    ),
    offer=(
        (
            r"^(?:want\s+me\s+to|would\s+you\s+like|shall\s+i|should\s+i|let\s+me\s+know|if\s+you"
            r"(?:'d|\s+would)?\s+(?:like|want|prefer)|feel\s+free|happy\s+to|i\s+can\s+also"
            r"|do\s+you\s+want)\b"
        ),
    ),
    to_reader=(
        # The reader asked to act ("If you still see…", "You can…"), not the project described:
        # "per your lint rule" still describes it.
        (
            r"^(?:if\s+you|you\s+(?:can|could|should|may|might|will|need|want|'ll)|please)\b"
            r"|\b(?:please|let\s+me\s+know|when(?:ever)?\s+you(?:'re|\s+are)\s+ready)\b"
            r"|^your\s+(?:\w+\s+){0,3}(?:is|are)\s+(?:now\s+)?(?:live|ready|done|set|complete)\b"
        ),
        # An investigating step for the reader: "Check if there are any scope issues."
        r"^(?:check|identify|try|look|consider|provide|see\s+if|see\s+whether)\b",
        r"^(?:we|i)\s+(?:need|have)\s+to\b",
        # "Verify your main exports and ESM compliance": a step for the reader, on their things
        r"^(?:verify|confirm|ensure|make\s+sure|review|test|double-check)\b[^.]{0,80}\byour\b",
    ),
    hedge=(
        (
            r"\b(?:might|may\s+(?:be|have|not|also)|could\s+(?:be|have|also)|possibly|potentially|perhaps"
            r"|probably|likely|maybe|it's\s+possible|suggests?|it\s+is\s+possible|seems?\s+to"
            r"|appears?\s+to|i\s+think|i\s+believe|should\s+(?:help"
            r"|prevent|fix|resolve|allow|make|work)|will\s+help|hopefully)\b"
        ),
    ),
    directive=(
        r"\b(?:make\s+sure|be\s+sure\s+to)\s+(?:each|every|all|always|to\s+always)\b",
        (
            r"\bfollow\s+(?:our|the\s+repo'?s?|my)\s+(?:\w+\s+){0,2}(?:template|conventions?"
            r"|style|guide)\b"
        ),
    ),
    request=(
        (
            r"^(?:please\s+)?(?:add|create|build|implement|make|fix|update|remove|delete|change"
            r"|write|move|rename|refactor|replace|show|display|include|generate|transform|integrate"
            r"|improve|extend|convert|introduce|design|prepare|set\s+up)\b"
        ),
    ),
    unfinished=(
        r"to|the|a|an|and|or|of|with|for|by|from|into|in|on|at|as|than|that|which|via|using",
        r"should|would|could|will|can|must|may|might|shall",
        r"we|my|our|your|their|its|this|these|such|including|like",
        r"following|follows|below|ensure|either",
        # a verb whose object is the list: "The action now shows:", "Each entry includes:"
        r"shows|includes|contains|lists|returns|displays|means",
    ),
    option=(
        r"(?:option|alternative|approach|proposal)\s+(?:[A-Z]|\d{1,2}|one|two|three)",
        # a line that lists the ways put forward: "Fix options (in order of preference):"
        r"(?:[\w-]+\s+){0,2}(?:options|alternatives|approaches)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)",
        # "Possible fixes:", "Potential causes:": what might be, put forward, not what was found
        (
            r"(?:possible|potential|candidate)\s+(?:fix(?:es)?|solutions?|causes?|workarounds?"
            r"|remed(?:y|ies)|explanations?)\b[^:：\n]{0,40}?(?=\s*[:：]?\s*$)"
        ),
    ),
    reasons=(r"rationale|reasons?|reasoning|why|motivation|justification|root\s+cause|cause",),
    checked=(
        r"test\s+plan",
        r"testing",
        r"tests?",
        r"test\s+results",
        r"how\s+to\s+test",
        r"checklist",
        r"verification",
        r"validation",
    ),
)
