"""The verdict-word table: reviewers' vocabulary to APPROVE / REVISE / REJECT, and the keys
reviewers state a verdict under.

One table, read by the tolerant reader for every key value (``Verdict: LGTM``,
``**Decision:** REQUEST CHANGES``, ``## Verdict`` then ``**APPROVE_WITH_CHANGES**``,
``结论：不通过``, JSON ``overall_correctness``...).  Only the *leading* phrase of a value
counts (after emphasis, backticks, quotes and emoji; words joined by spaces, ``_`` or
``-`` alike), so a sentence that merely mentions a word ("we could approve once the tests
pass") is not a verdict; the rows are tried in order and the first that matches wins.  The
table is reproduced in docs/parse-verdict.md.

A value that enumerates choices (``APPROVE | REVISE | REJECT``, ``approve / bounce``,
``LGTM or CHANGES``) or is a placeholder (``<verdict>``, ``[GO / MODIFY / BLOCK]``)
is never a verdict; in a checkbox list only the checked ``[x]`` option is; in a value that
moves from one verdict to another (``REJECT → APPROVE``, ``~~REVISE~~ APPROVE``) the last
one is.
"""

from __future__ import annotations

import re

VOTES = ("APPROVE", "REVISE", "REJECT")

# A short word counts only when the value ends there or punctuation follows ("GO.",
# "PASS — 37 checks"), not when a sentence goes on ("go with option A").
# A mark after the word ends it too ("通过 ✅", "GO 👍", "不通过 ❌"): check, cross, warning,
# coloured circles, thumbs up
_MARK_END = (r"\u2705\u2714\u2713\u274c\u2716\u26a0\u2b55\U0001f7e2\U0001f7e1\U0001f7e0"
             r"\U0001f534\U0001f44d\U0001f44e")
_END = (r"(?=\s*(?:$|[.!,;:()\[\]\-\u2013\u2014/|*_`~\u3002\uff0c\uff1a\uff08\uff09" + _MARK_END
        + r"]))")
_CJK_END = (r"(?=\s*(?:$|[.!,;:()\[\]\-\u2013\u2014/|*_`~\u3001\u3002\uff01\uff0c\uff1a"
            r"\uff1b\uff08\uff09\u3010\u3011" + _MARK_END + r"]|但))")
_SEP = r"[\s_-]+"
_SEP0 = r"[\s_-]*"
# the approving words a condition may follow ("APPROVE WITH CHANGES", "GO with conditions")
_YES = r"(?:approve[sd]?|approval|accept(?:ed|s)?|pass(?:ed|es)?|go|ship|merge|lgtm|ok|" \
       r"(?:production|merge)[\s_-]?ready|ready(?:[\s_-]+(?:for|to)[\s_-]+(?:merge|production|" \
       r"release|ship|deploy(?:ment)?))?)"
_FEW = r"(?:(?:the|some|a|few|minor|major|small|required|requested|necessary|suggested|" \
       r"several|critical|mandatory|blocking|following|listed|high|priority|urgent|important|" \
       r"targeted|\d{1,3})" + _SEP + r"){0,3}"
_CHANGES = r"(?:changes?|modifications?|conditions?|constraints?|fix(?:es)?|revisions?|tweaks?|" \
           r"edits?|amendments?|rework|corrections?|required\s+changes|reservations?|" \
           r"(?:improvements?|enhancements?)" + _SEP + r"(?:needed|required|necessary))"
_NOTES = r"(?:suggestions?|comments?|nits?|nitpicks?|notes?|caveats?|observations?|" \
         r"recommendations?|remarks?|warnings?|follow[\s_-]?ups?|minor\s+issues|" \
         r"concerns?|improvements?|non[\s_-]?blocking\s+\w+|optional\s+\w+|polish)"

# to merge, in Russian (мержить, мерджить, сливать, вливать)
_RU_MERGE = (r"(?:\u043c\u0435\u0440\u0436\u0438\u0442\u044c|\u043c\u0435\u0440\u0434\u0436"
             r"\u0438\u0442\u044c|\u0441\u043b\u0438\u0432\u0430\u0442\u044c|\u0432\u043b\u0438"
             r"\u0432\u0430\u0442\u044c)")

# (pattern on the leading phrase, vote).  "BAD" marks a status a reviewer cannot give
# itself (TIMEOUT, ERROR...): the value is read but gives UNKNOWN with a warning.  A vote
# ending in "!" is read only under a Verdict key (and its kin), never under a weaker key
# such as Status (``Status: clean`` may be a working tree's).
VERDICT_TABLE: tuple[tuple[str, str], ...] = (
    # approves, but only with changes made first: it asks for changes
    (_YES + _SEP + r"(?:with|after|pending|once|subject\s+to|upon)" + _SEP + _FEW + _CHANGES,
     "REVISE"),
    # "Merge after cleaning up the dead code", "Merge after pagination fix": after work on
    # the change (not "Merge after manual testing confirms it", a check of it)
    (_YES + _SEP + r"after" + _SEP + r"(?:(?:addressing|fixing|cleaning|resolving|applying|"
     r"correcting|handling|removing|reverting|rebasing|updating|adding|creating|implementing|"
     r"renaming|refactoring|deleting|dropping|closing|tightening|restoring)(?![A-Za-z])"
     r"|(?:[\w-]+" + _SEP + r"){0,2}" + _CHANGES + _END + r")", "REVISE"),
    (r"conditional(?:ly)?" + _SEP + r"(?:pass(?:ed)?|approved?|approval|go|accept(?:ed)?"
     r"|merge)", "REVISE"),
    (_YES + _SEP + r"(?:\(?\s*)?conditional(?:ly)?", "REVISE"),
    (r"conditional" + _END, "REVISE"),
    (r"pass(?:ed)?" + _SEP + r"with" + _SEP + r"comments\s+to\s+address", "REVISE"),
    # approves, with notes that do not block
    (_YES + _SEP + r"(?:with|but|plus|and)" + _SEP + _FEW + _NOTES, "APPROVE"),
    (r"request(?:s|ed|ing)?" + _SEP + r"(?:for" + _SEP + r")?changes?"
     r"|changes?" + _SEP + r"(?:requested|required|needed|requires?)", "REVISE"),
    (r"(?:needs?|requires?|required|requiring)" + _SEP
     + r"(?:(?:some|more|minor|major|significant|substantial|further|small|a|few|additional|"
       r"another|critical)" + _SEP + r"){0,3}"
     r"(?:changes?|work|revisions?|fix(?:es|ing)?|rework|attention|improvements?|"
     r"modifications?|corrections?|iterations?|pass|round|review)", "REVISE"),
    (r"(?:major|minor|significant|substantial)" + _SEP + r"(?:revisions?|rework)", "REVISE"),
    (r"(?:(?:some|minor|major|small|a|few|several|significant|substantial|critical|blocking|"
     r"required|necessary)" + _SEP + r"){1,2}(?:changes?|fix(?:es)?|revisions?|corrections?)"
     r"(?:" + _SEP + r"(?:needed|required|requested|necessary|first))?" + _END, "REVISE"),
    (r"partial(?:ly)?" + _SEP + r"(?:pass(?:ed)?|approv\w*|accept\w*|go)|partial" + _END
     + r"|(?:revise" + _SEP + r"and" + _SEP + r")?resubmit", "REVISE"),
    (r"no" + _SEP0 + r"go|not" + _SEP + r"(?:yet" + _SEP + r")?(?:ready|approved|mergeable"
     r"|safe" + _SEP + r"to" + _SEP + r"(?:merge|ship)|(?:production|merge|release)"
     + _SEP0 + r"ready|lgtm|passing)|fix(?:es)?" + _SEP + r"(?:required|needed|first)"
     r"|unsatisfactory|insufficient"
     # "Cannot approve in its current state", "Unable to sign off yet"
     r"|(?:cannot|can't|can" + _SEP + r"not|unable" + _SEP + r"to)" + _SEP + r"(?:yet" + _SEP
     + r")?(?:approve|merge|accept|sign" + _SEP + r"off|ship)"
     # "should not be approved as is", "La PR ne devrait pas être approuvée en l'état"
     r"|(?:should|must|can|could|would)(?:" + _SEP + r"not|n't)" + _SEP + r"(?:yet" + _SEP
     + r")?be" + _SEP + r"approved|(?:ne" + _SEP + r")?(?:devrait|doit|peut|pourrait)" + _SEP
     + r"pas" + _SEP + r"(?:encore" + _SEP + r")?(?:[\u00eae]tre" + _SEP + r")?approuv\w*",
     "REVISE"),
    (r"revise[sd]?|revision(?:s)?(?:" + _SEP + r"(?:required|needed|requested))?|rework|iterate",
     "REVISE"),
    (r"patch" + _SEP + r"is" + _SEP + r"incorrect", "REVISE"),
    # ("NG", no good: a fail in Japanese usage, the pair of OK)
    (r"(?:fail(?:ed|s|ing|ure)?(?:\s+again)?|block(?:ed|s)?|on" + _SEP + r"hold|hold|ng|"
     r"(?:has|with|some|minor|major|open)?" + _SEP0 + r"concerns?)" + _END, "REVISE"),
    # does not merge
    (r"(?:do" + _SEP + r"not|don'?t)" + _SEP + r"(?:merge|ship|deploy|release|land)|dnm"
     r"|reject(?:s|ed)?|rejection|(?:blocker|blocking)" + _END
     # "BLOCK MERGE", "Block the release": it says the change must not merge
     + r"|block(?:s|ing)?" + _SEP + r"(?:the" + _SEP
     + r")?(?:merge|merging|release|deploy(?:ment)?)" + _END, "REJECT"),
    # approves
    (r"approve[sd]?|approval|lgtm|looks" + _SEP + r"good(?:" + _SEP + r"to" + _SEP + r"me)?"
     r"|accept(?:ed|s|able)?(?:" + _SEP + r"as" + _SEP0 + r"is)?|ship" + _SEP + r"it"
     r"|(?:ready|safe|good|ok|okay)" + _SEP
     + r"(?:to|for)" + _SEP + r"(?:merge|ship|land|go|release|deploy|production)"
     # "Ready for PR review and merge": the review is done and says merge
     + r"|ready" + _SEP + r"for" + _SEP + r"(?:(?:pr|code|final)" + _SEP + r")?review" + _SEP
     + r"and" + _SEP + r"merg(?:e|ing)"
     r"|(?:production|merge|release|ship)" + _SEP0 + r"ready|mergeable"
     r"|patch" + _SEP + r"is" + _SEP + r"correct|green" + _SEP + r"light"
     r"|(?:go|pass(?:ed|es)?|ship)" + _END
     # "Conclusion: Recommend Merge" (alone: "recommend merging after the fix" is a sentence)
     + r"|(?:recommend(?:ed|s)?" + _SEP + r"(?:to" + _SEP + r")?merg(?:e|ing)|merge" + _SEP
     + r"recommended)(?=\s*(?:$|[.!*_`]))", "APPROVE"),
    # "READY", "✅ READY FOR A3" (the next stage) under a Verdict key; not "Ready for review"
    (r"ready(?:" + _SEP + r"(?:for|to)" + _SEP
     + r"(?![^\n.;,]{0,40}?(?:review|discussion|triage|feedback))[\w.-]{1,30}"
     r"|(?!" + _SEP + r"(?:for|to)(?![A-Za-z])))" + _END, "APPROVE!"),
    (r"(?:clean|ok|okay|sound|verified|no" + _SEP + r"(?:blocking" + _SEP + r")?(?:issues|findings|"
     r"problems|blockers)(?:" + _SEP + r"found)?)" + _END, "APPROVE!"),
    # a traffic light or a blocking scale answered under a Verdict key ("🔴 Red — …",
    # "Green", "NON-BLOCKING"): red asks for changes, green and non-blocking approve
    (r"red" + _END, "REVISE!"),
    (r"(?:green|non" + _SEP0 + r"blocking)" + _END, "APPROVE!"),
    # other languages: Chinese, Japanese, Korean
    # (a single word only alone or before punctuation: 通过 is also "by means of", 拒绝
    # begins 拒绝服务, "denial of service")
    (r"(?:(?:有条件|條件付き|条件付き|条件付)(?:通过|通過|承認|合格|批准)?|不通过|未通过|不通過|"
     r"不合格|差し戻し|보류)" + _CJK_END + r"|需要?修改|需要?修正|需改进|建议修改|要修正|"
     r"修正が必要|不可合并|暂不合并|(?:暂|目前|现阶段)?不建议(?:合并|合入|上线)|수정\s*필요|"
     r"(?:暂|目前)?(?:不能|无法|無法)(?:合并|合入)(?![\u7684\u7406\u539f])|需要?返工|条件付きで(?:承認|マージ|合格)|"
     r"(?:머지|병합)\s*보류|수정\s*후\s*재검토|"
     r"修改后(?:合并|通过)|要求修改|请求修改|需返工|待修改|有条件合并|修正依頼|要対応|要改善|"
     r"変更要求|修正後(?:に)?(?:承認|マージ)|マージ不可|수정\s*요청|변경\s*(?:요청|필요)|보완\s*필요|"
     r"재검토\s*필요|조건부\s*승인|수정\s*후\s*(?:승인|머지|병합)|"
     r"(?:(?:현|현재)\s*상태(?:로는?|에서는?)\s*)?(?:머지|병합)(?:\s*[·/,]\s*배포)?\s*불가",
     "REVISE"),
    # "重大-1 に手当てを入れれば merge 可" (mergeable once the work is done): it asks for it
    (r"[^\u3002\n]{0,120}?(?:修正|対応|手当て|直し|追加|削除|反映|解消|実行)[^\u3002\n]{0,40}?"
     r"(?:すれば|入れれば|したら|れば|後に?|上で)[\s*_\u3001,]*(?:merge|マージ)\s*(?:可|OK|可能)",
     "REVISE"),
    (r"(?:拒绝|驳回|否决|却下|拒否|거부|반려)" + _CJK_END, "REJECT"),
    (r"(?:通过|通過|批准|合格|承認|承认|승인|통과|合并|合入)" + _CJK_END
     + r"|已(?:通过|通過|批准)|このまま(?:マージ|取り込み)|"
     r"同意合并|可以合并|可合并|問題なし|无问题|没有问题|建议合并|准予合并|マージ可(?:能)?|"
     r"(?:(?:本轮|本次|这次|该|此)?(?:修改|改动|变更|提交|代码|PR)?)(?:可以|可)"
     r"(?:接受|合入|上线|发布|提交)(?![吗嗎？?])|受け入れ可能?|수용\s*가능|"
     r"(?:머지|병합)\s*가능|문제\s*없음", "APPROVE"),
    # other languages: Portuguese, Spanish, French, Italian, German, Russian ("Aprovado com
    # ressalvas", "Requiere cambios", "Modifications requises", "Änderungen erforderlich",
    # "Требуются доработки" ask for changes; "Reprovado", "Nicht bestanden" fail; "Rejeitado",
    # "Abgelehnt" reject; "Aprovado", "Freigegeben", "Одобрено" approve)
    (r"(?:aprovad[oa]|aprobad[oa]|approuv[\u00e9e]e?|approvat[oa]|freigabe|freigegeben|genehmigt|"
     r"\u043e\u0434\u043e\u0431\u0440\u0435\u043d[\u043e\u0430]?|annahme)\s+(?:com|con|avec|"
     r"sous|mit|"
     r"\u0441)\s+(?:(?:as|los|las|les|le|la|i)\s+)?(?:ressalvas?|condi[c\u00e7](?:[o\u00f5]es|"
     r"iones)|conditions?|condizioni|riserva|r[\u00e9e]serves?|ajustes|altera[c\u00e7][o\u00f5]es|"
     r"cambios|modifications?|modifiche|[\u00e4a]nderungen|auflagen|"
     r"\u0438\u0437\u043c\u0435\u043d\u0435\u043d\u0438\u044f\u043c\u0438|"
     r"\u0443\u0441\u043b\u043e\u0432\u0438\u044f\u043c\u0438|"
     r"\u043e\u0433\u043e\u0432\u043e\u0440\u043a\u0430\u043c\u0438)"
     r"|aprova[c\u00e7][a\u00e3]o\s+condicional|aprobaci[o\u00f3]n\s+condicional|"
     r"approbation\s+conditionnelle|approvazione\s+condizionata|bedingt\s+freigegeben|"
     r"bedingte\s+freigabe|\u0443\u0441\u043b\u043e\u0432\u043d\u043e\s+\u043e\u0434\u043e"
     r"\u0431\u0440\u0435\u043d\u043e"
     r"|(?:requer|requiere|exige|necessita(?:\s+de)?|precisa(?:\s+de)?|necesita|n[\u00e9e]cessite|"
     r"richiede|erfordert|ben[\u00f6o]tigt|\u0442\u0440\u0435\u0431\u0443\u0435\u0442(?:\u0441"
     r"\u044f)?|\u0442\u0440\u0435\u0431\u0443\u044e\u0442\u0441\u044f|\u043d\u0443\u0436\u043d"
     r"[\u044b\u043e])\s+(?:(?:des|de|di|delle|der|some|alguns|algumas|algunos|algunas)\s+)?"
     r"(?:altera[c\u00e7][o\u00f5]es|ajustes|corre[c\u00e7][o\u00f5]es|"
     r"revis[a\u00e3]o|cambios|correcciones|revisi[o\u00f3]n|modifications?|corrections?|modifiche|"
     r"correzioni|[\u00e4a]nderungen|nacharbeit|\u00fcberarbeitung|\u0438\u0437\u043c\u0435\u043d"
     r"\u0435\u043d\u0438[\u0439\u044f]|\u0434\u043e\u0440\u0430\u0431\u043e\u0442\w*|"
     r"\u0438\u0441\u043f\u0440\u0430\u0432\u043b\u0435\u043d\u0438\w*)"
     r"|(?:altera[c\u00e7][o\u00f5]es|ajustes|corre[c\u00e7][o\u00f5]es|cambios|modifications?|"
     r"changements|modifiche|[\u00e4a]nderungen)\s+(?:necess[a\u00e1]ri[oa]s|solicitad[oa]s|"
     r"requerid[oa]s|obrigat[o\u00f3]ri[oa]s|necesari[oa]s|requis(?:es)?|demand[\u00e9e]e?s|"
     r"n[\u00e9e]cessaires|richieste|necessarie|erforderlich|angefordert|n[\u00f6o]tig|notwendig)"
     r"|(?:nacharbeit|\u00fcberarbeitung)\s+(?:erforderlich|n[\u00f6o]tig|notwendig)|"
     # "Freigabe nach Behebung der Punkte", "Mergen erst nach dem Fix": after work on it
     r"(?:freigabe|freigeben|merge|mergen)\s+(?:erst\s+)?nach\s+(?:der\s+|dem\s+|den\s+)?"
     r"(?:behebung|korrektur|umsetzung|einarbeitung|fix(?:es)?|[\u00e4a]nderungen)|"
     # "нужно исправить" (it needs fixing)
     r"(?:\u043d\u0443\u0436\u043d\u043e|\u043d\u0430\u0434\u043e|\u043d\u0435\u043e\u0431"
     r"\u0445\u043e\u0434\u0438\u043c\u043e|\u0442\u0440\u0435\u0431\u0443\u0435\u0442"
     r"\u0441\u044f)\s+(?:\u0438\u0441\u043f\u0440\u0430\u0432\u0438\u0442\u044c|\u0434"
     r"\u043e\u0440\u0430\u0431\u043e\u0442\u0430\u0442\u044c|\u043f\u043e\u043f\u0440"
     r"\u0430\u0432\u0438\u0442\u044c|\u043f\u0435\u0440\u0435\u0434\u0435\u043b\u0430"
     r"\u0442\u044c)|"
     r"[\u00e0a]\s+(?:corriger|revoir|retravailler)|da\s+(?:rivedere|correggere)|"
     r"\u043d\u0430\s+\u0434\u043e\u0440\u0430\u0431\u043e\u0442\u043a\u0443|"
     r"\u0434\u043e\u0440\u0430\u0431\u043e\u0442\u0430\u0442\u044c|"
     # "нельзя мержить" (may not merge), "можно мержить после фикса" (merge after the fix),
     # "не готово к мержу" (not ready to merge)
     r"\u043d\u0435\u043b\u044c\u0437\u044f\s+" + _RU_MERGE
     + r"|\u043c\u043e\u0436\u043d\u043e\s+" + _RU_MERGE
     + r"\s+\u043f\u043e\u0441\u043b\u0435\s+(?:\u0444\u0438\u043a\u0441\u0430|\u0438\u0441"
       r"\u043f\u0440\u0430\u0432\u043b\u0435\u043d\u0438\w*|\u043f\u0440\u0430\u0432\u043e"
       r"\u043a|\u0434\u043e\u0440\u0430\u0431\u043e\u0442\w*)|\u043d\u0435\s+\u0433\u043e"
       r"\u0442\u043e\u0432[\u043e\u0430]?\s+\u043a\s+(?:\u043c\u0435\u0440\u0436\u0443|"
       r"\u043c\u0435\u0440\u0434\u0436\u0443|\u0441\u043b\u0438\u044f\u043d\u0438\u044e|"
       r"\u0440\u0435\u043b\u0438\u0437\u0443)|"
     r"(?:no|n[a\u00e3]o)\s+aprobar|n[a\u00e3]o\s+aprovar|"
     r"reprovad[oa]|n[a\u00e3]o\s+aprovad[oa]|no\s+aprobad[oa]|non\s+approuv[\u00e9e]e?|"
     r"non\s+approvat[oa]|nicht\s+(?:freigegeben|bestanden)|keine\s+freigabe|no\s+pas\u00f3|"
     # Vietnamese: not passed / not approved, needs changes, changes requested
     r"kh\u00f4ng\s+(?:\u0111\u1ea1t|ch\u1ea5p\s+thu\u1eadn|ph\u00ea\s+duy\u1ec7t)|"
     r"c\u1ea7n\s+(?:s\u1eeda|ch\u1ec9nh\s+s\u1eeda|thay\s+\u0111\u1ed5i)|"
     r"y\u00eau\s+c\u1ea7u\s+(?:s\u1eeda|ch\u1ec9nh\s+s\u1eeda|thay\s+\u0111\u1ed5i)|"
     r"\u043d\u0435\s+\u043e\u0434\u043e\u0431\u0440\u0435\u043d[\u043e\u0430]?", "REVISE"),
    (r"rejeitad[oa]|recusad[oa]|rechazad[oa]|rejet[\u00e9e]e?|refus[\u00e9e]e?|respint[oa]|"
     r"rifiutat[oa]|abgelehnt|ablehnung(?:\s+empfohlen)?|t\u1eeb\s+ch\u1ed1i|"
     r"\u043d\u0435\s+" + _RU_MERGE
     + r"|\u043e\u0442\u043a\u043b\u043e\u043d\u0435\u043d[\u043e\u0430]?|"
     r"(?:n[a\u00e3]o|no|ne\s+pas|nicht|non)\s+(?:fazer\s+)?(?:mesclar|merge|mergear|fusionar|"
     r"fusionner|mergen|unire)", "REJECT"),
    # an imperative to ship it, alone as a key's value ("Empfehlung: Deployen.")
    (r"(?:mergen|deployen|freigeben|ausrollen|mesclar|implantar|fusionar|d[\u00e9e]ployer|"
     r"rilasciare)(?=[\s*_`]*(?:$|[.!\u3002]))", "APPROVE"),
    (r"aprovad[oa]|aprobad[oa]|approuv[\u00e9e]e?|valid[\u00e9e]e?|approvat[oa]|accettat[oa]|"
     r"freigegeben|freigabe|genehmigt|angenommen|bestanden|pas\u00f3(?!\w)|"
     # Vietnamese: approved, passed
     r"ch\u1ea5p\s+thu\u1eadn|ph\u00ea\s+duy\u1ec7t|\u0111\u1ea1t(?!\w)|"
     r"merge[\s_-]?bereit|bereit\s+(?:zum|f[\u00fcu]r(?:\s+den)?)\s+merge|"
     r"pr[\u00eae]te?\s+[\u00e0a]\s+(?:fusionner|merger|[\u00eae]tre\s+fusionn[\u00e9e]e?)|"
     r"pront[oa]\s+per\s+(?:il\s+)?(?:merge|rilascio)|"
     # a paper's or a change's acceptance, recommended or without conditions
     r"annahme\s+(?:empfohlen|ohne\s+(?:auflagen|[\u00e4a]nderungen))|\u043e\u0434\u043e"
     r"\u0431\u0440\u0435"
     r"\u043d[\u043e\u0430]?|\u043e\u0434\u043e\u0431\u0440\u044f\u044e|"
     # "можно мержить" (may merge), "готово к мержу" (ready to merge)
     r"\u043c\u043e\u0436\u043d\u043e\s+" + _RU_MERGE
     + r"|\u0433\u043e\u0442\u043e\u0432[\u043e\u0430]?\s+\u043a\s+(?:\u043c\u0435\u0440"
       r"\u0436\u0443|\u043c\u0435\u0440\u0434\u0436\u0443|\u0441\u043b\u0438\u044f\u043d"
       r"\u0438\u044e)|"
     r"\u043f\u0440\u0438\u043d\u044f\u0442[\u043e\u0430]?|(?:pront[oa]|list[oa]|pr[\u00eae]te?)"
     r"\s+(?:para|pour)\s+(?:o\s+|el\s+|le\s+|la\s+)?(?:merge|mesclar|fusionar|fusionner|"
     r"produ[c\u00e7][a\u00e3]o|producci[o\u00f3]n|production)", "APPROVE"),
    # a reviewer cannot declare itself failed
    (r"timeout|timed" + _SEP + r"out|error|unavailable|unknown", "BAD"),
)

_LEAD = re.compile(r"^[\W_]+", re.U)
_TABLE = tuple((re.compile(r"(?:" + p + r")(?![A-Za-z])", re.I), v) for p, v in VERDICT_TABLE)
_ANY_WORD = re.compile(
    r"(?<![A-Za-z])(?:approve[sd]?|approval|lgtm|revise[sd]?|reject(?:ed)?|request[\s_-]+changes|"
    r"changes[\s_-]+(?:requested|required)|needs?[\s_-]+\w+|no[\s_-]?go|go|block|pass|fail|"
    r"accept(?:ed)?|bounce|modify|improve|reconsider|solid|iterate|changes|reflect|nits?)"
    r"(?![A-Za-z])", re.I)
_CHOICE_SEP = re.compile(r"\s*(?:\||/|\bor\b|,)\s*", re.I)
_PLACEHOLDER = re.compile(r"^\s*(?:<[^>\n]{1,80}>|\[[^\]\n]{1,80}\]|\{[^}\n]{1,80}\})\s*$")
_BOX = re.compile(r"\[(?P<x>[ xX\u2713\u2714])\]")
_STRUCK = re.compile(r"~~[^~\n]{0,200}~~")
_ARROW = re.compile(r"\u2192|->|=>|\u21d2|\u27f6|\u2794|\u279c")
LINE_CAP = 4000  # characters of a line read for keys (a verdict is near a key's start)
VALUE_CAP = 400  # characters of a value read for its verdict


_DECIDING = re.compile(
    r"(?<![A-Za-z])(?:approv\w*|lgtm|revis\w*|reject\w*|block\w*|pass\w*|fail\w*|merg\w*|"
    r"ship\w*|chang\w*|needs?|required?|ready|go|discuss\w*|hold|accept\w*|decid\w*|"
    r"verdict|undecided|pending|blocker|conditional\w*|fix\w*|"
    # doubt about the verdict is about the verdict: "I am not sure", "it depends"
    r"not|no|sure|unsure|uncertain|unclear|maybe|perhaps|depends|cannot|can't|tbd)"
    r"(?![A-Za-z])", re.I)


# "No bottlenecks identified": what a check found, not a doubt about the verdict
_NONE_FOUND = re.compile(r"\bno\s+(?:[\w-]+\s+){0,3}?(?:identified|found|detected|observed|"
                         r"spotted)\b", re.I)


_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# the CJK words of a decision, or of doubt about it: pass, merge, approve, reject, change,
# fix, hold, undecided
_CJK_DECIDING = re.compile(
    "\u901a\u8fc7|\u901a\u904e|\u5408\u5e76|\u5408\u5165|\u6279\u51c6|\u62d2\u7edd|"
    "\u9a73\u56de|\u4fee\u6539|\u4fee\u6b63|\u627f\u8a8d|\u5374\u4e0b|\u30de\u30fc\u30b8|"
    "\uc2b9\uc778|\uac70\ubd80|\uc218\uc815|\ubcf4\ub958|\ubc18\ub824|\uba38\uc9c0|"
    "\ubcd1\ud569|\u5f85\u5b9a|\u672a\u5b9a|\u4e0d\u786e\u5b9a|\u53d6\u51b3")


def is_name(value: str) -> bool:
    """A Verdict key's value that names a thing and no decision ("# Re-Review Verdict —
    Flight Control"): the key is a title's word.  A word in capitals ("DISAGREE") may be
    a decision the table does not know: not a name."""
    v = value.strip().strip("*_`\"' ")
    first = re.sub(r"[\W_]+", "", v.split()[0]) if v.split() else ""
    return bool(first) and not first.isupper() and vote_of(v) is None \
        and _DECIDING.search(v) is None


def is_remark(value: str) -> bool:
    """A Verdict key's value that is a sentence about something else and names no
    decision at all ("The storage layer is well covered by its tests.", "Performance is
    excellent - no bottlenecks identified"): a remark a reviewer put under a Verdict
    label, not a statement of the verdict."""
    v = value.strip().strip("*_` ")
    if len(_CJK_CHAR.findall(v[:200])) >= 8:
        # a sentence in Chinese, Japanese or Korean ("描述可接受，但表述不够精确")
        return vote_of(v) is None and _CJK_DECIDING.search(v) is None
    return len(v.split()) >= 4 and vote_of(v) is None \
        and _DECIDING.search(_NONE_FOUND.sub(" ", v)) is None


def checked(value: str) -> str | None:
    """In a value of checkbox options (``[ ] APPROVE [x] REVISE``), the text of the one
    checked option; None when the value has no box, no checked box or several."""
    boxes = list(_BOX.finditer(value))
    if not boxes:
        return None
    ticked = [i for i, b in enumerate(boxes) if b["x"] != " "]
    if len(ticked) != 1:
        return None
    i = ticked[0]
    end = boxes[i + 1].start() if i + 1 < len(boxes) else len(value)
    return value[boxes[i].end():end]


def is_enumeration(value: str) -> bool:
    """True for a list of choices or a placeholder, not a verdict."""
    v = value.strip().strip("*_`\"'")
    if _BOX.search(v):
        # options to tick; one box alone is a task's state ("Status: [ ] Pendente"), not a
        # form, unless it names a verdict
        return checked(v) is None and (len(_BOX.findall(v)) >= 2 or _lookup(
            _BOX.sub(" ", v), True, False) in VOTES)
    if _PLACEHOLDER.match(v):
        return True
    head = v[:160]
    if not _CHOICE_SEP.search(head):
        return False
    # two verdict words (in any language of the table) joined by a choice separator
    parts = [p for p in re.split(r"\s*(?:\||/|\bor\b)\s*", head, flags=re.I) if p.strip()]
    voted = [p for p in parts[:12] if _ANY_WORD.search(p) or _lookup(p, True, False) in VOTES]
    if len(voted) >= 2:
        return True
    # "OK | 調整推奨 | 大幅修正推奨": three or more short options, one of them a verdict word
    # the table knows (the others in words it does not), with no count or key among them
    opts = [p.strip("*_` ") for p in re.split(r"\s+[|/]\s+", head) if p.strip("*_` ")]
    return len(opts) >= 3 and bool(voted) and all(
        len(p) <= 24 and len(p.split()) <= 3 and not re.search(r"[\d:=]", p) for p in opts)


# a machine key written inside the value ("`REVIEW_RESULT: PASS`"): its value is the verdict
_INNER_KEY = re.compile(r"^(?:[A-Z][A-Z0-9]*_)*(?:RESULT|VERDICT|DECISION|STATUS|OUTCOME)"
                        r"\s*[:=]\s*")


# the change a value names before its verdict ("PR remains blocked", "This PR is ready to
# merge", "La PR ne devrait pas être approuvée"): the verdict is what follows
_ARTICLE = (r"(?:the|this|that|la|le|cette|ce|el|este|esta|o|a|der|die|das|diese[rs]?|il|lo|"
            r"questa|questo)")
_CHANGE_WORDS = r"pr|mr|pull\s+request|merge\s+request|change(?:set)?|patch|branch|diff"
_CHANGE_NOUN = r"(?:" + _CHANGE_WORDS + r")"
_COPULA = (r"(?:(?:is|remains|stays|still|now|currently|est|reste|ist|bleibt|es|est\u00e1|"
           r"sigue|\u00e9|fica|continua|\u00e8)\s+){0,2}(?=\S)")
_SUBJECT = re.compile(r"^(?:" + _ARTICLE + r"\s+)?" + _CHANGE_NOUN + r"(?:\s+#?\d{1,7})?\s+"
                      + _COPULA, re.I)


# a later clause of a Verdict key's sentence that names the change or the plan before its
# verdict ("the diagnosis holds; the plan needs corrections before it is built", "el
# diagnóstico es correcto; el plan requiere correcciones"): the verdict is what follows
_CLAUSE_CUT = re.compile(r"\s*(?:[;\uff1b\u3002]|\.\s|\s[\u2014\u2013]\s|"
                         r",\s+(?:but|yet|pero|mas|mais|aber|ma)\s)\s*", re.I)
_CLAUSE_SUBJECT = re.compile(
    r"^(?:(?:but|yet|pero|mas|mais|aber|ma|however,?)\s+)?" + _ARTICLE + r"\s+"
    r"(?:" + _CHANGE_WORDS + r"|plan|design|proposal|implementation|fix|code|plano|"
    r"dise\u00f1o|propuesta|implementaci\u00f3n|cambio|c\u00f3digo|proposta|"
    r"implementa\u00e7\u00e3o|mudan\u00e7a|projet|proposition|correctif|entwurf|umsetzung|"
    r"\u00e4nderung|progetto|piano|modifica)\s+" + _COPULA, re.I)


def _clause_vote(value: str, strict: bool) -> str | None:
    """The verdict a later clause of a Verdict key's sentence states about the change or
    the plan it names first; None when no clause does (or two disagree)."""
    got: set[str] = set()
    for clause in _CLAUSE_CUT.split(value[:VALUE_CAP])[1:8]:
        rest = _CLAUSE_SUBJECT.sub("", clause.strip(), count=1)
        if rest != clause.strip():
            v = _match(rest, True, strict)
            if v in VOTES:
                got.add(v)
    return got.pop() if len(got) == 1 else None


def _lookup(v: str, strong: bool, strict: bool) -> str | None:
    v = _LEAD.sub("", v.strip())
    v = v.replace("**", "").replace("__", "").replace("`", "")
    v = _LEAD.sub("", v)[:120]
    v = _INNER_KEY.sub("", v, count=1)
    got = _match(v, strong, strict)
    if got is None and (rest := _SUBJECT.sub("", v, count=1)) != v:
        got = _match(rest, strong, strict)  # "PR remains blocked": what follows the change
    return got


def _match(v: str, strong: bool, strict: bool) -> str | None:
    for rx, vote in _TABLE:
        m = rx.match(v)
        if m:
            if strict and not re.match(r"\s*(?:$|[^\w\s])", v[m.end():]) \
                    and not v[:m.end()].isupper():
                return None  # "Approve once the tests pass": a sentence, not a value
            if vote.endswith("!"):
                return vote[:-1] if strong else None
            return vote
    return None


# "PASS — 536,035 checks", "FAIL (3/40 tests)": a count of checks a test run passed or
# failed, a result of the tests and not the review's verdict under a weaker key
_CHECK_COUNT = re.compile(
    r"^[\W_]*(?:pass(?:ed|es)?|fail(?:ed|s)?)[\W_]+[\d][\d,./ ]*\s*(?:of\s+[\d,]+\s+)?"
    r"(?:checks?|tests?|cases?|assertions?|specs?)\b", re.I)
# "FAILED - Exit code: 1", "passed (exit status 0)": a command's result, told by its exit
# status, and not the review's verdict under a weaker key ("Result", "Status")
_EXIT_STATUS = re.compile(
    r"\bexit(?:ed)?(?:\s+with)?[\s_-]*(?:code|status)\b|\breturn(?:ed)?\s+code\b", re.I)
# a tick or a cross (a thumb) alone
_MARK_ONLY = re.compile(r"(?:(?P<yes>[\u2705\u2714\u2713\U0001f44d])|"
                        r"[\u274c\u2716\u2717\U0001f44e])\ufe0f?")
# a value whose first sentence asks ("Ready to merge?", "Approve? Not yet.")
_QUESTION = re.compile(r"^[^.!\n\u3002]{0,80}[?\uff1f]")
# "Pass `x` into the helper": a verb before a code span, a sentence and not the phrase
_VERB_THEN_CODE = re.compile(r"^[\W_]*[A-Za-z]+\s+`")


def vote_of(value: str, strong: bool = True, strict: bool = False) -> str | None:
    """APPROVE, REVISE or REJECT for the value's leading phrase; "BAD" for a status word;
    None when the value does not start with a verdict (or enumerates choices).

    ``strong``: the value is a Verdict key's (the words marked ``!`` in the table count);
    ``strict``: the phrase must end the value or be followed by punctuation, or be
    written in capitals (a line under a heading, not a key's value)."""
    value = _STRUCK.sub(" ", value[:VALUE_CAP])
    mark = _MARK_ONLY.fullmatch(value.strip().strip("*_` "))
    if mark is not None:
        # "**Verdict:** ✅", "Verdict: ❌": a tick or a cross alone, under a Verdict key
        return ("APPROVE" if mark["yes"] else "REVISE") if strong else None
    if _QUESTION.match(value):
        return None  # "Ready to merge?": a question, whatever it names
    if (strict or not strong) and _VERB_THEN_CODE.match(value) \
            or not strong and (_CHECK_COUNT.match(value)
                               or _EXIT_STATUS.search(value[:200]) is not None):
        return None
    box = checked(value)
    if box is not None:
        value = box
    elif _BOX.search(value):
        return None  # unchecked options, or several checked: no choice made
    if is_enumeration(value):
        return None
    parts = _ARROW.split(value)
    if len(parts) > 1:
        # "REJECT → APPROVE": the verdict it moved to (when what follows names one)
        for part in reversed(parts[1:]):
            got = _lookup(part, strong, False)
            if got is not None:
                return got
        value = parts[0]
    got = _lookup(value, strong, strict)
    if got is None and strong and not strict:
        got = _clause_vote(value, strict)
    return got


# a Recommendation key's sentence that recommends merging (or not): "I would recommend
# merging this pull request.", "We do not recommend merging this PR yet."
_RECOMMEND = re.compile(
    r"^(?:(?:i|we)\s+)?(?:(?:would|do|therefore|thus|hence|also|strongly)\s+){0,3}"
    r"(?P<neg>(?:not|never)\s+|(?:don't|wouldn't|cannot|can't|can\s+not)\s+)?"
    r"(?:strongly\s+)?recommends?\s+(?:merging|approving|accepting|(?:the\s+)?approval\s+of|"
    r"(?:that\s+)?(?:we\s+)?merge)"
    r"(?:\s+(?:of\s+)?(?:this|the)\s+(?:pull\s+request|pr|mr|merge\s+request|change(?:s|set)?|"
    r"patch|branch|diff))?(?:\s+(?:as[\s-]is|now|yet|as\s+it\s+stands))?\s*[.!]?\s*$", re.I)


def recommendation_vote(sentence: str) -> str | None:
    """APPROVE for a sentence that recommends merging the change and nothing more ("I would
    recommend merging this pull request."), REVISE for one that recommends against it;
    None otherwise (a condition or anything else after it is a sentence of its own)."""
    m = _RECOMMEND.match(sentence.replace("**", "").replace("__", "").strip()[:200])
    if m is None:
        return None
    return "REVISE" if m["neg"] else "APPROVE"


# a Recommendation key (not "Recommendations", a list of suggestions)
_RECOMMEND_KEY = re.compile(r"^[^\w]*(?:\d{1,3}[.)]\s*)?(?:(?:final|merge|overall|my|our)\s+)?"
                            r"recommendation[*_`\s]*(?::|$)", re.I)


def is_recommendation_key(line: str) -> bool:
    """A line that opens with a Recommendation key (``## Recommendation``, ``**Merge
    recommendation:** …``)."""
    return _RECOMMEND_KEY.match(line.strip()[:80]) is not None


# --------------------------------------------------------------------------- #
# The keys a verdict is stated under
# --------------------------------------------------------------------------- #
# Verdict (with any short qualifier: "Final verdict", "Governance Verdict", "Codex's
# verdict") is a Verdict key; the weaker keys count only when their value names a verdict,
# and only when no Verdict key is there.  A qualifier such as "Original"/"Initial" marks a
# verdict a later one replaces; "New"/"Updated"/"Final" one that replaces earlier ones.
_WEAK_HEADS = (r"judge?ments?|decision|status|result|outcome|assessment|recommendation|readiness|"
               r"conclusion|gate|evaluation|approval|call|correctness|overall|action|"
               # in Portuguese, Spanish, French, Italian, German and Russian
               r"estado|statut|stato|decis[a\u00e3]o|decisi[o\u00f3]n|decisione|d[\u00e9e]cision|entscheidung|"
               r"parecer|dictamen|"
               r"empfehlung|recomenda[c\u00e7][a\u00e3]o|recomendaci[o\u00f3]n|raccomandazione|"
               r"recommandation|conclus[a\u00e3]o|conclusi[o\u00f3]n|conclusione|fazit|ergebnis|"
               r"resultado|risultato|r[\u00e9e]sultat|esito|avalia[c\u00e7][a\u00e3]o|"
               r"evaluaci[o\u00f3]n|valutazione|bewertung|[\u00e9e]valuation|"
               r"\u0438\u0442\u043e\u0433|\u0440\u0435\u0448\u0435\u043d\u0438\u0435|"
               r"\u0437\u0430\u043a\u043b\u044e\u0447\u0435\u043d\u0438\u0435|"
               r"\u0440\u0435\u043a\u043e\u043c\u0435\u043d\u0434\u0430\u0446\u0438\u044f|"
               r"\u0432\u044b\u0432\u043e\u0434|"
               # in Vietnamese: conclusion, assessment, decision
               r"k\u1ebft\s+lu\u1eadn|\u0111\u00e1nh\s+gi\u00e1|quy\u1ebft\s+\u0111\u1ecbnh|"
               # a key named by its choices: "Go/No-Go: Go", "Ship / No-ship: ship"
               r"go\s*/\s*no[\s-]?go|go[\s-]no[\s-]go|ship\s*/\s*no[\s-]?ship")
_QUALIFIERS = (r"overall|final|review|code\s+review|merge|my|council|consensus|panel|gate|"
               r"quality|plan|"
               r"security|audit|approval|pr|spec|release|ship|go/no-?go|go-no-go|governance|"
               r"recommended|current|new|updated|revised|original|initial|"
               r"previous|prior|re-?review|second|third|last|latest|summary|readiness|"
               r"overall\s+review|final\s+review|test\s+audit|audit\s+verdict")
_KNOWN_MOD = re.compile(r"(?:(?:" + _QUALIFIERS + r")\s*){1,3}", re.I)
_OLD = re.compile(r"\b(?:original|initial|previous|prior|old|first|earlier|pre-?fix|before)\b",
                  re.I)
_NEW = re.compile(r"\b(?:new|updated|revised|final|current|re-?review|after|post-?fix|latest|"
                  r"second|third|last|amended)\b", re.I)
_CJK_STRONG = (r"结论|結論|判定|裁定|裁决|裁決|评审结论|审查结论|審査結果|判定結果|판정|결론|"
               r"最终结论|最終判定")
_CJK_WEAK = (r"マージ可否|判断|判斷|評価|评价|評價|总体评价|总评|總評|総評|총평|総合評価|审查结果|"
             r"审核结果|评审结果|结果|結果|意见|意見|평가|결과|상태|状态|状態|建议|建議|推奨|推荐")
# the qualifiers a CJK Verdict key is known with (final, overall, review's...); another
# one makes it a Verdict key only when its value names a verdict
_CJK_HEAD = re.compile(r"(?:" + _CJK_STRONG + r")$")
_CJK_MOD = re.compile(r"(?:最终|最終|总体|總體|整体|整體|综合|総合|本次|评审|評審|审查|審查|審査|"
                      r"审核|審核|复核|複核|代码审查|代碼審查|レビュー|最终评审|最終評審|全体|"
                      r"(?:최종|전체|종합|코드\s?리뷰|리뷰|검토)\s?)")
_MARKS = r"[*_`~]*"
_KEY = re.compile(
    r"(?P<key>(?:(?P<mod>[A-Za-z][\w'/-]*(?:\s+[A-Za-z][\w'/-]*){0,2})\s+)?(?P<v>verdicts?|"
    r"veredictos?|veredito|verdetto|verdikt|(?:gesamt)?urteil|"
    r"\u0432\u0435\u0440\u0434\u0438\u043a\u0442)"
    r"(?:\s*\((?P<par>[^)\n]{1,30})\))?"
    r"|(?:(?P<wmod>(?:" + _QUALIFIERS + r")(?:[\s_]+(?:" + _QUALIFIERS + r"))?)[\s_]+)?"
    r"(?P<w>" + _WEAK_HEADS + r")"
    r"|(?P<cs>(?:[A-Za-z][\w'-]{1,20}\s+)?"
    r"[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]{0,4}(?:(?<=[\uac00-\ud7af])\s)?"
    r"(?:" + _CJK_STRONG + r"))"
    r"|(?P<cw>[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]{0,4}(?:(?<=[\uac00-\ud7af])\s)?"
    r"(?:" + _CJK_WEAK + r")))", re.I)
# possessive runs: a line of 10 000 "*" or spaces is read in linear time
_LINE_KEY = re.compile(
    r"^[^\w]*+" + _KEY.pattern + r"\s*+[*_`~\"']*+\s*+"
    r"(?P<sep>[:\uff1a=\u2014\u2013\u2192]|(?<=\s)-(?=\s)|$)\s*+[*_`~]*+\s*+(?P<value>.*)$", re.I)
_GLUED_KEY = re.compile(
    r"(?:^|[\s.;,|(\u2192>])" + _MARKS + r"(?P<key>(?:(?P<mod>[A-Za-z][\w'-]*)\s+)?(?:verdict|"
    r"veredicto|veredito|verdetto|verdikt|urteil|\u0432\u0435\u0440\u0434\u0438\u043a\u0442))"
    + _MARKS + r"\s*[:\uff1a]\s*", re.I)
# a CJK Verdict key glued after a sentence on the line ("対象: 第6稿。判定: 要修正（minor 1）。")
_GLUED_CJK_KEY = re.compile(
    r"(?<=[.!;\u3002\uff0e\uff01\uff1b])\s*" + _MARKS + r"(?P<key>" + _CJK_STRONG + r")"
    + _MARKS + r"\s*[:\uff1a]\s*")


_TAG = re.compile(
    r"<(?P<t>(?:(?:final|overall|new|updated|original|initial)[_-]?)?(?:verdict|decision|"
    r"judge?ment|recommendation|conclusion))(?:\s[^<>\n]{0,80})?>\s*(?P<v>[^<]{1,200}?)\s*"
    r"</(?P=t)\s*>", re.I)


def tag_verdicts(text: str) -> list[tuple[str, bool, int]]:
    """Verdicts in XML-style tags (``<verdict>REVISE</verdict>``, ``<decision>…``), as
    (value, strong, rank): ``verdict`` tags are Verdict keys, the others weaker."""
    return [(m["v"], "verdict" in m["t"].lower(), key_rank(m["t"].replace("_", " ")))
            for m in _TAG.finditer(text[:LINE_CAP])]


def key_rank(words: str) -> int:
    """0 for a verdict a later one replaces ("Original verdict"), 2 for one that replaces
    earlier ones ("New verdict", "Final verdict"), 1 otherwise."""
    if _OLD.search(words):
        return 0
    if _NEW.search(words):
        return 2
    return 1


def verdict_keys(line: str) -> list[tuple[str, bool, int]]:
    """The verdict keys a line states, in order, each as (value, strong, rank).

    The line is a heading's or a paragraph line's text (list bullet taken off).  A line
    may state two ("**Original verdict:** REJECT → **New verdict:** ACCEPT"): each value
    runs to the next Verdict key.  A key with no value (``## Verdict``,
    ``**Recommendation:**``) is returned with an empty value: the value is on the next line.
    """
    if line.lstrip().startswith("<"):
        tags = tag_verdicts(line.strip())
        if tags:
            return tags
    g = _MERGE_GATE.match(line[:200])
    if g is not None:
        # "Ready to merge: ✅ Yes", "**Safe to merge?** No — …", "Mergeable: no": the key
        # asks whether the change may merge; the answer is the verdict (a weaker key's)
        return [("ready to merge" if g["a"].lower() == "yes" else "not ready", False, 1)]
    m = _LINE_KEY.match(_STRUCK.sub(" ", line[:LINE_CAP]).strip())
    if not m:
        return []
    value = m["value"]
    if m["sep"] == "" and value:
        return []  # "Status of the build is ...": a sentence
    if m["v"] is not None:
        if m["mod"] and (len(m["mod"]) > 40 or not _KNOWN_MOD.fullmatch(m["mod"])) and (
                not value or vote_of(value) not in VOTES):
            return []  # "# Reviewer Verdict — fader r1": a title, not a verdict key
        strong, rank = True, key_rank((m["mod"] or "") + " " + (m["par"] or ""))
    elif m["cs"] is not None:
        head = _CJK_HEAD.search(m["cs"])
        mod = m["cs"][:head.start()] if head else ""
        if mod and not _CJK_MOD.fullmatch(mod) and (not value or vote_of(value) not in VOTES):
            return []  # "一句话结论" (the conclusion in one sentence): a summary, not a key
        strong, rank = True, 1
    else:
        strong, rank = False, key_rank(m["wmod"] or "")
        if (m["w"] or "").lower() == "readiness":
            # "Merge readiness: Ready." / "yes" / "no": the key asks whether it may merge
            value = _READY_ANSWER.sub(lambda a: "not ready" if a["no"] else "ready to merge",
                                      value, count=1)
    out: list[tuple[str, bool, int]] = []
    while True:
        nxt = None if len(out) >= 7 else next(
            (g for g in _GLUED_KEY.finditer(value) if g.start() > 0), None)
        if nxt is None:
            out.append((_trim(value), strong, rank))
            return out
        out.append((_trim(_ARROW.sub(" ", value[:nxt.start()])), strong, rank))
        strong, rank = True, key_rank(nxt["mod"] or "")
        value = value[nxt.end():]


# a key that asks whether the change may merge, answered yes or no
_MERGE_GATE = re.compile(
    r"^[^\w]{0,8}(?:(?:is\s+it\s+)?(?:ready|safe|ok|okay|good)\s+(?:to|for)\s+(?:merge|ship|"
    r"deploy|release|land|production)|merge[\s-]?able|can\s+(?:it\s+|this\s+|we\s+)?(?:be\s+)?"
    r"merged?|merge|approved?)[*_`\s]{0,6}[?:\uff1a\uff1f][*_`\s]{0,6}"
    r"(?:[\u2705\u2714\u2713\u274c\u2716]\ufe0f?\s*)?(?P<a>yes|no)\b", re.I)
_READY_ANSWER = re.compile(r"^[*_`\s]*(?:(?P<yes>ready|yes)|(?P<no>no))[*_`]*"
                           r"(?=\s*(?:$|[.!,;:(\u2014\u2013-]))", re.I)


def _trim(value: str) -> str:
    v = value.strip()
    v = re.sub(r"(?:\s*(?:[*_`~|;,]|\u2192|->|=>))+$", "", v) if v else v
    return v.strip()


def glued_verdict(line: str) -> tuple[str, int] | None:
    """A Verdict key glued after other text on the line (``… **Verdict:** APPROVE …``, or a
    CJK one after a sentence's end: ``… 第6稿。判定: 要修正``), outside code spans: (value,
    rank)."""
    s = re.sub(r"`[^`\n]*`", " ", line[:LINE_CAP])
    found = None
    for g in _GLUED_KEY.finditer(s):
        if g.start() == 0 and not s[:1].isspace():
            continue
        found = g
    for g in _GLUED_CJK_KEY.finditer(s):
        if found is None or g.start() > found.start():
            found = g
    if found is None:
        return None
    mod = found.groupdict().get("mod") or ""
    return s[found.end():found.end() + 120], key_rank(mod)


def is_key_cell(cell: str) -> tuple[bool, int] | None:
    """A table cell that is only a verdict key ("Verdict", "**Final decision**"):
    (strong, rank), or None."""
    c = cell.strip().strip("*_`: ").strip()
    got = verdict_keys(c + ":") if c and len(c) <= 40 else []
    if len(got) == 1 and not got[0][0]:
        return got[0][1], got[0][2]
    return None


_META = re.compile(r"^\s*[\"']?(?P<k>verdict|decision|recommendation|status|review_decision|"
                   r"overall_verdict|final_verdict|merge_ready|ready_to_merge|mergeable|approved)"
                   r"[\"']?\s*[:=]\s*(?P<v>.{1,120}?)[\s,]*$", re.I | re.M)
# a gate's boolean in metadata ("merge_ready: true", "approved: false")
_FLAG_KEYS = ("merge_ready", "ready_to_merge", "mergeable", "approved")
_CORRECTNESS = re.compile(r"[\"']overall_correctness[\"']\s*:\s*[\"'](?P<v>[^\"'\n]{1,60})[\"']")


def metadata_keys(block: str) -> list[tuple[str, str]]:
    """The verdict keys of a YAML/JSON/TOML metadata block at the head of an answer, as
    (key, value): ``verdict:`` (or ``final_verdict``) is a Verdict key, the others weaker."""
    out = []
    for m in _META.finditer(block[:8000]):
        k = m["k"].lower()
        v = m["v"].strip().strip("\"'")
        if k in _FLAG_KEYS:
            if v.lower() not in ("true", "false", "yes", "no"):
                continue
            k, v = "decision", "approve" if v.lower() in ("true", "yes") else "not ready"
        out.append(("verdict" if "verdict" in k else k, v))
    return out


def overall_correctness(block: str) -> str | None:
    """codex's review JSON verdict (``"overall_correctness": "patch is correct"``) in a
    block of text, when it states one."""
    m = _CORRECTNESS.search(block)
    return m["v"] if m and vote_of(m["v"], False) in VOTES else None


# --------------------------------------------------------------------------- #
# Section names of other languages that hold no findings of their own
# --------------------------------------------------------------------------- #
# One table per kind, reproduced in docs/parse-verdict.md.  Each is the start of a
# heading (after its numbering and emoji); what may follow it is punctuation, a
# parenthesis or a qualifier.
#
# A word that may follow a section's name and leaves it that section: of what (the code),
# how urgent or how central ("Recomendações prioritárias", "Métricas del código",
# "МЕТРИКИ КОДА", "Empfehlungen (wichtigste)", "Principales recomendaciones" reads its name)
HEAD_QUALIFIERS_INTL = (
    r"(?:d[eou]l?\s+|des\s+)?(?:c[o\u00f3]digo|code|codes)|"
    r"\u043a\u043e\u0434\u0430|\u4ee3\u7801|\u30b3\u30fc\u30c9|\ucf54\ub4dc|"
    r"priorit[a\u00e1\u00e4\u00e9]r\w*|prioritari\w*|priorit\u00e4re\w*|"
    r"\u043f\u0440\u0438\u043e\u0440\u0438\u0442\u0435\u0442\u043d\w*|"
    r"principa(?:is|les|ux|li)|clave|chave|cl[e\u00e9]s?|wichtigste\w*|"
    r"\u043e\u0441\u043d\u043e\u0432\u043d\w*|\u0433\u043b\u0430\u0432\u043d\w*")
# A summary of the review (its items restate findings): "总体评价", "요약", "Visão geral"
SUMMARY_HEADS_INTL = (
    "\u603b\u4f53\u8bc4\u4ef7|\u7e3d\u9ad4\u8a55\u50f9|\u6574\u4f53\u8bc4\u4ef7|\u603b\u8bc4|"
    "\u7dcf\u8a55|\u7dcf\u5408\u8a55\u4fa1|\u5168\u4f53\u8a55\u4fa1|\u8bc4\u5ba1\u603b\u7ed3|"
    "\u5ba1\u67e5\u603b\u7ed3|\u5ba1\u67e5\u6458\u8981|\u30ec\u30d3\u30e5\u30fc\u6982\u8981|"
    "\u30b5\u30de\u30ea\u30fc|\u98ce\u9669\u8bc4\u4f30|\u98a8\u96aa\u8a55\u4f30|"
    "\u30ea\u30b9\u30af\u8a55\u4fa1|\ub9ac\uc2a4\ud06c\\s?\ud3c9\uac00|\uc704\ud5d8\\s?\ud3c9\uac00|"
    "\uc885\ud569\\s?\ud3c9\uac00|\ucd1d\ud3c9|\uac1c\uc694|\uc694\uc57d|"
    r"vis[a\u00e3]o\s+geral|resumo\s+executivo|avalia[c\u00e7][a\u00e3]o\s+(?:geral|de\s+riscos?)|"
    r"\u00fcbersicht|gesamtbewertung|risikobewertung|panoramica|riepilogo|sintesi|"
    r"valutazione\s+(?:complessiva|dei\s+rischi)|aper\u00e7u|synth\u00e8se|"
    r"\u00e9valuation\s+(?:globale|des\s+risques)|resumen\s+ejecutivo|"
    r"evaluaci[o\u00f3]n\s+(?:general|de\s+riesgos)|descripci[o\u00f3]n\s+general|"
    # Vietnamese: "Tóm tắt", "Tổng quan", "Kết luận", "Đánh giá chung / tổng thể"
    r"t\u00f3m\s+t\u1eaft|t\u1ed5ng\s+quan|k\u1ebft\s+lu\u1eadn|\u0111\u00e1nh\s+gi\u00e1\s+(?:chung|t\u1ed5ng\s+th\u1ec3)")
# What to do next (its items answer findings, or plan work): "行动计划", "次のステップ",
# "다음 단계", "Próximos passos", "Nächste Schritte", "Piano d'azione"
ACTION_HEADS_INTL = (
    "(?:\u5efa\u8bae)?\u884c\u52a8\u8ba1\u5212|\u884c\u52d5\u8a08\u756b|"
    "\u30a2\u30af\u30b7\u30e7\u30f3\u30d7\u30e9\u30f3|\u5bfe\u5fdc\u65b9\u91dd|"
    "\u5bfe\u5fdc\u8a08\u753b|\u4fee\u6b63\u8a08\u753b|\u4fee\u590d\u8ba1\u5212|"
    "\u6574\u6539\u8ba1\u5212|\u6539\u8fdb\u8ba1\u5212|\u540e\u7eed(?:\u6b65\u9aa4|\u884c\u52a8|"
    "\u5de5\u4f5c|\u5efa\u8bae|\u5efa\u8b70)|\u5f8c\u7e8c\u5efa\u8b70|"
    "\u5efa\u8bae\u540e\u7eed(?:\u5de5\u4f5c|\u884c\u52a8|\u6b65\u9aa4)?|\u5efa\u8b70\u5f8c\u7e8c|\u4e0b\u4e00\u6b65(?:\u884c\u52a8|\u8ba1\u5212)?|\u6b21\u306e\u30b9\u30c6\u30c3\u30d7|"
    "(?:\u63a8\u5968\u3055\u308c\u308b)?\u6b21\u306e\u30a2\u30af\u30b7\u30e7\u30f3|"
    "\u4eca\u5f8c\u306e(?:\u5bfe\u5fdc|\u8ab2\u984c)|\ub2e4\uc74c\\s?\ub2e8\uacc4|"
    "\ud6c4\uc18d\\s?\uc870\uce58|\uc2e4\ud589\\s?\uacc4\ud68d|\uc870\uce58\\s?\uacc4\ud68d|"
    "\uac1c\uc120\\s?\uacc4\ud68d|"
    r"pr[o\u00f3]ximos\s+pass(?:o|os)|plano\s+de\s+a[c\u00e7][a\u00e3]o|n[a\u00e4]chste\s+schritte|"
    r"ma[\u00dfs]nahmenplan|aktionsplan|prossimi\s+passi|piano\s+d['\u2019]azione|"
    r"prochaines\s+[\u00e9e]tapes|plan\s+d['\u2019]action|pr[o\u00f3]ximos\s+pasos|"
    r"plan\s+de\s+acci[o\u00f3]n")
# What the change does, or what the review read and checked (its items say so, none is
# a finding): "変更概要", "变更摘要", "변경 사항", "確認結果", "검토 범위", "Alterações"
CHANGES_HEADS_INTL = (
    "\u53d8\u66f4\u6982\u8981|\u5909\u66f4\u6982\u8981|\u53d8\u66f4\u6458\u8981|"
    "\u5909\u66f4\u306e\u6982\u8981|\u6539\u52a8\u6982\u8981|\u6539\u52a8\u6458\u8981|"
    "\u53d8\u66f4\u8bf4\u660e|\u53d8\u66f4\u5185\u5bb9|\u5909\u66f4\u5185\u5bb9|\u5909\u66f4\u70b9|"
    "\u6539\u52a8\u6e05\u5355|\ubcc0\uacbd\\s?(?:\uc0ac\ud56d\\s?)?(?:\uc694\uc57d)?|"
    "\u5ba1\u67e5\u8303\u56f4|\u5ba1\u67e5\u5bf9\u8c61|\u30ec\u30d3\u30e5\u30fc(?:\u7bc4\u56f2|"
    "\u5bfe\u8c61)|\u691c\u8a3c\u7bc4\u56f2|\uac80\ud1a0\\s?(?:\ubc94\uc704|\ub300\uc0c1)|"
    "\u7167\u5408\u3057\u305f\u898f\u7d04|\u78ba\u8a8d\u7d50\u679c|\u9a8c\u8bc1\u7ed3\u679c|"
    "\u68c0\u67e5\u7ed3\u679c|\ud655\uc778\\s?\uacb0\uacfc|\uac80\uc99d\\s?\uacb0\uacfc|"
    "\u6d4b\u8bd5\u7ed3\u679c|\u6e2c\u8a66\u7d50\u679c|\u30c6\u30b9\u30c8\u7d50\u679c|"
    "\ud14c\uc2a4\ud2b8\\s?\uacb0\uacfc|"
    r"(?:re-?)?test-?ergebnisse|resultados\s+d[oe]s?\s+(?:testes|pruebas)|"
    r"risultati\s+dei\s+test|r\u00e9sultats\s+des\s+tests|"
    # checklists and gates: what is to be checked, not what was found ("체크리스트",
    # "(권장) 검증 게이트", "チェックリスト", "检查清单", "Checkliste", "Lista de verificação")
    "\uccb4\ud06c\\s?\ub9ac\uc2a4\ud2b8|(?:\uad8c\uc7a5\\s?)?\uac80\uc99d\\s?(?:\uac8c\uc774\ud2b8|"
    "\ud56d\ubaa9)|\u30c1\u30a7\u30c3\u30af\u30ea\u30b9\u30c8|\u68c0\u67e5\u6e05\u5355|"
    "\u6838\u5bf9\u6e05\u5355|\u9a8c\u8bc1\u6e05\u5355|"
    r"checkliste|lista\s+de\s+(?:verifica[c\u00e7][a\u00e3]o|comprobaci[o\u00f3]n)|"
    r"liste\s+de\s+contr\u00f4le|lista\s+di\s+controllo|"
    # acceptance criteria and a definition of done: what is to be met, not what was found
    # ("验收标准", "受け入れ基準", "인수 조건", "Akzeptanzkriterien", "Critérios de aceitação")
    "\u9a8c\u6536\u6807\u51c6|\u9a57\u6536\u6a19\u6e96|\u9a8c\u6536\u6761\u4ef6|"
    "\u53d7\u3051?\u5165\u308c?(?:\u57fa\u6e96|\u6761\u4ef6)|\u5b8c\u4e86\u6761\u4ef6|"
    "(?:\uc778\uc218|\uc218\uc6a9)\\s?(?:\uc870\uac74|\uae30\uc900)|"
    r"akzeptanzkriterien|abnahmekriterien|crit[e\u00e9]rios\s+de\s+aceita[c\u00e7][a\u00e3]o|"
    r"criterios\s+de\s+aceptaci[o\u00f3]n|crit[e\u00e8]res\s+d['\u2019]acceptation|"
    r"criteri\s+di\s+accettazione|\u043a\u0440\u0438\u0442\u0435\u0440\u0438\u0438\s+"
    r"\u043f\u0440\u0438[\u0435\u0451]\u043c\u043a\u0438|dod|definition\s+of\s+done|"
    # the legend of a review's scale: what each level means, not what was found
    # ("Шкала приоритетов", "重要度の定義", "严重程度说明", "심각도 기준", "Escala de severidad")
    "(?:\u4e25\u91cd(?:\u7a0b\u5ea6|\u7ea7\u522b)|\u4f18\u5148\u7ea7|\u512a\u5148\u7d1a|"
    "\u91cd\u8981\u5ea6|\u512a\u5148\u5ea6|\u6df1\u523b\u5ea6)(?:\u7684|\u306e)?(?:\u5b9a\u4e49|"
    "\u5b9a\u7fa9|\u8bf4\u660e|\u8aaa\u660e|\u57fa\u51c6|\u57fa\u6e96|\u5206\u7ea7)|"
    "\u56fe\u4f8b|\u5716\u4f8b|\u51e1\u4f8b|(?:\uc2ec\uac01\ub3c4|\uc6b0\uc120\uc21c\uc704|"
    "\uc911\uc694\ub3c4)\\s?(?:\uae30\uc900|\uc815\uc758|\uc124\uba85)|\ubc94\ub840|"
    r"\u0448\u043a\u0430\u043b\u0430(?:\s+(?:\u043f\u0440\u0438\u043e\u0440\u0438\u0442\u0435"
    r"\u0442\u043e\u0432|\u0441\u0435\u0440\u044c[\u0435\u0451]\u0437\u043d\u043e\u0441\u0442"
    r"\u0438|\u043a\u0440\u0438\u0442\u0438\u0447\u043d\u043e\u0441\u0442\u0438|\u0432\u0430"
    r"\u0436\u043d\u043e\u0441\u0442\u0438))?|\u043b\u0435\u0433\u0435\u043d\u0434\u0430|"
    r"(?:schweregrad|priorit\u00e4ts?)[\s-]*(?:skala|stufen|legende)|legende|leyenda|legenda|"
    r"(?:escala|niveles|n[i\u00ed]veis)\s+de\s+(?:severidad|severidade|gravedad|gravidade|"
    r"prioridad(?:es)?|prioridades?)|(?:[\u00e9e]chelle|niveaux)\s+de\s+(?:s[\u00e9e]v[\u00e9e]"
    r"rit[\u00e9e]|priorit[\u00e9e]|gravit[\u00e9e])|l[\u00e9e]gende|"
    r"scala\s+di\s+(?:severit\u00e0|priorit\u00e0)|"
    # metrics of the code: measured, not found ("指标", "メトリクス", "지표", "Метрики кода")
    "\u4ee3\u7801\u6307\u6807|\u6307\u6807|\u5ea6\u91cf|\u30e1\u30c8\u30ea\u30af\u30b9|"
    "\uc9c0\ud45c|\uba54\ud2b8\ub9ad|"
    r"m[e\u00e9]tricas|metriken|kennzahlen|m\u00e9triques|metriche|"
    r"\u043c\u0435\u0442\u0440\u0438\u043a\u0438|"
    r"altera[c\u00e7][o\u00f5]es(?:\s+realizadas)?|mudan[c\u00e7]as|\u00e4nderungen|"
    r"modifiche|cambios(?:\s+realizados)?|escopo|umfang|ambito|port\u00e9e|alcance")
# Neither findings nor praise: references, a test plan, background ("参考资料",
# "テスト計画", "Referências", "Testplan"); their items are findings only by a place or tag
OTHER_HEADS_INTL = (
    "\u53c2\u8003(?:\u8d44\u6599|\u8d44\u6e90|\u6587\u732e|\u94fe\u63a5|\u6700\u4f73\u5b9e\u8df5|"
    "\u60c5\u5831)?|"
    "\u53c2\u7167|\ucc38\uace0\\s?\uc790\ub8cc|\u6d4b\u8bd5\u8ba1\u5212|\u6e2c\u8a66\u8a08\u5283|"
    "\u30c6\u30b9\u30c8(?:\u8a08\u753b|\u65b9\u91dd)|\ud14c\uc2a4\ud2b8\\s?\uacc4\ud68d|"
    "\u80cc\u666f|\ubc30\uacbd|\u9644\u5f55|\u4ed8\u9332|\ubd80\ub85d|"
    r"refer[e\u00ea]ncias|referenzen|riferimenti|r\u00e9f\u00e9rences|referencias|"
    r"plano\s+de\s+testes?|testplan|piano\s+di\s+test|plan\s+de\s+tests?|plan\s+de\s+pruebas|"
    r"contexto|hintergrund|contesto|m\u00e9thodologie|metodologia|metodolog\u00eda|"
    # a mapping to standards ("合规", "コンプライアンス", "규정 준수", "Cumplimiento y estándares")
    "\u5408\u89c4|\u5408\u898f|\u30b3\u30f3\u30d7\u30e9\u30a4\u30a2\u30f3\u30b9|"
    "\uaddc\uc815\\s?\uc900\uc218|"
    r"compliance|cumplimiento|conformidade|conformit[e\u00e9\u00e0]|konformit[a\u00e4]t|"
    r"\u0441\u043e\u043e\u0442\u0432\u0435\u0442\u0441\u0442\u0432\u0438\u0435")
# The parts of one finding written as its sub-headings ("#### 근거", "#### 影响",
# "#### Correção", "#### ⏱️ Estimativa"): under a heading that is a finding by its look,
# parts of it, never findings of their own
BODY_PART_HEADS_INTL = (
    "\u95ee\u9898(?:\u63cf\u8ff0|\u8bf4\u660e)?|\u5f71\u54cd(?:\u8303\u56f4)?|\u4fee\u590d(?:\u5efa\u8bae|"
    "\u65b9\u6848)?|\u89e3\u51b3\u65b9\u6848|\u539f\u56e0|\u6839\u56e0|\u8bc1\u636e|\u4ee3\u7801|"
    "\u5de5\u4f5c\u91cf|\u9884\u4f30|\u590d\u73b0\u6b65\u9aa4|"
    "\u554f\u984c\u70b9|\u5f71\u97ff|\u4fee\u6b63\u6848|\u6839\u62e0|\u8a72\u5f53\u7b87\u6240|"
    "\u898b\u7a4d\u3082\u308a|\u518d\u73fe\u624b\u9806|"
    "\uadfc\uac70|\uc601\ud5a5|\uad8c\uc7a5\\s?\uc218\uc815|\uc644\ub8cc\\s?\uae30\uc900|\uc6d0\uc778|"
    "\ud574\uacb0(?:\\s?\ubc29\uc548)?|\uc7ac\ud604\\s?\ub2e8\uacc4|"
    r"problema|impacto|corre[c\u00e7][a\u00e3]o|solu[c\u00e7][a\u00e3]o|soluci[o\u00f3]n|"
    r"estimativa|estimaci[o\u00f3]n|c[o\u00f3]digo(?:\s+(?:vulner[a\u00e1]vel|atual|actual))?|"
    r"causa(?:\s+raiz|\s+ra[i\u00ed]z)?|evid[e\u00ea]ncias?|recomenda[c\u00e7][a\u00e3]o|"
    r"localiza[c\u00e7][a\u00e3]o|ubicaci[o\u00f3]n|auswirkung|l\u00f6sung|ursache|"
    r"aufwand|sch\u00e4tzung|impact|correctif|solution|cause|preuve|estimation|"
    r"soluzione|causa|stima|correzione|"
    # how to reproduce it ("Reproduktion", "Pasos para reproducir", "Шаги воспроизведения")
    r"reproduktion|schritte\s+zur\s+reproduktion|(?:pasos|passos)\s+para\s+reproduzi[rl]|"
    r"pasos\s+para\s+reproducir|reprodu[c\u00e7][a\u00e3]o|reproducci[o\u00f3]n|"
    r"(?:[e\u00e9]tapes\s+(?:de|pour)\s+)?reproduction|riproduzione|"
    r"(?:\u0448\u0430\u0433\u0438\s+)?\u0432\u043e\u0441\u043f\u0440\u043e\u0438\u0437"
    r"\u0432\u0435\u0434\u0435\u043d\u0438\u044f?|"
    # its details, its reach, how to fix it and its state, in Japanese and Chinese
    # ("問題の詳細", "不一致の詳細", "影響範囲", "推奨される修正方法", "ステータス")
    "(?:[\u3040-\u30ff\u3400-\u9fff]{1,6}\u306e)?\u8a73\u7d30|\u8be6\u60c5|"
    "\u5f71\u97ff\u7bc4\u56f2|(?:\u63a8\u5968\u3055\u308c\u308b)?\u4fee\u6b63(?:\u65b9\u6cd5|"
    "\u65b9\u91dd)|\u4fee\u590d\u65b9\u6cd5|\u30b9\u30c6\u30fc\u30bf\u30b9|\u72b6\u6001|\u72c0\u614b")
