"""Find what is worth keeping in agent prose: decisions, lessons, facts and tasks, by rule.

The cue words live in `mem.extract.cues`, one table per language. This module reads structure:
paragraphs, list items (kept whole across hard wraps), headings and lines that introduce what
follows ("The workaround was to:"), each of which can file the items under it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple

from mem.extract.cues import Compiled, compiled, lowered
from mem.text import SENTENCE_END, cut_at_sentence, cut_words, fence_mark, unfenced

MIN_CHARS = 15  # shorter lines are acknowledgements, headings, noise (see `size`)
# Sentences `classify` reads with the patterns as compiled before it compiles them for lowercased
# text (`lowered`): about what compiling them costs in the time they save.
LOWERED_AFTER = 2000
CLASSIFIED = itertools.count(1)  # sentences classified in this process
ITEM_ENDS = " .;；。"  # what a list item ends on that joining items with "; " replaces
SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")  # list items that are sentences keep them
WIDE_ENDS = ("。", "！", "？")
WIDE = 0x2E80  # from here on, characters are CJK and the like: one says a word
WIDE_CHAR = re.compile(f"[{chr(WIDE)}-{chr(0x10FFFF)}]")
WIDE_RUN = re.compile(f"(?:(?=[{chr(WIDE)}-{chr(0x10FFFF)}])[^\\W\\d_])+")  # CJK words, unspaced
MAX_CHARS = 300  # an extract is cut at a sentence end within this
RULE_WINDOW = 2 * MAX_CHARS  # how much of a sentence the rules read
LONG_PROMPT_CHARS = 1200  # a prompt this long is a document the person gave, not a remark
# A blank to fill: `[identified cause or best hypothesis…]`, `{{name}}`, `<your answer>`, a
# checklist line that only describes what goes there ("- [ ] Why — Why this change is…").
# A blank to fill: "[identified cause or best hypothesis…]", "{{name}}", "<your key>", an entry's
# date written as its format ("YYYY-MM-DD: Implemented X feature"; a rule naming files
# `YYYY-MM-DD.md` is no blank).
BLANK_SOURCE = (
    r"\[[a-z][a-z'-]*(?:,?[ /][a-z][a-z'-]*){2,}(?:…|\.\.\.)?\](?!\()|\{\{\s*[\w.]+\s*\}\}"
    r"|<(?:your|insert|describe|add|enter)\b[^>\n]*>|(?<![\w`])YYYY[-/.]MM[-/.]DD\s*[:：]"
)
BLANK = re.compile(BLANK_SOURCE)
PLACEHOLDER = re.compile(BLANK_SOURCE + r"|^\s*[-*]\s+\[ \].*(?:…|\.\.\.)\s*$", re.MULTILINE)
SECOND_PERSON = re.compile(r"\b(?:you|your|voc[eê]|seu|sua|du|dein\w*)\b|你|您", re.IGNORECASE)
UNCHECKED = re.compile(r"^\s*[-*]\s+\[ \]\s")  # a box to tick: addressed to the reader, a form
TEMPLATE_BLANKS = 2  # this many blanks (or boxes for the reader to tick) make a text a template
TEMPLATE_WINDOW = 20_000  # how far into a text blanks are looked for
PLAN = re.compile(
    r"^\s*(?:implement|execute|carry\s+out)\s+the\s+following\s+plan\b", re.IGNORECASE
)
# The sections an agent's own summary of a session is written in (Claude Code's and OpenCode's
# compaction prompts, session notes): a document the person pasted with three or more of them
# in one unbroken run is an earlier session's summary, mined as one.
SESSION_SECTIONS = re.compile(
    r"^\W{0,6}(?:\d+[.)][ \t]*)?(?:goals?|instructions|discoveries|accomplished|next[ \t]+steps"
    r"|critical[ \t]+context|relevant[ \t]+files(?:[ \t]*/[ \t]*directories)?"
    r"|primary[ \t]+request[ \t]+and[ \t]+intent|key[ \t]+technical[ \t]+concepts"
    r"|files[ \t]+and[ \t]+code[ \t]+sections|errors[ \t]+and[ \t]+fixes|problem[ \t]+solving"
    r"|pending[ \t]+tasks|current[ \t]+(?:work|state|status)|optional[ \t]+next[ \t]+step"
    r"|decisions(?:[ \t]+made)?|open[ \t]+questions|known[ \t]+issues|what[ \t]+was[ \t]+done)"
    r"[^\w\n]{0,4}$",
    re.IGNORECASE | re.MULTILINE,
)
SUMMARY_SECTIONS = 3  # distinct section names that make a pasted text a session's summary
WORD_CHAR = re.compile(r"\w")
LAST_WORD = re.compile(r"\w+\Z")


class Candidate(NamedTuple):
    """Something a careful person would keep, before dedup and storage."""

    category: str  # decisions | lessons | facts | tasks
    kind: str
    text: str
    is_next_step: bool = False  # a task listed under "Next steps" rather than left unfinished
    why: str = ""  # what made it memory, for `mem commit --explain`


class Unit(NamedTuple):
    """A piece of prose the rules judge on its own: a heading, a list item, or a sentence."""

    text: str  # a bullet keeps its marker, so the caller can tell "- [ ]" from "- [x]"
    kind: str  # heading | title | bullet | sentence
    indent: int  # a list item's nesting, a heading's level (`heading_level`); -1 otherwise
    block: int  # units of one paragraph, or of one unbroken list, share a block
    in_bullet: bool = False  # a later sentence of a list item
    in_table: bool = False  # a table's row, its cells joined as a list item's words
    # A sentence of a paragraph whose every line is a statement of its own ("Findings" and
    # the lines under it, as a pasted issue keeps a list that lost its markers).
    own_line: bool = False


Filing = tuple[str, str]  # (category, kind); ("", "") files nothing; NEXT_STEP marks next steps
NEXT_STEP: Filing = ("tasks", "next")

BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s+)?")
# Leading status markers: emoji, `[OK]`, `[ERRO]`, `✅`, a checkmark: not words.
MARKER = re.compile(r"^(?:[^\w\s#*_`'\"(\[</.~-]+\s*|\[[A-Z_]{2,12}\]\s*)+")
# What was done, reported as a step ("Verified all tests pass", "Added X to Y"): a changelog line,
# kept under a decisions heading only when it gives a reason.
REPORTED_STEP = re.compile(
    r"^(?:verified|ran|executed|installed|committed|committing|pushed|pushing|formatted|inspected"
    r"|performed|analy[sz]ed|confirmed|created|added|updated|modified|deleted|removed|tested"
    r"|reviewed|all\s+\d+)\b",
    re.IGNORECASE,
)
REASON = re.compile(
    r"\b(?:so\s+that|so|because|since|instead\s+of|rather\s+than|to\s+avoid|to\s+keep"
    r"|prefer\w*|over|not)\b",
    re.IGNORECASE,
)
# The words that give a reason, of REASON's: not its "not" or "over", which also negate or compare.
BECAUSE = re.compile(
    r"\b(?:so\s+that|so|because|since|instead\s+of|rather\s+than|to\s+avoid|to\s+keep)\b",
    re.IGNORECASE,
)
LABEL_LINE = re.compile(r"^\W{0,3}[A-Z][\w/]*(?:[ -][\w/]+){0,3}\s*:\s+\S")
NUMBERED_HEADING = re.compile(r"^\d+(?:\.\d+)+\.?\s+[^\W\d_][^!?:]{2,80}(?<![.!?:])$")
# "2. KNOWN BUGS", "HIGH (Bugs/Functionality)": capitals, maybe numbered, maybe a gloss after.
CAPS_HEADING = re.compile(
    r"^(?:\d+[.)]\s+)?[A-ZÄÖÜÀ-Ý][A-ZÄÖÜÀ-Ý0-9 &/+-]{3,60}(?:\s+\([^()]{1,40}\))?$"
)
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)[.)]?\s")
LEAF_LEVEL = 9  # a heading drawn in bold, capitals or alone: below any `#` or numbered one
HEADING_WORDS = 6  # a line standing alone this short, with no sentence end, heads what follows
HEADING_CHARS = 80  # a heading is short, as a reader weighs it (`size`)
# A heading for what need not be done: what it lists is no task for the next session (its
# lessons and rules still are).
LOW_PRIORITY = re.compile(
    r"\b(?:low(?:er)?\s+priority|nice[- ]to[- ]have|niedrig|baixa\s+prioridade)\b|低优先级|低優先度",
    re.IGNORECASE,
)
TABLE_ROW = re.compile(r"^\|.*\|$")
TABLE_RULE = re.compile(r"^\|[\s:|-]*-[\s:|-]*\|$")
# A test run's status is no memory: "All 18 tests passing", "72 tests pass with `pytest`".
STATUS_LINE = re.compile(
    r"^(?:all\s+)?(?:\d+\s+)?(?:\w+\s+){0,3}(?:tests?|checks?|specs?|builds?|lint)\b.{0,40}"
    r"\b(?:pass|passes|passed|passing|green|ok|succeed\w*|clean)\b"
    r"|^\(?(?:all\s+)?(?:items?|tasks?|todos?)\s+(?:completed|done)\b"
    r"|[—:-]\s*(?:no\s+(?:\w+\s+)?(?:issues|errors|warnings|failures)|all\s+(?:\w+\s+)?(?:tests?"
    r"|checks?)\s+pass\w*)\b[^a-z]*$"
    # a checklist's line marked done: "**CI push access** → ✅ done (this screen)."
    r"|(?:→|->|[—:])\s*(?:✅\s*)?(?:done|complete|completed|fixed|resolved|ok)\b[^a-z]*(?:\([^)]*\))?\W*$",
    re.IGNORECASE,
)
# The work judging itself done: "All docs are now consistent", "está 100% validado", "is
# ready for submission". Said at the end of a session, and true only then.
SELF_VERDICT = re.compile(
    r"\b(?:is|are|was|were|está|estão|ficou|ficaram|ist|sind)\s+(?:now\s+|agora\s+|jetzt\s+)?"
    r"(?:all\s+|fully\s+|totally\s+|100\s*%\s+)?(?:validated|validad[oa]s?|complete|complet[oa]s?"
    r"|ready|pront[oa]s?|consistent|consistentes?|fertig|vollständig|done|finished|working"
    r"|funcionando|aligned|alinhad[oa]s?)\b"
    # how well the change will do, promised: "Now the sync will handle pagination properly",
    # "The action should now work", "The code is now much cleaner" (not what it will do: "Now
    # it will refuse to start if…", "Old sessions will now be pruned…")
    r"|^now,?\s+(?:the|this|it|we|you)\b[^.;:]*?\b(?:will|should)\b[^.;:]*?\b(?:properly"
    r"|correctly|better|much\s+more|far\s+more|more\s+robust\w*|as\s+expected)\b"
    r"|\b(?:should|will)\s+now\s+work\b"
    r"|\b(?:is|are)\s+now\s+(?:much\s+|far\s+|a\s+lot\s+|very\s+)?(?:cleaner|better|simpler"
    r"|more\s+(?:robust|readable|consistent|maintainable)|production[- ]ready)\b",
    re.IGNORECASE,
)
# A step of the workflow, not a finding: "Created and switched to `codex/x`", "Executed `uv run
# ruff`", "Added `--include-file`, committed, and pushed.", "Fixed — one line in x".
WORKFLOW_STEP = re.compile(
    r"^(?:[\w ]{2,30}:\s+)?(?:created\s+and\s+switched|checked\s+out|executed"
    r"|switched\s+to\s+(?:the\s+)?(?:new\s+)?(?:branch|`[^`\s]*/)"
    r"|ran\s+`|pushed|committed\s+(?:and|&)\s+pushed)\b"
    r"|(?:,|\s+and)\s+(?:committed|pushed)(?:,?\s+and\s+(?:pushed|committed))?[.!]?$"
    r"|^(?:fixed|done|resolved)\s*[—–-]\s",
    re.IGNORECASE,
)
# What the work touched, listed ("Files modified: Main.kt, README.md", or a list under such a
# label): the diff and the commits hold it whole.
FILES_TOUCHED = (
    r"(?:key\s+)?files?\s+(?:modified|changed|touched|created|updated)"
    r"|(?:modified|changed)\s+files|arquivos\s+(?:modificados|alterados)|geänderte\s+dateien"
    r"|修改的文件|变更文件|変更(?:した)?ファイル"
)
# Where the work stands (its commit, branch, PR, status, date, files): the handoff's, not memory.
STATE_LABEL = re.compile(
    r"^(?:last\s+)?(?:branch|status|pr|pull\s+request|updated|last\s+updated|date|time|tracking"
    rf"|{FILES_TOUCHED})\s*[:：]",
    re.IGNORECASE,
)
TOUCHED_LIST = re.compile(
    rf"^(?:#+\s*)?(?:\d+[.)]\s*)?\**\s*(?:{FILES_TOUCHED})(?:\s*\([^)]*\))?[\s*:：]*$",
    re.IGNORECASE,
)
# A check's result, unless it says why ("Build: requires Node 20 because…").
CHECK_LABEL = re.compile(
    r"^(?:(?:visual|manual|final)\s+)?(?:validation|verification|build|tests?|valida[cç][aã]o"
    r"|verifica[cç][aã]o|testes?|überprüfung|prüfung|验证|测试|検証|テスト)"
    r"(?:\s+(?:visual|manual|final))?\s*[:：]",
    re.IGNORECASE,
)
# A list under a line that says it is all done ("All blocking issues resolved:"): the work
# of the session, the handoff's to tell, not open issues. (Not "Bugs fixed:": each says what
# broke and how it was fixed.)
DONE_LIST = re.compile(
    r"^all\s+(?:[\w-]+\s+){0,2}(?:issues|blockers|items|tasks|todos|checks|comments)"
    r"\s+(?:(?:are|were|have\s+been|now)\s+)*(?:resolved|fixed|addressed|closed|completed|done)"
    r"[\s*:：]*$",  # "…resolved, but these remain open:" lists what is not done
    re.IGNORECASE,
)
# A report's own one-line summary is the handoff's What, not another memory.
SUMMARY_LABEL = re.compile(
    r"^(?:summary|resumo|tl;?dr|总结|zusammenfassung|まとめ)\s*[:：]", re.IGNORECASE
)
# A thought in a pasted transcript ("Thinking: Hmm, the grep found nothing."): the way, not
# what was found.
THOUGHT_LABEL = re.compile(r"^(?:thinking|thought|reasoning|pensando|思考)\s*[:：]", re.IGNORECASE)
# "Good, the other path already loads settings first": the interjection is chatter, the
# rest may state something.
INTERJECTION = re.compile(
    r"^(?:good|great|perfect|ok(?:ay)?|excellent|nice|alright|sure|got\s+it)\b[,.!:—–-]+\s*(?=\S)"
    # "Done — added `X` to the env block": the word says it is done, the rest what was
    r"|^(?:done|fixed|resolved)\s+[—–-]\s+(?=\S)",
    re.IGNORECASE,
)
# "After reviewing the commit, I realize that the change misses X": what was found is the
# clause after "that"; the finding, not the agent's coming to it, is memory.
FINDING_LEAD = re.compile(
    r"^(?:[^,.;:]{0,80},\s*)?(?:(?:i|we)\s+)?(?:now\s+|also\s+)?(?P<verb>realize|realise"
    r"|realized|realised|noticed|found|discovered|learned|learnt|confirmed|verified)\s+that\s+"
    r"(?=\S)",
    re.IGNORECASE,
)
# "Found it — the job never ran Alembic…", "Found the problem: …", "I found one more gap: …":
# the paragraph this opens tells what was found.
FOUND_IT = re.compile(
    r"^(?:(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:also\s+)?(?:found|identified|spotted|located"
    r"|tracked\s+down)\s+(?:it|the\s+(?:\w+\s+){0,2}(?:bug|issue|problem|cause|culprit|gap"
    r"|regression)|(?:a|an|one|another|one\s+more)\s+(?:\w+\s+){0,2}(?:bug|issue|problem|gap"
    r"|regression|race|leak|mismatch))"
    # "I see the issue.", "The root cause is clear.": what follows says it
    r"|(?:now\s+)?i\s+see\s+the\s+(?:issue|problem|bug)(?:\s+now)?|the\s+(?:root\s+)?cause\s+is"
    r"\s+(?:now\s+)?clear)\s*(?:[:—–.]|\s-\s|!)\s*",
    re.IGNORECASE,
)
FINDING_SENTENCES = 3  # what a paragraph opened by "Found it —" tells, at most
PLANNED = re.compile(r"\b(?:i'll|i\s+will|i'm\s+going\s+to|let\s+me|let's|we'll)\b", re.IGNORECASE)
# Of those, the words that say something was found out: what follows them is a lesson.
FOUND_OUT = re.compile(
    r"\b(?:reali[sz]ed?|noticed|found|discovered|learned|learnt)\b", re.IGNORECASE
)
# A tool's own line in an export ("Read file: src/start.ts", "Ran command: …").
TOOL_LINE = re.compile(
    r"^(?:read|edit(?:ed)?|wrote|write|ran|run|searched|search|listed|list|viewed|view|grep"
    r"|glob|called|fetched)\s+(?:file|files|dir(?:ectory)?|command|tool|terminal|url)\b\s*[:(]",
    re.IGNORECASE,
)
EXCLAMATION_CHARS = 60  # "Great observation!": an exclamation this short says nothing
QUESTION_WORD = re.compile(
    r"^(?:what|why|how|when|which|who|o\s+que|por\s+que|como|quando|qual|quais|was|warum|wie"
    r"|wann|welche\w*)\b",
    re.IGNORECASE,
)
# A task reported done later: most of its words again, beside a word that says it is done.
DONE = re.compile(
    r"\b(?:done|finished|completed?|fixed|resolved|implemented|added|updated|rebuilt|removed"
    r"|merged|pushed|committed|created|migrated|now\s+\w+s)\b|✅|\[x\]|conclu[ií]d|feito|完成"
    r"|erledigt|behoben|完了",
    re.IGNORECASE,
)
# A later sentence that takes an earlier claim back: undone, or wrong, or replaced.
REVERTED = re.compile(
    r"\b(?:revert(?:ed|ing)?|roll(?:ed)?\s+back|undid|undone|didn't\s+work|did\s+not\s+work"
    r"|doesn't\s+work|broke\s+the|failed\s+to\s+(?:compile|build)|revertid|desfeit|rückgängig)"
    r"|回滚|撤销|恢复",
    re.IGNORECASE,
)
CORRECTED = re.compile(
    r"\b(?:actually|correction|i\s+was\s+wrong|that\s+was\s+wrong|not\s+quite|on\s+second"
    r"\s+thought|na\s+verdade|corrigindo|eigentlich|korrektur)\b|实际上|更正|実際には|訂正",
    re.IGNORECASE,
)
CORRECTED_SHARE = 0.6  # of an earlier claim's words a later sentence names to take it back
DONE_WORDS = 3  # a task this short says too little to be recognised done
DONE_SHARE = 0.6
STEM = 5  # letters of a word compared: "rebui" of rebuild, rebuilt, rebuilding
# What a statement's words say of it, read when no rule claims it (see `meaning`):
# Words that carry a thought on from the one before it.
GOING_ON = r"but|so|and|then|also|however"
# What follows "this" or "these" used as a pronoun: a verb, not the noun of a determiner.
PRONOUN_NEXT = (
    r"is|was|are|were|means?|meant|will|would|can|could|should|may|might|must|has|had|have"
    r"|does|did|got|gets|now|again|also|just|only|still|seems?|looks?|makes?|made|explains?"
    r"|happens?|happened|works?|worked|fails?|failed|breaks?|broke|causes?|caused|leads?|led"
    r"|one|ones|way|part|alone|too|all|both|itself|\w+n't|\w+ed|\w+ly(?<!family|supply)"
)
DANGLING = re.compile(
    # "This is why…", "These were retries": a pronoun for what came before; not "This repo
    # nests everything under `plugins/`": a determiner, the noun after it names the thing.
    # ("This fixes…", "That got fixed", "These shouldn't…": a verb after it, a pronoun.)
    rf"^(?:{GOING_ON}|(?:that|this)(?=\s*[,.;:!?]|\s*$|\s+(?:{PRONOUN_NEXT}|\w+(?<![ius])s)\b)"
    rf"|(?:these|those)(?=\s*[,.;:!?]|\s*$|\s+(?:{PRONOUN_NEXT})\b)|that's|they|it|it's|its|he"
    r"|she|neither"
    r"|each\s+(?:was|is|were|are|has|had|of)|both\s+(?:are|were|have|had|of)|mas|ent[aã]o|eles"
    r"|elas|isso|isto|esse|essa|aber|und|dann|dies\w*)\b",
    re.IGNORECASE,
)
# The writer speaking of themself ("It took me a while…", "…and I then ran the tests").
SELF = re.compile(r"\b(?:I|I'm|I've|I'll|I'd)\b|\b(?:me|my)\b")
# A sentence that opens on a pronoun for what the sentence before it said ("They come from…",
# "It was deleted…", "Isso acontece porque…", "Dies liegt an…", "这是因为…", "これで…"): not one
# that carries a thought on ("But…", "So…", "Aber…", "Então…"), which stands as a sentence of
# its own, nor "这个命令…" ("this command"), whose noun names what it speaks of.
REFERS_BACK = re.compile(
    rf"^(?:(?:that|this)(?=\s*[,.;:!?]|\s*$|\s+(?:{PRONOUN_NEXT}|\w+(?<![ius])s)\b)"
    rf"|(?:these|those)(?=\s*[,.;:!?]|\s*$|\s+(?:{PRONOUN_NEXT})\b)|that's|they|it|it's|its"
    r"|eles|elas|isso|isto|esse|essa|dies\w*)\b"
    r"|^(?:(?:这|那)(?:是|就是|也是|意味着|说明|导致|样)|它|他们|她们|此时"
    r"|(?:これ|それ)(?:は|が|で|に|を|も)|ここは|そのため)",
    re.IGNORECASE,
)
STEMS_FROM = re.compile(r"\b(?:stems?|stemmed|comes?|came)\s+from\b", re.IGNORECASE)
# A conclusion drawn, with a subject of its own ("So the guard is redundant"): the sentence
# goes on from the one before, yet says its finding whole. (After "But": see CONTRASTED.)
JOINED_ON = re.compile(
    r"^(?i:so|and\s+so|hence|thus|therefore|but|however),?\s+"
    r"(?=(?i:the|a|an|its|their|our)\s|(?!I\s)[A-Z]\w*(?:'s)?\s|`)"
)
# After "But" a statement stands alone when it says why ("But `X` records any return as a
# success — so returning `{}` flips the flag"); else it answers the thought before it.
CONTRASTED = re.compile(r"^(?:but|however)\b", re.IGNORECASE)
REASONED = ("cause", "choice")
# "But actually, the staged changes don't include…": a thought going on from the last, in a
# pasted log; not a rule the person set.
GOES_ON = re.compile(rf"^(?:{GOING_ON}|actually|hmm)\b", re.IGNORECASE)
# A sentence whose subject is a name in code: "`--include-file` is repeatable", "The
# `gitService.branch` method first checks…", "`record.Write` signs commits via…".
NAMED_SUBJECT = re.compile(
    r"^(?:the\s+)?`[^`\s]{2,60}`(?:\s+(?:method|function|flag|option|field|file|command|class"
    r"|module|endpoint|hook|setting|variable|table|column|key|script|step|job|type))?\s+"
    r"(?:\w+ly\s+)?(?:is|are|was|has|have|does|returns|uses|accepts|reads|writes|runs|calls"
    r"|checks|requires|expects|supports|defaults|lives|holds|stores|takes|sends|signs|loads"
    r"|keeps|skips|treats|needs|only|never|always|first|still|now)\b",
    re.IGNORECASE,
)
LATER_CLAUSE = re.compile(r",\s+and\s+|;\s+|,\s+but\s+|\s+—\s+")
ACTED_ON = re.compile(
    r",\s+so\s+(?:i'm|i\s+am|i'll|i\s+will|let\s+me|let's|i\s+need|we\s+need|we'll|i\s+should"
    r"|i'm\s+going|next\s+i)\b",
    re.IGNORECASE,
)
PERCEIVING = re.compile(
    r"\b(?:don't|do\s+not|dont|can't|cannot)\s+(?:see|know|think|find|understand|believe"
    r"|remember|have)\b",
    re.IGNORECASE,
)
ACTION_START = re.compile(
    r"^(?:\S+\s+){0,1}(?:added|created|deleted|removed|updated|opened|fixed|wrote|ran|moved"
    r"|renamed|implemented|verified|checked|made|set|changed|replaced|pushed|committed|merged"
    r"|resolved|closed|expanded|extended|documented|drafted|outlined)\b",
    re.IGNORECASE,
)
# A past tense with no subject before it, then its object: "Modified `LwpmApp` to…",
# "Installed the hooks".
# (Not a verb that ends so in the present, "Embed the hash…", nor one whose past looks like
# its imperative, "Read `docs/x.md` before…": an instruction, which may well be a fact. Before
# a name in code, only a verb of changing things: "Nested `<form>` elements break…" opens on
# an adjective.)
PAST_ACTION = re.compile(
    r"^(?:\*\*)?(?:"
    r"(?:Added|Updated|Modified|Changed|Created|Removed|Deleted|Renamed|Moved|Fixed|Installed"
    r"|Configured|Implemented|Replaced|Refactored|Extracted|Threaded|Wrapped|Bumped|Pinned"
    r"|Upgraded|Downgraded|Enabled|Disabled|Formatted|Rewrote|Wrote|Ran|Built|Made|Set\s+up)"
    r"\*{0,2}\s+(?:the|a|an|all|both|its|their|our|two|three|[`\[\"'*])"
    r"|(?!(?:Embed|Need|Feed|Seed|Shed|Speed|Proceed|Succeed|Exceed|Breed|Bleed|Heed|Weed|Shred)\b)"
    r"[A-Z][a-z]{2,}ed\*{0,2}\s+(?:the|a|an|all|both|its|their|our|two|three)\b)"
)
# A later clause saying the agent is doing it now: the work it names is under way, not open.
UNDER_WAY = re.compile(
    r"[;,—–]\s*(?:and\s+)?(?:now\s+)?(?:I['’]m|I\s+am|we['’]re|we\s+are)\s+(?:now\s+)?\w+ing\b",
    re.IGNORECASE,
)
FAILURE_WORDS = 6  # a failure said in fewer words is a status, not a finding
# A failure supposed, not found: "If `'voucherNumber'` doesn't work, we can try `'voucher'`":
# a condition the sentence answers with a plan (not "If the cache is missing, the loader
# returns nothing": how the code behaves).
SUPPOSED = re.compile(
    r"^(?:(?:if|in\s+case|wenn|se|caso)\b|如果|假如|もし)"
    r".*?(?:\b(?:we\s+(?:can|could|will|would)|i\s+(?:can|could|will|would)|i'll|we'll|let's"
    r"|let\s+me|you\s+(?:can|could)|podemos|können\s+wir)\b|可以|ましょう)",
    re.IGNORECASE,
)
# A failure's name, that something went wrong, not how: "the insert fails", "an error".
# Alone it says a symptom (or an error handling's subject); what was learned says how it
# went wrong (missing, never, does not…) or why (a cause); what will fail is a consequence.
SYMPTOM = re.compile(
    # "keine Fehler mehr", "no errors": none, said with the word that denies it
    r"\b(?:kein\w*|no)\s+(?:fehler\w*|problem\w*|errors?|issues?|problems?)\b"
    r"|(?<!will )(?<!would )\b(?:fail(?:s|ed|ing|ures?)?|errors?|errored|erroring|bugs?"
    r"|regressions?|crash\w*|broke|broken|problems?|issues?|falh\w+|erros?|problemas?|quebr\w+"
    r"|fehler\w*|fehlgeschlagen|fehl|problem\w*)\b"
    r"|失败|错误|报错|问题|失敗|エラー|問題",
    re.IGNORECASE,
)
# What goes wrong besides a failure signal: a known failure is often a warning or a timeout.
TROUBLE = re.compile(r"\b(?:warnings?|timeouts?|timing\s+out|lint|reformat\w*)\b", re.IGNORECASE)
UNRELATED = re.compile(r"\bunrelated\b|\bnot\s+(?:part\s+of|ours)\b", re.IGNORECASE)
FACT_ANCHOR = re.compile(
    r"`[^`]+`|\w/\w|\b\w+\.[a-z]{1,5}\b|https?://|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*"
    r"|\b\w+_\w+|\b[A-Z]{2,}\b|[A-Za-z]\d|\d[A-Za-z]"
)
# A commit named with its subject: "Commit: `462a28b` — `gitproto: …`", "`ec4b1d8` — chore: …"
COMMIT_NAMED = re.compile(
    r"^(?i:commit(?:ted)?s?(?:\s+as)?\s*:?\s*)?`?[0-9a-f]{7,40}`?\s*[—–:-]\s*\S"
)
LOCAL_LINK = re.compile(r"file://|\]\(/(?:Users|home|tmp|var)/|[A-Z]:[\\/]Users", re.IGNORECASE)
PATH_LIKE = re.compile(r"/|\.[A-Za-z]{1,5}`?$")  # `src/x`, `discovery.json`: a place, not words
FACT_WORDS = 3  # a listed fact says at least this many words besides paths
OPEN_QUESTION_WORDS = 3  # "Yank v0.2.2 from PyPI?"; "Why?" decides nothing
TO_READER_QUESTION = re.compile(
    r"\b(?:you|your|me|i|shall\s+we|should\s+we\s+(?:start|begin|continue))\b", re.IGNORECASE
)
TITLE_WORDS = 3  # a heading that names an item alone says this many words
LISTED_WORDS = 2  # an item its heading files says this many (a list of links says nothing)
STATEMENT_MIN_WORDS = 5  # what a signal files says at least this many
LABELLED_WORDS = 3  # what a label files in a heading says this many, names included
# A label's value still to come: "Testing strategy: TBD".
PLACEHOLDER_VALUE = re.compile(
    r"^[\s*_`]*(?:tbd|tba|todo|n/?a|none|unknown|pending|see\s+below)\b", re.IGNORECASE
)
# In a person's document, a change is work asked for and a failure the problem to solve; what
# it states of the project without a rule or a cause is context for this session only.
PERSON_SKIPS = frozenset({"change", "failure"})
QUOTE_CHARS = 40  # how much of a matched cue `--explain` shows
STATEMENT_WORDS = 5  # a report's line ending in a colon this long also states something
# A sentence that ends on a word that needs more ("Evaluations fail with" before a code block)
# was cut where the text went on in another form: half a statement.
CUT_SHORT = re.compile(
    r"\b(?:with|by|as|to|of|the|a|an|for|from|in|on|at|like|and|or|is|are|was|were|que|de|com"
    r"|mit|und|von|der|die|das)\s*$",
    re.IGNORECASE,
)
LABEL_PREFIX = re.compile(r"^[\w ]{2,30}:\s+")  # "Implementation: All 72 tests pass"
REPORT_MIN_CHARS = 25  # a knowledge document's statement shorter than this says too little
UNSIGNALLED_CHUNKS = 2  # entries of at most MAX_CHARS each such a list of facts makes
UNSIGNALLED_FACTS = 2  # a document's facts that show no signal of meaning, kept in order
HEADING_CONTEXT = 60  # a heading this short is kept before the items under it
SYSTEM_REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL)

STACK_FRAME = re.compile(r"^at\s+[\w$.<>]+\s*\(.*\)$|^at\s+\S+:\d+")
# Source code outside a fence: declarations, box-drawn repo maps, statement endings.
CODE_LINE = re.compile(
    r"^(?:export|import|from\s+\S+\s+import|def|class|function|async\s+(?:function|def)|const|let"
    r"|var|return|public|private|protected|fn|func|package|#include|using)\b[^.!?]*$"
    r"|^@(?:param|returns?|throws|type|typedef|example|see)\b"
    r"|[│┃├└╭╰┌└]|[;{]\s*$"
    r"|^[\w.$]+\((?=[^\n]*[{}'\"]).*\)[;,]?$"  # a call with literals: highlight(0, 'X', { fg })
)
INLINE_CODE = re.compile(r"`[^`\n]+`")
LINK = re.compile(r"<?https?://\S+")
AGENT_NOTES_LINK = re.compile(
    r"\]\((?:file://)?[^)\s]*[\\/](?:\.claude|\.gemini|\.codex|\.cursor|\.copilot)[\\/]"
)
LOCAL_FILE_LINK = re.compile(
    r"\[([^\]\n]{1,120})\]\((?:file://|/|~/|[A-Za-z]:[\\/])"
    r"(?![^)\s]*[\\/](?:\.claude|\.gemini|\.codex|\.cursor|\.copilot|AppData|tmp)[\\/])[^)\s]*\)"
)
REFERENCE_WORDS = 6  # a list item this short beside its links names a source, says nothing
REFERENCE_NOT = re.compile(r"[:`=→]|->")  # a label, code or a mapping beside a link
LINKED_BY = re.compile(
    r"\b(?:by|in|at|to|from|of|see|via|on|for|with|per|is|are|was)$", re.IGNORECASE
)
NON_SPACE = re.compile(r"\S+")
TWO_LETTERS = re.compile(r"[^\W\d_]{2,}")
FOUR_LETTERS = re.compile(r"[^\W\d_]{4,}")
DIFF_LINE = re.compile(r"^[+-](?![-+\s]*$)\S")
# Emphasis is flattened; text that only looks like it stays as written: a glob
# (`tests/**/*.ts`), a dunder (`__init__.py`), `V{NNN}__{name}.sql`, `*args`.
BOLD_QUESTION = re.compile(r"^\*\*[^*\n]{2,120}[?？]\*\*")  # a sentence that opens asking
IF_ANSWER = re.compile(
    r"^(?:if\s+(?:not|so|yes|no)|otherwise|se\s+n[aã]o|falls\s+nicht)\b", re.IGNORECASE
)
BOLD_LINE = re.compile(r"^\*\*[^*]+\*\*\s*[:：]?$")  # a line that is a bold title alone
STRESSED_WORDS = 4  # a stressed clause that states says this many words at least
FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|i'll|we|we've|we're|we'll)\b", re.IGNORECASE)
# A verb that states how something is or behaves, not what to do: "is", "never runs", "works".
STATES = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|hasn't|haven't|does|doesn't|did"
    r"|didn't|can't|cannot|won't|never|must|only|always|needs|uses|runs|breaks|fails|records"
    r"|returns|works|requires|reads|writes|lives|belongs|keys|ignores|skips|drops)\b",
    re.IGNORECASE,
)
# A step for someone to take ("Run these tests serially"), or what a feature does said with
# no subject ("Uses existing HTTP Client infrastructure"): no finding.
STEP_VERB = re.compile(
    r"^(?:run|use|add|make|set|check|tr(?:y|ies)|ensure|keep|create|update|remove|install"
    r"|continue|track|log|return|work|handle|support|provide|process|show|allow)s?\b",
    re.IGNORECASE,
)
BOLD = re.compile(r"(?<![\w*/\\])\*\*(?=[^\s*])(.+?)(?<=[^\s*/\\])\*\*(?![\w*/])")
EMPHASIS = re.compile(r"(?<!\w)__(?=\S)([^_\n]*\s[^_\n]*?)(?<=\S)__(?!\w)")
OUTPUT_STARTS = (
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
    "<",
)


def sentences(text: str, cues: Compiled | None = None) -> list[str]:
    """Split prose at sentence ends, never inside `inline code` (`XCLAIM ... JUSTID`)."""
    cues = cues or compiled()
    spans = [(m.start(), m.end()) for m in INLINE_CODE.finditer(text)] if "`" in text else []
    cuts = [
        m
        for m in cues.sentence_end.finditer(text)
        if not spans or not any(start < m.start() < end for start, end in spans)
    ]
    parts, last = [], 0
    for m in cuts:
        parts.append(text[last : m.start()])
        last = m.end()
    parts.append(text[last:])
    return [part for part in parts if part.strip()]


def looks_like_output(line: str) -> bool:
    """Tell tool output, tracebacks, diffs, tables and code from prose."""
    stripped = line.strip()
    if not stripped:
        return False
    if line.startswith(("    ", "\t")) and not BULLET.match(line):
        return True  # indented code or a traceback frame
    if stripped.startswith(OUTPUT_STARTS):
        return True
    if DIFF_LINE.match(stripped) and not BULLET.match(line):
        return True  # a diff line
    if STACK_FRAME.match(stripped) or CODE_LINE.search(stripped):
        return True
    # Inline code counts as one word, so prose full of `identifiers` still reads as prose.
    prose = INLINE_CODE.sub("code", stripped)
    letters = sum(map(str.isalpha, prose))
    return letters < len(prose) * 0.5  # mostly symbols, paths, numbers


def is_heading_line(line: str, alone: bool) -> bool:
    """A heading drawn without `#`: numbered as a section ("1.1 Missing options", "2. KNOWN
    BUGS"), or a short line standing alone with no sentence end ("Overview")."""
    if NUMBERED_HEADING.match(line) or CAPS_HEADING.match(line):
        return True
    words = line.split()
    return (
        alone
        and 0 < len(words) <= HEADING_WORDS
        and size(line) <= HEADING_CHARS  # a CJK sentence is a few "words" for all its length
        and line[:1].isupper()
        and not line.endswith((".", "!", "?", ";", ",", "。", ")"))
        and ":" not in line
        and "：" not in line
        and "`" not in line
        and not BULLET.match(line)
        and not looks_like_output(line)
    )


def is_section_name(line: str) -> bool:
    """A line that is only a section's name ("Expected behavior", "Root cause", "Findings"):
    a heading, with or without blank lines around it."""
    if len(line.split()) > HEADING_WORDS or line.endswith((".", "!", "?", ";", ",", "。")):
        return False
    return named_section(clean(MARKER.sub("", line)).strip(), compiled()) is not None


def is_title_line(line: str) -> bool:
    """A short line that names what follows: `**Why:**`, `Known issues:`, `**What was wrong**`."""
    bare = MARKER.sub("", line).strip("*_ ")
    if len(bare) > 40 or len(bare.split()) > 5:
        return False
    return bare.endswith((":", "：")) or (
        line.startswith(("**", "__")) and line.endswith(("**", "__"))
    )


def prose_units(text: str) -> Iterator[Unit]:
    """Yield the units of a message's prose, skipping code fences, tool output and system text.

    A list item is one unit across hard-wrapped lines; a line that opens with a label
    (`TODO:`, `Fix:`) is a unit of its own and never swallows the line after it.
    """
    cues = compiled()
    if "<system-reminder>" in text:
        text = SYSTEM_REMINDER.sub("", text)
    in_fence = False
    block = 0
    paragraph: list[str] = []
    bullet: list[str] = []  # the lines of the list item being read
    bullet_indent = -1
    label_open = False  # the paragraph is a label line: the next unindented line is not its tail
    in_list = False

    def flush() -> Iterator[Unit]:
        nonlocal block, bullet_indent, label_open
        if bullet:
            joined = " ".join(part.strip() for part in bullet)
            bullet.clear()
            marker = BULLET.match(joined)
            if marker is not None:  # an empty item ("- ") holds nothing
                first, *rest = sentences(joined[marker.end() :].strip(), cues) or [""]
                yield Unit(joined[: marker.end()] + first, "bullet", bullet_indent, block)
                for sentence in rest:
                    yield Unit(sentence, "sentence", bullet_indent, block, True)
        if paragraph:
            joined = " ".join(part.strip() for part in paragraph)
            listed = len(paragraph) > 1 and all(map(is_statement_line, paragraph))
            paragraph.clear()
            block += 1
            for sentence in sentences(joined, cues):
                yield Unit(sentence, "sentence", -1, block, own_line=listed)
        label_open = False

    def end_list() -> None:
        nonlocal in_list, block
        if in_list:
            in_list = False
            block += 1

    lines = text.splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not in_fence and TABLE_ROW.match(stripped):
            # A table's body rows are items, as a list's are; its header and rule are not.
            yield from flush()
            following = lines[index + 1].strip() if index + 1 < len(lines) else ""
            if not TABLE_RULE.match(stripped) and not TABLE_RULE.match(following):
                cells = [clean(cell) for cell in stripped.strip("|").split("|")]
                row = " — ".join(cell for cell in cells if cell)
                if row and not looks_like_output(row):
                    if not in_list:
                        block += 1
                        in_list = True
                    yield Unit("- " + row, "bullet", 0, block, in_table=True)
            continue
        if fence_mark(line):
            yield from flush()
            in_fence = not in_fence
            continue
        if in_fence or not stripped:
            yield from flush()
            continue
        marker = BULLET.match(line)
        if looks_like_output(line) and not marker:
            yield from flush()
            continue
        alone = not (lines[index - 1].strip() if index else "") and not (
            lines[index + 1].strip() if index + 1 < len(lines) else ""
        )
        # A section's name on a line of its own heads what follows even with no blank line
        # around it, if the line before it ended (not "…which overrides\nthe key decisions\n").
        previous = lines[index - 1].strip() if index else ""
        after_end = not previous or previous.endswith((".", "!", "?", ":", "。", "：", "！", "？"))
        named = after_end and stripped[:1].isupper() and is_section_name(stripped)
        if is_heading_line(stripped, alone) or (
            not marker and (stripped.startswith("#") or is_title_line(stripped) or named)
        ):
            yield from flush()
            end_list()
            marked_up = stripped.startswith(("#", "**", "__"))
            kind = "title" if is_title_line(stripped) and not marked_up else "heading"
            block += 1
            yield Unit(stripped.lstrip("#").strip(), kind, heading_level(stripped), block)
            continue
        if marker:
            yield from flush()
            if not in_list:
                block += 1
                in_list = True
            bullet.append(line)
            bullet_indent = len(line) - len(line.lstrip())
            continue
        is_label = bool(LABEL_LINE.match(stripped))
        indented = line[:1].isspace()
        if bullet and (indented or not is_label):
            bullet.append(line)  # a hard-wrapped list item goes on
            continue
        if paragraph and (is_label or (label_open and not indented)):
            yield from flush()
        if not paragraph:
            end_list()
        paragraph.append(line)
        label_open = label_open or is_label
    yield from flush()


def is_statement_line(line: str) -> bool:
    """Whether a line of a paragraph is a statement of its own: it opens as a sentence does
    and ends as one does (a hard-wrapped sentence's lines do not)."""
    stripped = line.strip()
    return stripped[:1].isupper() and stripped.endswith((".", "!", "。", "！"))


def heading_level(line: str) -> int:
    """How deep a heading sits: its `#`s, else its section number's parts ("6." is 1, "1.4"
    is 2), else a leaf under any of those (bold, capitals, a short line alone)."""
    hashes = len(line) - len(line.lstrip("#"))
    if hashes:
        return hashes
    number = SECTION_NUMBER.match(line.strip("*_ "))
    return number[1].count(".") + 1 if number else LEAF_LEVEL


def body_of(unit: Unit) -> str:
    """A unit's words: without its list marker, status markers (`[OK]`, `✅`) and emphasis."""
    marker = BULLET.match(unit.text) if unit.kind == "bullet" else None
    return clean(MARKER.sub("", unit.text[marker.end() :] if marker else unit.text))


def named_section(bare: str, cues: Compiled) -> Filing | None:
    """What a heading that is a section's name files ("Next steps", "Known issues")."""
    if cues.next_steps.match(bare):
        return NEXT_STEP
    for pattern, _, category, kind in cues.sections:
        if pattern.match(bare):
            return category, kind
    return None


def filing_of(title: str, cues: Compiled, within: bool = True) -> Filing | None:
    """What a heading or an introducing line says about the items under it: by its name, or
    (`within`) by a deciding word in a longer heading ("Root Cause of Failures")."""
    bare = clean(MARKER.sub("", title)).strip()
    named = named_section(bare, cues)
    if named is not None:
        return named
    for pattern, _, category, kind in cues.introducers:
        if pattern.search(bare):
            return category, kind
    if within and len(bare.split()) <= HEADING_WORDS:
        for pattern, _, category, kind in cues.sections_within:
            if pattern.search(bare):
                return category, kind
    return None


def extract(
    text: str,
    default: Filing | None = None,
    report: bool = False,
    person: bool = False,
    signals: frozenset[str] = frozenset(),
) -> Iterator[Candidate]:
    """Yield the candidates in one message's prose.

    `default` files the sentences no rule claims (the answer to "what went wrong?" is a lesson).
    A `report` is a knowledge document (an agent's final report for a request, an approved
    plan, a compaction summary): every statement in it is meant for the reader, so one that no
    rule or heading claims is still kept, filed by what it means (`meaning`), and a list item
    keeps the heading it stands under.

    List items that only their list makes memory (filed by the heading or the line that
    introduces them, or a report's facts that show no signal) are one entry per list, under
    that heading: "Stack: Vaadin 25 (embedded Jetty); HikariCP for pooling; Flyway" says what
    three fragments would not, and is one entry to read instead of three.
    """
    gathered: list[Candidate] = []
    together: tuple[object, ...] | None = None
    title: tuple[str, Filing | None] = ("", None)  # a heading naming the item under it
    step: Candidate | None = None  # a step left to do, held until its details are read
    details: list[str] = []
    for found, group in candidates(text, default, report, person, signals):
        if group == DETAIL:
            if step is not None and found is not None:
                details.append(found.text.rstrip(ITEM_ENDS))
            continue
        if step is not None:
            yield detailed(step, details)
            step, details = None, []
        if gathered and group != together:
            yield from joined(gathered, together)
            gathered = []
        if found is None:  # a heading: the last one named an item no statement told
            yield from untold(*title)
            title = (str(group[1]), group[2]) if group else ("", None)  # type: ignore[assignment]
        elif group is None:
            if title[0] and report:
                found = under_heading(found, title[0])
            title = ("", None)
            if found.category == "tasks" and found.why in (UNTICKED, NEXT_WHY):
                step = found
            else:
                yield found
        else:
            title = ("", None)  # its items carry the heading
            gathered.append(found)
            together = group
    if step is not None:
        yield detailed(step, details)
    if gathered:
        yield from joined(gathered, together)
    yield from untold(*title)


def detailed(step: Candidate, details: list[str]) -> Candidate:
    """A step with the details listed under it: "Implement `frontier()`: Compute the closure;
    Location: `planner.py:211`" stands alone where "Location: …" would not."""
    if not details:
        return step
    return step._replace(text=cap(f"{step.text.rstrip(' .:：。')}: {'; '.join(details)}"))


def untold(heading: str, filing: Filing | None) -> Iterator[Candidate]:
    """A heading that names a problem or a task ("Lualine replace mode empty" under
    "Critical bugs") under which nothing was found to keep (only code, or prose no rule
    claims): the heading is the item."""
    named = heading and filing and filing[0] in ("lessons", "tasks")
    if named and filing and said_words(heading) >= TITLE_WORDS:
        yield Candidate(filing[0], filing[1], cap(heading), why="a heading under its section")


UNSIGNALLED_WHY = "a listed fact naming something"
CHANGE_WHY = "change signal"  # `meaning`'s why for a change made: "Added X to `y`"
# What files a list item by the list it stands in, not by what it says alone.
GATHERED = ("its heading", UNSIGNALLED_WHY, "a rule of the person's")
# Lists bounded to their first UNSIGNALLED_CHUNKS entries: a document's facts that show no
# signal, and a list of changes made that gives no reason (a change log: the diff and the
# commits hold it whole; its first items say what the work was).
BOUNDED = (UNSIGNALLED_WHY, CHANGE_WHY)


def joined(items: list[Candidate], group: tuple[object, ...] | None) -> Iterator[Candidate]:
    """One list's items as entries of at most MAX_CHARS each, every one under the line that
    introduced the list, else its heading (an item alone, under its heading only)."""
    introduction, heading = (str(group[-2]), str(group[-1])) if group else ("", "")
    first = items[0]
    if len(items) == 1:
        yield under_heading(first, heading)
        return
    # A line the list finishes ("…and should either:") stays before its items however long,
    # cut to half an entry so that they still show: they do not stand without it ("Be removed
    # or commented out").
    finished = bool(introduction) and bool(compiled().unfinished.search(introduction))
    heading = (
        cut_words(introduction, MAX_CHARS // 2) if finished else as_context(introduction or heading)
    )
    # A document's facts that show no signal say its context in their first entries; a long
    # inventory in many would bury the rest (as UNSIGNALLED_FACTS bounds the lists).
    chunks = UNSIGNALLED_CHUNKS if first.why.startswith(BOUNDED) else len(items)
    texts = [item.text.rstrip() for item in items]
    parts: list[str] = []
    for text in texts:
        if parts and size(headed(heading, parts + [text])) > MAX_CHARS:
            yield first._replace(text=capped(heading, parts), why=f"{first.why}, listed")
            parts, chunks = [], chunks - 1
            if not chunks:
                return
        parts.append(text)
    yield first._replace(text=capped(heading, parts), why=f"{first.why}, listed")


def items_as_text(parts: list[str]) -> str:
    """List items as one text: sentences as they were written, one after another; else
    joined with "; " in place of their own ends ("Added `--tag`; Dropped the `beta` job")."""
    if all(part.endswith(SENTENCE_ENDS) for part in parts):
        # (a CJK full stop needs no space after it)
        return "".join(p + ("" if p.endswith(WIDE_ENDS) else " ") for p in parts).rstrip()
    return "; ".join(part.rstrip(ITEM_ENDS) for part in parts)


def headed(heading: str, parts: list[str]) -> str:
    """List items joined under their heading, unless the first already opens with it."""
    joined = items_as_text(parts)
    if not heading or joined.lower().startswith(heading.lower()):
        return joined
    return f"{heading.rstrip('.')}: {joined}"


def capped(heading: str, parts: list[str]) -> str:
    """`headed`, cut to MAX_CHARS in what the items say: the heading is their context and
    never takes their place ("Bug 2 — pnpm setup." over a long cause would keep only itself)."""
    text = headed(heading, parts)
    if len(text) <= MAX_CHARS:
        return text
    said = items_as_text(parts)
    room = MAX_CHARS - (len(text) - len(said))
    if not text.endswith(said) or room < 2 * MIN_CHARS:
        return cap(text)
    return headed(heading, [cut_at_sentence(said, room, least=MIN_CHARS) or cut_words(said, room)])


UNTICKED = "an unticked box"  # why a task was found in a box left unticked
NEXT_WHY = "listed as a next step"
DETAIL = ("detail",)  # a list item nested under a step: said with the step it details
LABEL_COLON = re.compile(r"^[^.!?]{1,40}[:：]")  # "Tip:", "**Root cause**:", "Dica:"
LINES_LIST = -2  # an option line's scope: the list of the block after it, at any indent
# A heading that concludes a comparison of options: what follows it is what was chosen.
CONCLUSION = re.compile(
    r"^(?:recommend\w*|conclusion|verdict|decision|chosen|choice|summary|recomenda\w*|conclus[aã]o"
    r"|empfehlung|fazit|结论|推荐|結論|推奨)\b",
    re.IGNORECASE,
)


def labelled_paragraphs(units: Iterator[Unit], cues: Compiled) -> Iterator[Unit]:
    """Units as `prose_units` gives them, but a paragraph that opens with a label ("Tip: …",
    "Root cause: …") is one unit: what the label names goes on past the first sentence ("Dica:
    se precisar parar, pressione Ctrl+C. Para rodar de novo, use `py -m streamlit run`")."""
    held: Unit | None = None
    for unit in units:
        if held is not None:
            same = unit.kind == "sentence" and not unit.in_bullet and unit.block == held.block
            joined = f"{held.text} {unit.text}"
            if same and size(joined) <= MAX_CHARS and not is_narration(unit.text, cues):
                held = held._replace(text=joined)
                continue
            yield held
            held = None
        opening = unit.kind == "sentence" and not unit.in_bullet and LABEL_COLON.search(unit.text)
        if opening and any(p.search(straight(body_of(unit))) for p, _, _, _ in cues.lead_ins):
            held = unit
            continue
        yield unit
    if held is not None:
        yield held


def with_reasons(units: Iterator[Unit], cues: Compiled) -> Iterator[Unit]:
    """Units as `labelled_paragraphs` gives them, but a statement and the reasons a label right
    after it gives ("- Decision: use X", then "- Rationale:" and its items) are one unit: "use
    X — rationale: a; b". Apart, the reasons say nothing of what they are for, and the
    statement nothing of why."""
    held: Unit | None = None  # the last statement, which a reasons label may follow
    label: Unit | None = None  # the reasons label being read
    word = ""  # its label word, "rationale"
    reasons: list[str] = []

    def given() -> Unit:
        assert held is not None
        said = items_as_text([reason.rstrip() for reason in reasons])
        return held._replace(text=f"{held.text.rstrip(' .;')} — {word}: {said}")

    for unit in units:
        if label is not None:
            nested = unit.block == label.block and unit.indent > label.indent
            goes_on = unit.in_bullet and unit.block == label.block and unit.indent == label.indent
            if nested or goes_on:
                if unit.kind == "bullet" or not reasons:
                    reasons.append(body_of(unit))
                else:
                    reasons[-1] += " " + body_of(unit)  # a later sentence of the same reason
                continue
            if reasons:
                held, label, reasons = given(), None, []
            else:  # a label with nothing under it: both stand as written
                held, label = label, None
        # A label ends in a colon: most units have none, and their words need not be read.
        labelled = unit.kind in ("bullet", "sentence") and ("：" in unit.text or ":" in unit.text)
        body = body_of(unit) if labelled else ""
        found = cues.reasons.match(body) if labelled else None
        # The statement the reasons are for: an item of the same list, or a labelled line
        # ("Decision: …", "Issue: …") just before; not whatever prose happens to precede.
        follows = (
            held is not None
            and unit.indent == held.indent
            and unit.kind == held.kind
            and (
                (unit.kind == "bullet" and unit.block == held.block)
                or (
                    unit.kind == "sentence"
                    and unit.block - held.block in (0, 1)
                    and bool(LABEL_COLON.match(body_of(held)))
                )
            )
        )
        if found and follows and held is not None:
            label, word, reasons = unit, found["label"].lower(), []
            if body[found.end() :].strip():
                reasons.append(body[found.end() :].strip())
            continue
        if held is not None:
            yield held
        held = unit
    if label is not None and reasons:
        held = given()
    elif label is not None and held is not None:
        yield held
        held = label
    if held is not None:
        yield held


def with_next(units: Iterable[Unit]) -> Iterator[tuple[Unit, Unit | None]]:
    """Each unit with the one after it (None for the last)."""
    held: Unit | None = None
    for unit in units:
        if held is not None:
            yield held, unit
        held = unit
    if held is not None:
        yield held, None


def goes_on_from(before: Unit, unit: Unit | None) -> bool:
    """Whether `unit` is the next sentence of `before`'s paragraph or list item (or opens the
    paragraph after a sentence), opening on a pronoun for what `before` said ("…are only
    linter warnings. They come from your editor's environment…"), and the two fit in one
    extract: apart, the second says nothing of what it speaks of, and the first leaves out
    what the second adds."""
    if unit is None or unit.kind != "sentence" or unit.block - before.block not in (0, 1):
        return False
    if before.kind == "bullet" and (not unit.in_bullet or unit.block != before.block):
        return False
    if before.kind not in ("sentence", "bullet") or before.in_table:
        return False
    text = before.text.rstrip()
    if text.endswith((":", "：", "?", "？")) or len(text) + len(unit.text) >= MAX_CHARS:
        return False
    probe = straight(body_of(unit))
    # "It's exposed in two places:" introduces what follows, not what came before. One that
    # says something of its own ("It failed because the token expired") is read on its own,
    # and the agent's story ("It took me a while…") is no part of what was found.
    cues = compiled()
    return (
        bool(REFERS_BACK.match(probe))
        and not probe.endswith((":", "："))
        and classify(probe, cues) is None
        and not is_narration(probe, cues)
        and not SELF.search(probe)
    )


def run_on(first: str, second: str) -> str:
    """Two sentences as one text: with a space, none after a Chinese or Japanese stop."""
    return first + ("" if first.endswith(WIDE_ENDS) else " ") + second


def candidates(
    text: str,
    default: Filing | None,
    report: bool,
    person: bool,
    signals: frozenset[str],
) -> Iterator[tuple[Candidate | None, tuple[object, ...] | None]]:
    """`extract`'s candidates, each with the list it is gathered with (None: it stands alone);
    a heading as (None, ("heading", the item it names or "", its filing))."""
    cues = compiled()
    heading = ""  # the last heading's words, in a report: the context of the items under it
    unsignalled = 0
    section: Filing | None = None  # from the last heading, until the next one
    section_block: int | None = None  # the first block under that heading
    # (block, indent, filing, its words) from "…:" lines: they file what follows them
    introduced: list[tuple[int, int, Filing, str]] = []
    counted = -1  # the last list whose facts show no signal, counted against UNSIGNALLED_FACTS
    seen_blocks: set[int] = set()
    # The headings above the current one, (level, filing): a heading that names nothing
    # ("High priority" under "Recommendations") files as the nearest one above it that does.
    above: list[tuple[int, Filing | None]] = []
    proposed = -1  # the level of a heading naming one of several options, until the next
    optional = -1  # the level of a heading naming work of low priority, until the next
    # What an option's label line or list item holds: (block, indent) of that line, its items
    # being the units of that block indented deeper (a line's list: the next block, any indent)
    option: tuple[int, int] | None = None
    step: tuple[int, int] | None = None  # (block, indent) of the list item last left to do
    finding: tuple[int, list[str]] | None = None  # (block, sentences) a "Found it —" opened
    units = with_reasons(labelled_paragraphs(prose_units(text), cues), cues)
    went_on = False  # the unit was said with the statement before it
    for unit, after in with_next(units):
        if went_on:
            went_on = False
            seen_blocks.add(unit.block)  # its paragraph is under way: none after it opens it
            continue
        if finding is not None and (unit.block != finding[0] or unit.kind != "sentence"):
            yield from found_it(finding[1])
            finding = None
        if unit.kind in ("heading", "title"):
            bare = clean(MARKER.sub("", unit.text))
            if optional != -1 and unit.indent <= optional:
                optional = -1  # past the section of work of low priority
            if LOW_PRIORITY.search(bare):
                optional = unit.indent  # "NIEDRIG (Nice-to-have)": may never be done
            if cues.option.search(bare) or TOUCHED_LIST.match(bare):
                # "### Option 2: …": what follows is proposed; "### Files Modified": what the
                # work touched, which the diff holds
                proposed = unit.indent
                continue
            if DONE_LIST.match(bare):
                # "**All blocking issues resolved**:": the list under it is the work done,
                # which the handoff tells (not a note that follows it)
                option = (unit.block + 1, LINES_LIST)
                continue
            if proposed != -1 and (unit.indent <= proposed or CONCLUSION.match(bare)):
                proposed = -1  # the next section, or the options' conclusion ("Recommendation")
            filing = filing_of(unit.text, cues)
            stated = None  # "## Root Cause: race in `X`": a label and what it labels, as a heading
            if unit.kind == "heading" and LABEL_LINE.match(unit.text):
                said = classify(clean(MARKER.sub("", unit.text)), cues)
                # A label says what its value is: "### Version strategy: `bump-my-version`"
                # says a decision in three words, when the value names something ("Root cause:
                # still unknown" names nothing); a cue in the middle of a heading needs more.
                value = unit.text.partition(":")[2]
                valued = FACT_ANCHOR.search(value) and not PLACEHOLDER_VALUE.match(value)
                least = LABELLED_WORDS if said and said.why.startswith("label") and valued else None
                if said is not None and said_words(said.text, paths=least is not None) >= (
                    least or STATEMENT_MIN_WORDS
                ):
                    stated = said._replace(why=f"{said.why}, in a heading")
            titled = False  # a heading under a section that files it names the item under it
            if unit.kind == "heading":
                while above and above[-1][0] >= unit.indent:
                    above.pop()
                inherited = next((f for _, f in reversed(above) if f is not None), None)
                named = filing_of(unit.text, cues, within=False)
                if inherited is not None and named is None:
                    # "HIGH (bugs)" under "Recommendations": a word within a sub-heading
                    # does not outweigh the section it stands in.
                    filing = None
                above.append((unit.indent, filing))
                titled = filing is None and inherited is not None
                filing = filing if filing is not None else inherited
            if report and filing == ("", ""):
                filing = None  # what a report says was done is its decisions
            if unit.kind == "heading":
                section, section_block, introduced = filing, None, []
                # "2. **ESM Compliance**": the heading's words, its stress read away
                heading = clean(MARKER.sub("", unit.text)).replace("**", "").strip(" :：")
                if titled and filing:
                    # "1.4 Lualine replace mode empty" under "1. Critical bugs": the name of
                    # the item its text goes on to tell.
                    heading = SECTION_NUMBER.sub("", heading).strip()
                elif NUMBERED_HEADING.match(heading) or CAPS_HEADING.match(heading):
                    heading = ""  # a long document's section title: too far from its items
                # Said as a statement, the heading names no item still to be told.
                yield None, ("heading", heading if titled and stated is None else "", filing)
                if stated is not None:
                    yield stated, None
            elif filing is not None:
                introduced = [(unit.block + 1, -1, filing, clean(unit.text).strip(" :："))]
            continue
        if unit.kind == "bullet" and step and (unit.block != step[0] or unit.indent <= step[1]):
            step = None  # past the details of the step above
        # An option put forward is no decision, whatever cue it holds: nor is the list its
        # label line introduces, nor the items nested under it.
        if (
            option is not None
            and unit.block == option[0]
            and unit.indent > option[1]
            and (option[1] != LINES_LIST or unit.kind == "bullet" or unit.in_bullet)
        ):
            continue
        option = None
        plain = body_of(unit)
        if proposed != -1 and CONCLUSION.match(plain):
            proposed = -1  # "**Recommendation:** we went with B because…" closes the options
        if proposed != -1:
            continue
        guessed = (
            plain.endswith((":", "："))
            and bool(cues.hedge.search(straight(plain)))
            and bool(cues.unfinished.search(plain.rstrip(":： ")))
        )
        recorded = bool(TOUCHED_LIST.match(plain) or DONE_LIST.match(plain))
        if guessed or recorded or cues.option.search(plain):
            # "Option 2: …" and the list right under it; not the paragraph after it. A list
            # that a guess introduces and must finish ("The issue is likely related to
            # either:") is guesses too; the line itself is still read as any line is.
            option = (
                (unit.block, unit.indent) if unit.kind == "bullet" else (unit.block + 1, LINES_LIST)
            )
            if not guessed:
                continue
        opens_block = unit.block not in seen_blocks
        seen_blocks.add(unit.block)
        if section_block is None:
            section_block = unit.block
        # An introduction reaches the block that follows it, or the items nested under it.
        introduced = [
            (block, indent, filing, words)
            for block, indent, filing, words in introduced
            if block == unit.block and (indent < unit.indent or (indent == -1))
        ]
        bullet = BULLET.match(unit.text) if unit.kind == "bullet" else None
        body = without_interjection(plain)
        found_out = False  # "Discovered that X": X was found out
        if finding is not None:
            if PLANNED.search(straight(body)):
                # "…For testing, I'll use a throwaway key": the finding is told, a plan begins
                # (read as any sentence is)
                yield from found_it(finding[1])
                finding = None
            else:
                if len(finding[1]) < FINDING_SENTENCES and is_statement(body, cues):
                    finding[1].append(body)
                continue
        if (it := FOUND_IT.match(straight(body))) and unit.kind == "sentence":
            rest = body[as_written(body, it.end()) :].lstrip()
            rest = capitalised(re.sub(r"^(?:and|but|so)\s+", "", rest, flags=re.IGNORECASE))
            finding = (unit.block, [rest] if rest and is_statement(rest, cues) else [])
            continue
        if lead := FINDING_LEAD.match(straight(body)):
            found_out = bool(FOUND_OUT.match(lead["verb"]))
            body = capitalised(body[as_written(body, lead.end()) :].lstrip())
        if body.endswith((":", "：")):
            filing = filing_of(body, cues)
            words = body.rstrip(":： ")
            # A line its list finishes ("…are jarring and should either:") introduces the
            # items under it in the section's filing: they do not stand without it.
            if filing is None and report and cues.unfinished.search(words):
                filing = section
            if filing is not None:
                if unit.kind == "bullet":
                    introduced.append((unit.block, unit.indent, filing, words))
                else:
                    introduced.append((unit.block + 1, -1, filing, words))
                continue
            if not (report and len(body.split()) >= STATEMENT_WORDS):
                continue
            # In a report, "Added two tests to `setup_test.go`:" states as well as introduces.
            body = introduction_stated(body, cues)
            if not body:
                continue
        if size(body) < MIN_CHARS:
            continue
        if bullet and is_reference(body):
            continue  # "Claude Code rewind docs https://docs…": a source cited, not memory
        if bullet and AGENT_NOTES_LINK.search(body):
            continue  # "[task.md](file:///…/.gemini/…/task.md) (All items done)": its own notes
        if bullet and bullet.group("box") == " ":
            if optional == -1:
                yield Candidate("tasks", "task", cap(body), why=UNTICKED), None
            step = (unit.block, unit.indent)
            continue
        if bullet and bullet.group("box"):
            continue  # a ticked box is done, not memory
        filing = introduced[-1][2] if introduced else section
        if report and not person and bullet and is_open_question(body, cues):
            # "Pending work: … - Yank v0.2.2 from PyPI?": a question left under open work is
            # open work; elsewhere ("Are there JSON parsing issues?") it asks the person now,
            # and the answer, not the question, is memory.
            if filing is not None and filing[0] == "tasks":
                why = "a question the report leaves open"
                yield Candidate("tasks", "task", cap(body), why=why), None
            continue
        # A heading or an introducing line files the list items under it, and the opening
        # sentence of the paragraph that follows; later prose (often a general explanation)
        # needs cues of its own.
        prose = unit.kind == "sentence" and not unit.in_bullet
        if (
            prose
            and not unit.own_line
            and not (opens_block and (introduced or unit.block == section_block))
        ):
            filing = None
        if asks_the_person(body, cues):
            continue  # "**PyPI project created?** If not, I can…": a question to the person
        found = classify(body, cues)
        if filing == NEXT_STEP and optional != -1:
            continue  # a step of low priority
        if filing == NEXT_STEP:
            if step and unit.block == step[0] and (unit.kind == "bullet" or unit.in_bullet):
                # A detail of the step above it ("- Location: `planner.py:211`"), or a sub-step:
                # said with the step, not as a step of its own.
                yield Candidate("tasks", "task", body, why=NEXT_WHY), DETAIL
                continue
            if found is not None and found.category == "facts":
                yield found, None
            elif not is_narration(body, cues) and not EMPTY_ANSWER.match(body):
                yield (
                    Candidate("tasks", "task", cap(body), is_next_step=True, why=NEXT_WHY),
                    None,
                )
                step = (unit.block, unit.indent) if unit.kind == "bullet" else step
            continue
        if (
            found is None
            and filing is None
            and default is not None
            and prose
            and opens_block
            and len(body) >= 2 * MIN_CHARS
        ):
            filing = default
        if (
            found is None
            and filing is not None
            and filing[0]
            and not is_narration(body, cues)
            and said_words(body) >= (STATEMENT_MIN_WORDS if unit.own_line else LISTED_WORDS)
            and (filing[0] != "decisions" or not REPORTED_STEP.match(body) or REASON.search(body))
            and (
                person
                or bullet
                or (opens_block and unit.block == section_block)  # nothing before it to lean on
                or not stands_on_the_last(body)
            )
        ):
            where = "the answer to 'what went wrong?'" if filing == default else "its heading"
            found = Candidate(filing[0], filing[1], cap(body), why=where)
        if found is None and found_out and is_statement(body, cues):
            found = Candidate("lessons", "lesson", cap(body), why="a finding")
        if found is None and signals and not report:
            # (what it means first: most prose on the way shows no signal, and the checks of a
            # statement cost more than reading its signals)
            found = meaning(body, cues, listed=False, slots=signals)
            if found is not None and found.why.startswith("choice") and not REASON.search(body):
                found = None  # on the way, a choice stands with its reason: "…to keep X"
            if found is not None and not is_statement(body, cues):
                found = None
        # A person's rule is often a few words ("Não quero notebook.", "Never use mocks."):
        # opening on what it forbids or requires, as short as any line worth reading.
        least = MIN_CHARS if person and cues.obligation.match(straight(body)) else None
        if found is None and report and is_statement(body, cues, least):
            listed = bool(bullet) or bool(LABEL_LINE.match(body))
            found = meaning(body, cues, listed, person)
            if found is not None and found.kind == "fact" and unit.block != counted:
                # Facts that show no signal are a document's context: its first lists say it
                # (reports lead with what matters), a long inventory would bury the rest.
                unsignalled, counted = unsignalled + 1, unit.block
            if found is not None and found.kind == "fact" and unsignalled > UNSIGNALLED_FACTS:
                found = None
            if found is None and not person and (stressed := stressed_statement(body)):
                why = f"what the report stresses {quoted(stressed)}"
                found = Candidate("facts", "fact", cap(body), why=why)
        if found is None or (optional != -1 and found.category == "tasks"):
            continue
        changed = found.why.startswith(CHANGE_WHY) and not REASON.search(body)
        if bullet and (found.why.startswith(GATHERED) or changed) and found.category != "tasks":
            introduction = introduced[-1][3] if introduced else ""
            above_it = heading if report else ""
            yield found, (unit.block, found.category, found.kind, introduction, above_it)
            continue
        if after is not None and found.text == body and goes_on_from(unit, after):
            # "…a phantom dependency on zod. Its compiled output imports `zod/v4/core`…":
            # the statement with the sentence that goes on from it.
            found, went_on = found._replace(text=run_on(body, body_of(after))), True
        if report and bullet:
            yield under_heading(found, heading), None
        else:
            yield found, None
    if finding is not None:
        yield from found_it(finding[1])


# "Per your standing rule (review before merge), …", "(per project rule: run `pytest tests/`
# before pushing)": a rule the agent says it follows is the project's, said in passing.
CITED_RULE = re.compile(
    r"\b(?:as\s+)?per\s+(?:your|the|our|project|the\s+project's|team)\s+(?:standing\s+|project\s+"
    r"|team\s+)?(?:rules?|conventions?|policy|guidelines?)\s*(?:\([^()\n]{8,160}\)|:\s*[^()\n]{8,160}?"
    r"(?=\)|:?\s*$|\.\s)|,\s*[^.:\n]{8,160})",
    re.IGNORECASE | re.MULTILINE,
)


def cited_rules(text: str) -> Iterator[Candidate]:
    """The rules the agent says it follows, each as the project's convention."""
    if "per " not in text.lower():
        return
    for cited in CITED_RULE.finditer(outside_fences(text)):
        rule = cited[0].strip(" ,;:")
        yield Candidate(
            "facts", "convention", cap(capitalised(rule)), why="a rule the agent says it follows"
        )


def found_it(sentences: list[str]) -> Iterator[tuple[Candidate, None]]:
    """What a paragraph opened by "Found it —" tells, as one lesson, if it told something."""
    told = " ".join(sentences)
    if said_words(told) >= STATEMENT_MIN_WORDS:
        yield Candidate("lessons", "lesson", cap(told), why="a finding"), None


def is_reference(item: str) -> bool:
    """Whether a list item only names a source beside its links (a report's "Sources:")."""
    if "http" not in item:
        return False
    link = LINK.search(item)
    if link is None or LINK.sub(" ", item[link.start() :]).strip(" ;,."):
        return False  # the link is within a statement: "Upstream bug https://… breaks X"
    named = item[: link.start()].strip(" -—–;,.")
    # "Blog URL: https://…" labels its link, "`origin` → `https://…`" maps a name to it and
    # "Still blocked by https://…" says something of it: facts of the project, not a title.
    return (
        not REFERENCE_NOT.search(named)
        and not LINKED_BY.search(named)
        and len(named.split()) <= REFERENCE_WORDS
    )


# A line that only counts what its list or sections say: "There are two root causes…:",
# "I found 3 problems:", "Há dois problemas:", "Es gibt zwei Ursachen:", "有两个原因：".
COUNTS_WHAT_FOLLOWS = re.compile(
    r"^(?:there\s+(?:are|were)|(?:i|we)(?:'ve|\s+have)?\s+found|found|h[aá]|existem|es\s+gibt"
    r"|(?:ich\s+habe|wir\s+haben)\s+gefunden)?\s*\**(?:two|three|four|five|several|multiple"
    r"|a\s+few|\d+|dois|duas|tr[eê]s|v[aá]ri[oa]s|zwei|drei|mehrere)\**\s+(?:[\w-]+\s+){0,2}"
    r"(?:root\s+)?(?:causes?|issues?|problems?|bugs?|reasons?|things|changes|fixes|gaps|findings"
    r"|causas|problemas|motivos|ursachen|probleme|gründe|fehler)\b"
    r"|^(?:有|发现了?)(?:两|三|几|多)个(?:原因|问题)"
    r"|^(?:二|三|\d+)つの(?:原因|問題)",
    re.IGNORECASE,
)


# The words of a line that only announces a list ("I've made the following changes:", "Here
# is what I did:", "Summary of what was accomplished:"); one with any other word ("…changes to
# the CLI:") says where.
INTRODUCING_WORDS = frozenset(
    (
        *("i", "i've", "ive", "we", "we've", "have", "has", "made", "make", "the", "following"),
        *("changes", "change", "here", "is", "are", "what", "did", "done", "these", "this"),
        *("summary", "of", "was", "were", "accomplished", "completed", "so", "far", "all"),
    )
)
WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def announces_only(line: str) -> bool:
    """Whether a line only says that a list follows ("I've made the following changes",
    "Summary of what was accomplished"): all its words are `INTRODUCING_WORDS`."""
    return not set(WORDS.findall(line.lower())) - INTRODUCING_WORDS


def introduction_stated(line: str, cues: Compiled) -> str:
    """What a line that introduces a list ("Added two tests to `setup_test.go`:") states by
    itself, without its colon; "" when it needs its list to say anything: it ends on a word
    the list must finish ("Added `on_dirty` parameter to:", "…should be reviewed to ensure:")
    or in a gloss on the list ("Supported formats (pick one or more):"), or it only counts
    what follows ("There are **two root causes** producing this bug:") or announces it
    ("Summary of what was accomplished:")."""
    stated = line.rstrip(":： ")
    if cues.unfinished.search(stated) or stated.endswith(")") or COUNTS_WHAT_FOLLOWS.match(stated):
        return ""
    if announces_only(stated):
        return ""  # "Summary of what was accomplished:" says nothing its list does not
    return stated


def under_heading(found: Candidate, heading: str) -> Candidate:
    """A report's list item with the heading it stands under, so it reads alone."""
    text = capped(as_context(heading), [found.text])
    return found if text == found.text else found._replace(text=cap(text))


def as_context(heading: str) -> str:
    """A heading short enough to stand before the items under it, or "": a question heading
    asks, and the items under it answer on their own."""
    return "" if len(heading) > HEADING_CONTEXT or is_question(heading) else heading


def stressed_statement(body: str) -> str:
    """The clause a report sets in bold, when it states something ("**HA's coordinator records
    any non-raising return as a success**", "**The orchestrator fix is the real fix**"): what
    the agent marks as what matters. Not a stressed label, question, step or name."""
    for stressed in BOLD.finditer(body[:RULE_WINDOW]):  # (unclosed `**` cost a scan each)
        clause = stressed[1].strip().rstrip(".")
        probe = straight(clause)
        if (
            len(probe.split()) >= STRESSED_WORDS
            and STATES.search(probe)
            and not FIRST_PERSON.match(probe)  # "**I have pushed everything**": the agent's step
            and not STATUS_LINE.search(probe)
            and not SUMMARY_LABEL.match(probe)
            and not probe.lower().startswith(("summary", "all "))
            and not probe.endswith((":", "：", "?", "？"))
            and not probe.isupper()
            and not SECOND_PERSON.search(probe)
            and not STEP_VERB.match(probe)
            and not DANGLING.match(probe)
        ):
            return clause
    return ""


def stands_on_the_last(body: str) -> bool:
    """Whether a sentence is half of the thought before it: "These are critical for
    validation", an aside in parentheses ("(Makes it show under the repo.)")."""
    stripped = body.strip()
    return bool(DANGLING.match(straight(stripped))) or (
        stripped.startswith("(") and stripped.rstrip(".").endswith(")")
    )


def is_question(text: str) -> bool:
    """A question, with or without its mark ("What makes a submission strong")."""
    return text.endswith(("?", "？")) or bool(QUESTION_WORD.match(text))


def is_statement(body: str, cues: Compiled, least: int | None = None) -> bool:
    """Whether a report's sentence states something, rather than narrating, asking or offering
    (and says at least `least` characters' worth, REPORT_MIN_CHARS unless told)."""
    long_enough = size(body) >= (REPORT_MIN_CHARS if least is None else least)
    return (
        long_enough
        and not is_narration(body, cues)
        and not cues.offer.search(body)
        and not cues.to_reader.search(body)
        and not cues.hedge.search(body)
        and not cues.general.search(body)
        and not body.endswith((":", "：", "？"))
        and not STATUS_LINE.search(body)
        and not STATUS_LINE.search(LABEL_PREFIX.sub("", body))
        and not (SELF_VERDICT.search(body) and not REASON.search(body))
        and not SUMMARY_LABEL.match(body)
        and not STATE_LABEL.match(body)
        and not (CHECK_LABEL.match(body) and not REASON.search(body))
        and not (WORKFLOW_STEP.search(body) and not REASON.search(body))
        and not THOUGHT_LABEL.match(body)
        and not CUT_SHORT.search(body)
        and not TOOL_LINE.match(body)
        and not (body.endswith(("!", "！")) and len(body) < EXCLAMATION_CHARS)
    )


def meaning(
    body: str,
    cues: Compiled,
    listed: bool = True,
    person: bool = False,
    slots: frozenset[str] | None = None,
) -> Candidate | None:
    """A statement filed by the general signals of what it means. One that shows none is a
    fact if it is `listed` (a list item, a table row, a `Label: value` line: a fact sheet's
    shape; free prose with no signal explains rather than states) and names something a
    later session could look up (a fact that names nothing is chatter: "This looks solid").

    In a `person`'s document (a spec, an issue) a change is a request the session goes on to
    do and a failure the problem it is to solve, not what was found; its rules ("must",
    "never") and the causes and choices it states are what to keep."""
    probe = straight(body[:RULE_WINDOW])
    if UNRELATED.search(probe) and not is_known_failure(probe, cues):
        return None  # "Unrelated files remain uncommitted": not this work's
    if (
        person
        and (said := cues.obligation.search(probe))
        and not PERCEIVING.search(probe)
        and not GOES_ON.match(probe)
    ):
        return Candidate(
            "facts", "preference", cap(body), why=f"a rule of the person's: {quoted(said[0])}"
        )
    if joined := JOINED_ON.match(probe):
        rest = capitalised(body[as_written(body, joined.end()) :].lstrip())
        found = meaning(rest, cues, listed, person, slots) if rest else None
        if found is not None and CONTRASTED.match(probe) and not found.why.startswith(REASONED):
            return None  # "But the database has no record yet": of the thought before it
        return found
    if DANGLING.match(probe):
        # "They were retries, and the job failed because `pnpm` was missing": half of a thought
        # said before it, but a later clause may stand alone.
        clause = next(
            (c for c in LATER_CLAUSE.split(body)[1:] if c and not DANGLING.match(c.strip())), ""
        )
        if (
            said_words(clause) < STATEMENT_MIN_WORDS
            or not FACT_ANCHOR.search(clause)  # "the runner did not have it set up": of what?
            or not is_statement(clause, cues)
        ):
            return None
        found = meaning(clause.strip(), cues, listed=False, person=person, slots=slots)
        return found._replace(text=cap(capitalised(found.text))) if found else None
    acted = ACTED_ON.search(probe)
    if acted and (slots is None or "cause" in slots) and not person:
        # "The deployment object has no result inline, so I'm pulling its statuses": what the
        # agent found, that made it act; the action is narration.
        finding = body[: as_written(body, acted.start())].strip()
        if said_words(finding) >= STATEMENT_MIN_WORDS and is_statement(finding, cues):
            why = f"a finding the agent acted on {quoted(acted[0].strip(', '))}"
            return Candidate("lessons", "lesson", cap(finding + "."), why=why)
    if person and cues.request.search(probe):
        return None  # work the session goes on to do
    if not person and COMMIT_NAMED.match(probe):
        # "Commit: `462a28b` — `gitproto: send empty pack…`": a change made, by its commit
        why = f"{CHANGE_WHY}: a commit it names"  # a list of them is a change log
        return Candidate("decisions", "decision", cap(body), why=why)
    # "Improve Windows test reliability": a title, not a statement; listed, it may be a fact.
    short = said_words(probe, paths=True) < STATEMENT_MIN_WORDS
    if short and not listed:
        return None
    if not short:
        # A word in code is a name, not the writer's: `defer` says no choice was put off.
        words = uncoded(probe)
        # Lowercased, with the patterns compiled for it once classify has (see `classify`);
        # the spans found are the probe's own.
        signals = cues.meaning
        if lowered.cache_info().currsize and len(lower := words.lower()) == len(words):
            words, signals = lower, lowered().meaning
        for pattern, slot, category, kind in signals:
            if signal := pattern.search(words):
                if (person and slot in PERSON_SKIPS) or (slots is not None and slot not in slots):
                    return None
                if not holds(slot, probe):
                    continue  # another signal may still file it ("Added error handling": a change)
                return Candidate(
                    category,
                    kind,
                    cap_at(body, as_written(body, signal.start())),
                    why=f"{slot} signal {quoted(probe[signal.start() : signal.end()])}",
                )
    # "`--include-file` is repeatable, resolved relative to `--repo`": how a thing the project
    # names behaves, said of it by name.
    named = slots is None and not person and not listed and NAMED_SUBJECT.match(probe)
    if named and said_words(probe) >= STATEMENT_MIN_WORDS and not LOCAL_LINK.search(probe):
        return Candidate("facts", "fact", cap(body), why="said of something named")
    if slots is not None or person or not listed:
        return None
    if not names_something(probe) or reports_an_action(probe):
        return None
    return Candidate("facts", "fact", cap(body), why=UNSIGNALLED_WHY)


def reports_an_action(probe: str) -> bool:
    """Whether a line with no subject opens on a verb in the past ("Updated `README.md` test
    counts", "Threaded `--ignore-file` through `root.go`"): the writer's account of a step,
    which the diff or the log keeps, not a fact about the project. ("Shared config lives in
    `x/`" opens on an adjective: a noun follows it, not an object.)"""
    return bool(PAST_ACTION.match(probe))


def holds(slot: str, probe: str) -> bool:
    """Whether a statement a signal files is memory rather than the session's log: a failure
    word in a sentence that reports an action ("Deleted the stale records") or in a few words
    says what broke, not what was learned. (A change made is a decision, with or without its
    reason: the fix that landed.)"""
    if slot == "failure":
        return (
            not ACTION_START.match(probe)
            and not SUPPOSED.match(probe)
            and len(probe.split()) >= FAILURE_WORDS
            and (says_how_it_failed(probe) or shows("cause", probe))
        )
    if slot == "open":
        return not ACTION_START.match(probe)  # "Expanded the TODO checklist": done, not open
    if slot == "known":
        # "pre-existing" alone may be any change
        return bool(TROUBLE.search(probe)) or shows("failure", probe)
    return True


def says_how_it_failed(probe: str) -> bool:
    """Whether a failure statement says more than a failure's name (`SYMPTOM`), in its own
    words (a word in code is a name: `--never-cache` says no "never")."""
    return shows("failure", SYMPTOM.sub(" ", uncoded(probe)))


def is_known_failure(probe: str, cues: Compiled) -> bool:
    """Whether a statement says a failure was there before the session's work ("the
    `TestPushToOrigin` failure reproduces on `main` too"): worth knowing, not worth chasing."""
    words = uncoded(probe)
    return any(
        slot == "known" and pattern.search(words) and holds(slot, probe)
        for pattern, slot, _, _ in cues.meaning
    )


def names_something(probe: str) -> bool:
    """Whether a listed fact names something a later session can look up (code, a path, an
    identifier, a URL; a count alone is not it) in a clause of its own (three words or more
    besides the names), and is no link into the agent's own files."""
    if LOCAL_LINK.search(probe) or not FACT_ANCHOR.search(probe):
        return False
    return said_words(probe) >= FACT_WORDS


def names_cause(text: str) -> bool:
    """Whether a lesson says why, of something a later session can look up: a cause signal
    and a name ("The root cause is clear" names nothing)."""
    probe = straight(text[:RULE_WINDOW])
    if not FACT_ANCHOR.search(probe) or said_words(probe) < STATEMENT_MIN_WORDS:
        return False
    return bool(STEMS_FROM.search(probe)) or shows("cause", probe)


def gives_reason(text: str) -> bool:
    """Whether a statement says why, in any language: "since it's simpler", "because", "rather
    than", "to avoid", "porque", "因为" (not a bare "not" or "over": "…and not touch it yet")."""
    probe = straight(text[:RULE_WINDOW])
    return bool(BECAUSE.search(probe)) or shows("cause", probe)


def shows(slot: str, text: str) -> bool:
    """Whether a text holds a signal of `slot` ("cause", "failure") of any language's meaning
    table."""
    return any(pattern.search(text) for pattern, kind, _, _ in compiled().meaning if kind == slot)


def said_words(text: str, paths: bool = False) -> int:
    """How many words a statement says, a `code span` counting as one and a bare path as none
    ("environment.lua:56-73" says nothing; "Kaolin URL: `https://…`" says three); a quoted
    path counts only where it is the object of something said (`paths`). A CJK character
    counts as half a word."""
    text = INLINE_CODE.sub(
        lambda m: " " if PATH_LIKE.search(m[0]) and not paths else " code ", text
    )
    words = [w for w in NON_SPACE.findall(text) if TWO_LETTERS.search(w) and "/" not in w]
    return len(words) + (size(text) - len(text)) // 2


def marked(text: str) -> list[tuple[str, frozenset[str]]]:
    """The sentences of a text that report work done ("Rebuilt the index"), undone ("Reverted
    the switch") or a claim corrected ("Actually, …"): (how, their words), for `covers`. One
    pass per message, whatever the number of earlier claims it is held against. Code blocks
    report nothing (an edit's `# fixed` comment is code), and are not read: in an Aider
    history they are most of the text."""
    text = outside_fences(text)
    reverted, corrected = REVERTED.search(text), CORRECTED.search(text)
    if not (reverted or corrected or DONE.search(text)):
        return []
    cues = compiled()
    found = []
    # Each paragraph, list item, heading and table row apart: they end no sentence, and one
    # "sentence" of a whole report would name most of what came before it.
    for sentence in (part for block in paragraphs(text) for part in sentences(block, cues)):
        if reverted and REVERTED.search(sentence):
            how = "revert"
        elif corrected and CORRECTED.search(sentence):
            how = "correct"
        elif DONE.search(sentence) or cues.outcome.search(sentence.strip()):
            how = "done"
        else:
            continue
        found.append((how, content_words(sentence)))
    return found


def paragraphs(text: str) -> Iterator[str]:
    """A text's paragraphs, list items, headings and table rows, each one line: the lines a
    paragraph is wrapped over joined ("I have now rebuilt / the search index")."""
    block: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if block and (not stripped or stripped.startswith(("#", "|")) or BULLET.match(line)):
            yield " ".join(block)
            block = []
        if stripped:
            block.append(stripped)
        if stripped.startswith(("#", "|")):
            yield " ".join(block)
            block = []
    if block:
        yield " ".join(block)


def asks_the_person(body: str, cues: Compiled) -> bool:
    """Whether a statement opens with a bold question put to the person ("**PyPI project
    created?** If not, I can walk you through it"), not one it answers ("**Why did the job run
    `uvicorn`?** Because `--image` replaced the template")."""
    question = BOLD_QUESTION.match(body)
    if question is None:
        return False
    rest = body[question.end() :].strip()
    return not rest or bool(
        IF_ANSWER.match(rest) or cues.offer.search(rest) or cues.to_reader.search(rest)
    )


def without_checked(text: str) -> str:
    """A document without its sections of how the work was checked ("## Test plan", "##
    Checklist"): each up to the next heading no deeper than its own."""
    checked = compiled().checked
    kept: list[str] = []
    skipping = 0  # the level of the section being left out; 0: none
    fenced = False
    for line in text.splitlines():
        if fence_mark(line):
            fenced = not fenced
        bare = line.strip()
        titled = not fenced and (bare.startswith("#") or BOLD_LINE.match(bare))
        level = heading_level(bare) if titled else 0
        if titled and skipping and level <= skipping:
            skipping = 0
        if titled and not skipping and checked.match(bare):
            skipping = level
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def outside_fences(text: str) -> str:
    """A message's text without its fenced code blocks (the fence lines included)."""
    if "```" not in text and "~~~" not in text:
        return text
    return "\n".join(unfenced(text.splitlines()))


def covers(claim: frozenset[str], said: frozenset[str], share: float) -> bool:
    """Whether a sentence's words hold most of a claim's (a claim too short never matches)."""
    return len(claim) >= DONE_WORDS and len(claim & said) >= share * len(claim)


@lru_cache(maxsize=4096)  # a claim is held against each later message: its words, once
def content_words(text: str) -> frozenset[str]:
    """A text's words of four letters or more, their endings cut ("rebuilt" meets "rebuild");
    in Chinese and Japanese, which put no space between words, each two characters that stand
    together ("本地 4 个提交尚未推送" holds 推送, as "推送到 GitHub" does)."""
    lowered = text.lower()
    words = {word[:STEM] for word in FOUR_LETTERS.findall(lowered) if not WIDE_CHAR.match(word)}
    for run in WIDE_RUN.findall(lowered):
        words.update(run[at : at + 2] for at in range(len(run) - 1))
    return frozenset(words)


def is_open_question(body: str, cues: Compiled) -> bool:
    """A question about the work, not one to the reader ("Want me to…?") or a rhetorical
    aside: it names what is to be decided."""
    probe = straight(body)
    return (
        probe.endswith(("?", "？"))
        and said_words(probe, paths=True) >= OPEN_QUESTION_WORDS
        and not cues.offer.search(probe)
        and not cues.to_reader.search(probe)
        and not TO_READER_QUESTION.search(probe)
    )


def is_narration(body: str, cues: Compiled) -> bool:
    body = straight(body)
    narrated = cues.narration.search(body) and not cues.decided_in_passing.search(body)
    return bool(narrated or cues.note_about_self.search(body) or body.endswith("?"))


def straight(text: str) -> str:
    """A text as the rules read it: typographic apostrophes as typed ones ("I’m" as "I'm"),
    so one cue reads both, and no bold markers, so a cue reads through what a report stresses
    ("Fixed: **Precomputed the two empty packs**"). `as_written` maps a place in it back."""
    if "’" in text:
        text = text.replace("’", "'")
    return text.replace("**", "") if "**" in text else text


def as_written(text: str, at: int) -> int:
    """Where the place `at` of `straight(text)` is in `text`: past the bold markers before it,
    so what the rules found is cut from the text as written."""
    if "**" not in text:
        return at
    written = read = 0
    while read < at and written < len(text):
        if text.startswith("**", written):
            written += 2
        else:
            written, read = written + 1, read + 1
    return written


def classify(sentence: str, cues: Compiled | None = None) -> Candidate | None:
    """Match one sentence against the rules; narration about the agent's own steps is skipped.

    Rules read only the start of a long sentence, about what an extract keeps of it: a cue far
    beyond that would not be in the extract, and a run-on line of log output (thousands of
    characters with no sentence end) would cost every rule a scan of all of it.
    """
    cues = cues or compiled()
    if sentence.rstrip().endswith(("?", ":", "？", "：")):
        return None  # a question to the person, or a line introducing what follows
    probe = straight(sentence[:RULE_WINDOW])
    if WORD_CHAR.match(sentence, RULE_WINDOW):
        probe = LAST_WORD.sub("", probe)  # not half a word: "use" of "useful" is no cue
    # The rules read the lowercased probe with the patterns `lowered()` compiled for it (a
    # character whose lower case is longer, "İ", leaves the probe as written and the patterns
    # as compiled): the spans found are the probe's own.
    # They are compiled once enough sentences came to pay for it: a hook's few hundred read
    # faster with the patterns already compiled.
    text = probe.lower()
    enough = next(CLASSIFIED) > LOWERED_AFTER
    rules = lowered() if enough and len(text) == len(probe) else cues
    if rules is cues:
        text = probe
    # An explicit label ("Still open:", "Cause:") says what the sentence is, whatever follows.
    if rules.note_about_self.search(text):
        return None
    for pattern, slot, category, kind in rules.lead_ins:
        if found := pattern.search(text):
            why = f"label {quoted(probe[found.start() : found.end()])}"
            if slot == "warning" and facts_rule(probe[found.end() :].strip(), cues):
                # "Heads-up: X lives in Y"
                return Candidate("facts", "convention", cap(sentence), why=why)
            return filed(category, kind, sentence, cues, why)
    if rules.narration.search(text) and not rules.decided_in_passing.search(text):
        return None
    if WORKFLOW_STEP.search(probe) and not REASON.search(probe):
        return None  # "Created and switched to `codex/x`": a step, whatever cue it holds
    if rules.general.search(text) and not rules.specific.search(text):
        return None
    if rules.hedge.search(text):
        return None  # a guess on the way, not what was found
    for pattern, slot, category, kind in rules.rules:
        if found := pattern.search(text):
            if category == "tasks" and UNDER_WAY.search(probe):
                return None  # "…still needs the option; I'm patching that": not left open
            cue = probe[found.start() : found.end()]
            at = as_written(sentence, found.start())
            return filed(category, kind, sentence, cues, f"{slot} cue {quoted(cue)}", at)
    return None


def uncoded(text: str) -> str:
    """The text with what its code spans hold blanked, in place: a word in code is a name, not
    the writer's (`defer` puts nothing off, `keep` keeps nothing)."""
    return INLINE_CODE.sub(blanked, text) if "`" in text else text


def blanked(code: re.Match[str]) -> str:
    return "`" + "x" * (len(code[0]) - 2) + "`"


def quoted(cue: str) -> str:
    """The words a rule matched, quoted for `--explain` (a long match cut short)."""
    cue = " ".join(cue.split())
    return f"'{cue if len(cue) <= QUOTE_CHARS else cue[: QUOTE_CHARS - 1] + '…'}'"


def filed(
    category: str, kind: str, sentence: str, cues: Compiled, why: str = "", at: int = 0
) -> Candidate:
    """A candidate of the sentence (its cue found `at`); a task is stored without its label
    ("TODO:")."""
    if category == "tasks":
        unlabelled = cues.task_label.sub("", sentence) or sentence
        at, sentence = max(0, at - (len(sentence) - len(unlabelled))), unlabelled
    return Candidate(category, kind, cap_at(sentence, at), why=why)


def facts_rule(text: str, cues: Compiled) -> bool:
    """Whether a facts rule, and no earlier rule, claims the text."""
    for pattern, _, category, _ in cues.rules:
        if pattern.search(text):
            return category == "facts"
    return False


def clean(text: str) -> str:
    """Flatten whitespace and the bold of a label that opens a unit ("**Fix:** …", "**Why**:")
    or of a whole heading: what is stressed within it stays as written ("hits the **5000 ms**
    limit", "**Bug 1** still needs a reproduction")."""
    text = text.strip()
    if "](" in text:
        # "[release.yml](/home/me/proj/.github/workflows/release.yml:40)": a link into the
        # project's checkout (Codex writes every file so) is the file it names; the path on
        # the agent's machine says nothing to the next reader. (A link into the agent's own
        # notes, `~/.gemini/…/task.md`, stays: it is no project file.)
        text = LOCAL_FILE_LINK.sub(r"[\1]", text)
    if text.startswith("**") and (bold := BOLD.match(text)):
        after = text[bold.end() :].lstrip()
        if bold[1].endswith((":", "：")) or after.startswith((":", "：")) or not after:
            text = bold[1] + text[bold.end() :]
    if "__" in text:
        text = EMPHASIS.sub(r"\1", text)
    return " ".join(text.split())


def without_interjection(text: str) -> str:
    """A sentence without the interjection it opens on ("Good, …", "Done — …"), opening as a
    sentence does."""
    rest = INTERJECTION.sub("", text)
    return capitalised(rest) if len(rest) != len(text) else rest


def capitalised(text: str) -> str:
    """A clause taken out of its sentence, opening as a sentence does."""
    return text[:1].upper() + text[1:]


def cap_at(text: str, at: int) -> str:
    """`cap`, but keeping the sentence that holds the cue found `at`: a paragraph cut at its
    first sentences ("Bug 2 — pnpm setup.") would keep what says nothing of what filed it."""
    kept = cap(text)
    if at < len(kept) - 1:
        return kept
    ends = [end.end() for end in SENTENCE_END.finditer(text, 0, at)]
    return cap(capitalised(text[ends[-1] :].lstrip())) if ends else kept


def cap(text: str) -> str:
    """Cut to MAX_CHARS at a sentence end (else at a word, with an ellipsis)."""
    return cut_at_sentence(text, MAX_CHARS, least=MIN_CHARS) or cut_words(text, MAX_CHARS)


def diagnosis(text: str) -> list[Candidate]:
    """The first sentence after a failed command, when it states what is wrong: a lesson."""
    cues = compiled()
    for unit in prose_units(text):
        if unit.kind in ("heading", "title"):
            continue
        body = body_of(unit)
        if (
            len(body) >= 2 * MIN_CHARS
            and cues.diagnosis.search(body)
            and not is_narration(body, cues)
        ):
            return [Candidate("lessons", "lesson", cap(body), why="said after a failed command")]
        return []
    return []


def is_why_question(text: str) -> bool:
    """Whether a person asks what went wrong: the answer that follows explains a cause."""
    return bool(compiled().why_question.search(text[:RULE_WINDOW]))


# A form's section answered "none" ("- [ ] None for this integration.", "N/A", "Keine."): it
# says nothing is there.
EMPTY_ANSWER = re.compile(
    r"^(?:[-*]\s+(?:\[ \]\s+)?)?(?:none|n/?a|nothing|nenhum[a]?|nada|keine?|无|没有|なし)"
    r"(?:\s+(?:for|yet|so\s+far|here|at\s+the\s+moment)\b[^.。]{0,40})?\s*[.。]?$",
    re.IGNORECASE,
)


def says_nothing(text: str) -> bool:
    """Whether a candidate's text is a form's "none", or a blank to fill."""
    return bool(EMPTY_ANSWER.match(text.strip())) or has_blank(text)


def has_blank(text: str) -> bool:
    """Whether a text holds a blank to fill outside its code ("`{{ secrets.token }}`" and
    "`[x for x in items]`" are code, not blanks)."""
    return bool(BLANK.search(INLINE_CODE.sub(" ", text) if "`" in text else text))


def size(text: str) -> int:
    """A text's length as a reader weighs it: a CJK character says about what two letters do."""
    if text.isascii():
        return len(text)
    return len(text) + len(WIDE_CHAR.findall(text))


def is_template(text: str) -> bool:
    """Whether a text is instructions with blanks to fill (a skill, a prompt or PR template, an
    analyzer's form): whatever cue words it holds, they describe no project."""
    if len(PLACEHOLDER.findall(text, 0, TEMPLATE_WINDOW)) >= TEMPLATE_BLANKS:
        return True
    boxes = (line for line in text[:TEMPLATE_WINDOW].splitlines() if UNCHECKED.match(line))
    return sum(bool(SECOND_PERSON.search(line)) for line in boxes) >= TEMPLATE_BLANKS


def is_session_summary(text: str) -> bool:
    """Whether a long text the person pasted is an agent's summary of an earlier session:
    written under the sections such summaries use ("Discoveries", "Critical Context")."""
    return len(text) > LONG_PROMPT_CHARS and summary_part(text) is not None


def summary_part(text: str) -> tuple[str, str] | None:
    """A pasted session summary's own lines (its first section heading, and the section
    headings and list items around it unbroken), and the text around them; None unless that
    run holds SUMMARY_SECTIONS section names or more."""
    if not SESSION_SECTIONS.search(text):
        return None
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if SESSION_SECTIONS.match(line.strip())), None)
    if first is None:
        return None

    def listed(line: str) -> bool:
        # A section's items, or its prose indented under it (Claude Code's "1. Primary Request
        # and Intent:\n   The user asked…").
        stripped = line.strip()
        indented = line[:1] in (" ", "\t")
        return not stripped or bool(
            indented or BULLET.match(line) or SESSION_SECTIONS.match(stripped)
        )

    start, end = first, first + 1
    while start > 0 and listed(lines[start - 1]):
        start -= 1
    while end < len(lines) and listed(lines[end]):
        end += 1
    run = lines[start:end]
    names = {
        " ".join(line.strip().strip("#*_:- ").lower().split())
        for line in run
        if SESSION_SECTIONS.match(line.strip())
    }
    if len(names) < SUMMARY_SECTIONS:
        return None
    # Its section names stand alone, as headings, even where no blank line sets them apart.
    summary = "\n".join(
        f"\n{line}\n" if SESSION_SECTIONS.match(line.strip()) else line for line in run
    )
    rest = "\n".join([*lines[:start], "", *lines[end:]])
    return summary, rest


def is_document(text: str) -> bool:
    """Whether the person's message is a document they gave (a spec, an issue, an earlier
    session, an approved plan) rather than a remark of their own."""
    return len(text) > LONG_PROMPT_CHARS or bool(PLAN.match(text))


def from_person(text: str) -> Iterator[Candidate]:
    """Yield what a person's prompt says worth keeping: how they want things done, facts about
    their project, what they miss. A long prompt is a document the person gave (a plan, an
    issue, a spec, an earlier session): mined as a report is. A template is never mined."""
    cues = compiled()
    if is_template(text):
        return
    if PLAN.match(text):
        yield from extract(text, report=True)  # an approved plan: decisions the agent made
        return
    pasted = summary_part(text) if len(text) > LONG_PROMPT_CHARS else None
    if pasted is not None:
        # An earlier session's summary, pasted with what came around it (often that
        # session's transcript): the summary is mined as a compaction summary is, what is
        # around it as the rest of a document the person gave.
        summary, rest = pasted
        yield from extract(summary, report=True)
        yield from extract(rest, report=True, person=True)
        return
    if is_document(text):
        yield from extract(text, report=True, person=True)
        return
    units = list(prose_units(text))
    for number, unit in enumerate(units):
        # People type without full stops: their last line heads nothing ("I prefer small
        # commits"), though a short line alone reads as a heading elsewhere.
        last = number == len(units) - 1 and unit.indent == LEAF_LEVEL
        if unit.kind in ("heading", "title") and not last:
            continue
        body = body_of(unit)
        if size(body) < MIN_CHARS or body.endswith(("?", "？")):
            continue
        found = classify(body, cues)
        probe = straight(body)
        if found is not None and found.category in ("facts", "tasks"):
            yield found
        elif cues.user_fact.search(body):
            yield Candidate("facts", "fact", cap(body), why="the person states it")
        elif directive := cues.directive.search(probe):
            # "…then open a PR and follow our tpr template": the rule, not the request
            rule = body[as_written(body, directive.start()) :]
            yield Candidate(
                "facts",
                "preference",
                cap(capitalised(rule)),
                why="how the person wants it",
            )
        elif (
            cues.user_preference.search(body)
            or (cues.obligation.search(probe) and not PERCEIVING.search(probe))
        ) and not cues.hedge.search(probe):
            # Said with a doubt, it reports what the person sees ("…と表示されるので正しく
            # 設定されていないようです": it seems not set up), not how things are to be done.
            # The person's own rule ("don't push to main"; not "I don't think that's it").
            yield Candidate("facts", "preference", cap(body), why="a rule of the person's")
