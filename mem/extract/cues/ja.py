"""Japanese cue words and heading names: the general signals of meaning, headings and narration."""

from mem.extract.cues import Cues

CUES = Cues(
    rules={
        "task": (r"^(?:TODO|未対応|今後の課題|次のステップ)\s*[:：]",),
        "decision": (r"^(?:決定|方針|対応)\s*[:：]", r"(?:により|によって|ことで)(?:修正|解決)し"),
        "lesson": (
            r"^(?:原因|根本原因|問題)\s*[:：]",
            # "問題はIDではなく…です": the problem is (as English "the problem is"); not "問題は
            # 特にありませんでした", "問題は見つかりませんでした" (none found), nor "この問題は
            # 既に修正済み" (one said before, now fixed)
            (
                r"(?<!この)(?:本当の|真の)?(?:問題|原因)は(?![^。、]{0,8}?(?:ありません|ない|なし"
                r"|見つかり|解決|直り|修正))"
            ),
        ),
        "warning": (r"^(?:注意|警告)\s*[:：]",),
        # as English reads "this project uses"
        "convention": (
            (
                r"(?:この|(?<![\u3040-\u30ff\u4e00-\u9fff])本)(?:プロジェクト|リポジトリ)(?:で)?は"
                r".{0,40}?(?:使用|使って|採用|前提)"
            ),
        ),
    },
    lead_ins={
        "task": (r"^(?:未対応|残作業|今後)\s*[:：]",),
        "lesson": (r"^(?:原因|根本原因|問題点)\s*[:：]",),
        "decision": (r"^(?:修正|対応|解決策)\s*[:：]",),
    },
    sections={
        "task": (r"(?:今後の)?課題", r"残作業", r"次のステップ", r"TODO", r"未対応"),
        "lesson": (r"原因(?:分析)?", r"根本原因", r"問題(?:点)?"),
        "warning": (r"注意(?:点|事項)?", r"既知の問題"),
        "decision": (r"修正(?:内容)?", r"対応(?:内容)?", r"解決策", r"変更(?:内容|点)?"),
        "convention": (r"規約", r"ルール"),
    },
    introducers={},
    next_steps=(r"次のステップ", r"今後の(?:課題|作業)"),
    narration=(
        r"^(?:では|それでは|まず|次に)?(?:確認|調査|見て)(?:します|してみます)",
        # "…が残っていないか広く確認します。": what the agent is about to look at, said last
        # (not "…lintジョブは型エラーを検索します。": what a tool does)
        r"(?:確認|調査)(?:します|してみます)(?:ね)?[。.]?$|調べ(?:ます|てみます)(?:ね)?[。.]?$",
    ),
    general=(),
    specific=(),
    note_about_self=(),
    decided_in_passing=(),
    # "…は使わないで", "Xを使ってください" (please use): how the person wants it; a bare
    # "調査してください" (please look into it) asks for work, as English "please check" does
    user_preference=(r"しないで|(?:使って|使用して|守って|維持して|残して)(?:ください|ほしい)",),
    user_fact=(),
    why_question=(r"なぜ|原因は",),
    outcome=(r"^(?:修正しました|追加しました|変更しました|更新しました)",),
    # "…を修正します": the verb's polite ending says the change is about to be made.
    intent=(r"(?<=修正|変更|追加|削除|更新|作成|実装)(?:します|しましょう)(?=[。：:]?$)",),
    diagnosis=(r"(?<!念の)ため|原因|ありません|できません",),
    task_labels=(r"TODO", r"未対応", r"残作業"),
    sentence_ends="。！？",
    meaning={
        "known": (
            (
                r"既存の(?:問題|エラー|失敗|警告|不具合)|(?:もともと|元々)(?:存在|失敗|発生|エラー)"
                r"|今回の(?:変更|修正)(?:とは|と)(?:無関係|関係(?:が)?ない)|(?:main|master)\s*(?:ブランチ)?でも"
            ),
        ),
        # "残っていません" (none remain) leaves nothing open
        "open": (
            r"未対応|まだ|残って(?!いません|いない|おりません)|今後|要確認|コミットしていない",
        ),
        # (念のため is "to be safe", no cause)
        "cause": (r"(?<!念の)ため|原因|せいで|によって|ので|[、，]\s*(?:さもないと|そうしないと)",),
        "failure": (r"失敗|エラー|問題|できない|できません|ない場合|不足|誤り|間違",),
        "choice": (r"ではなく|代わりに|より(?:も)?簡単|採用|選択|方針|戻し",),
        "change": (
            r"(?:追加|削除|修正|変更|更新|置き換え|移動|実装|作成)(?:し|する|した|しました)",
        ),
    },
    obligation=(r"しないで|してはいけない|禁止|必ず|常に|絶対",),
    offer=(r"(?:しましょうか|しますか)[？?]?$",),
    to_reader=(r"ください|あなた",),
    hedge=(r"かもしれ|おそらく|たぶん|可能性|ようです|ようだ|みたいです",),
    request=(r"(?:追加|作成|実装|修正|削除|変更|更新)して(?:ください|ほしい)",),
    option=(
        r"(?:案|オプション|選択肢)\s*(?:[A-Z0-9]|[一二三四五六])",
        r"考えられる(?:原因|対策|解決策)(?:は[^:：\n]{0,20})?\s*[:：]?\s*$",
    ),
    reasons=(r"理由|原因",),
    checked=(r"検証", r"テスト(?:計画)?", r"確認(?:方法)?"),
)
