"""Chinese cue words and heading names. Chinese writes no spaces between words, so no pattern
relies on word boundaries, and sentences end at `。！？；` with no space after them."""

from mem.extract.cues import Cues

CUES = Cues(
    rules={
        "task": (r"^(?:待办|待完成|后续|下一步)\s*[:：]", r"还需要|仍需|尚未完成"),
        "decision": (
            r"^决定\s*[:：]",
            r"我们决定|决定使用|选择了|改用|改为使用|采用了",
            r"通过[^。]{1,40}?(?:修复|解决)了",  # "fixed by …ing"
            # "I'll change the X script so that it …": a change with its purpose.
            r"(?:我来|我会|我将)(?:修改|改|更新|调整)[^。，,]{0,60}[，,]\s*(?:让|使|以便)",
            r"这样[^。]{0,30}(?:保持|更|就)[^。]{0,40}[，,][^。]{0,60}(?:都在|集中在|放在)",
        ),
        "rule": (r"^(?:总是|永远|始终|不要|千万不要|切勿)",),
        "warning": (),
        "lesson": (
            r"^(?:教训|经验|原因|根本原因|问题在于)\s*[:：]?",
            r"原因是|根本原因|问题在于|问题出在|是因为|导致了",
            r"默认(?:会|仍然会|就会)",
        ),
        # "I" and "we", as English reads "I prefer" and "we prefer"
        "preference": (r"我(?:更)?(?:喜欢|偏好|希望|想要)|我们(?:更)?(?:喜欢|偏好|希望)",),
        "convention": (
            r"请确保|务必|一定要|必须",
            # "this project uses …", as English reads it of "this|the project"
            r"(?:本|这个|整个|该)项目(?:是)?(?:使用|采用|基于|依赖)",
        ),
        "fact": (),
    },
    lead_ins={
        "task": (r"^(?:待办|后续|下一步|未完成)\s*[:：]",),
        "decision": (r"^(?:解决方案|方案|修复|决定)\s*[:：]",),
        "warning": (r"^(?:注意|警告|小心)\s*[:：]",),
        "lesson": (r"^(?:原因|根本原因|问题|发现)\s*[:：]",),
        "fact": (),
    },
    sections={
        "task": (r"待办(?:事项)?", r"后续(?:工作|步骤)?", r"下一步", r"未完成"),
        "lesson": (r"为什么(?:会这样)?[？?]?", r"原因(?:分析)?", r"根本原因", r"问题(?:分析)?"),
        "warning": (r"注意(?:事项)?", r"已知问题", r"风险"),
        "decision": (r"决定", r"解决方案"),
        "convention": (r"约定", r"规范"),
        "done": (r"总结", r"完成"),
    },
    introducers={
        "decision": (r"主要改动", r"解决方案"),
        "lesson": (r"问题找到了", r"原因如下"),
        "task": (r"下一步", r"待办"),
    },
    next_steps=(r"下一步", r"后续步骤", r"待办(?:事项)?"),
    narration=(r"^(?:让我|我来看|我先|好的|完成|已完成|已简化)",),
    general=(),
    specific=(),
    note_about_self=(),
    decided_in_passing=(),
    user_preference=(
        # "we want to …" (我们想要先…) is the work at hand, not a preference
        r"我(?:更)?(?:喜欢|偏好|希望|想要|不喜欢|讨厌)|我们(?:更)?(?:喜欢|偏好|希望|不喜欢|讨厌)",
        r"不要|别用|请用",
    ),
    user_fact=(r"我只有|我们只有|我只用|我们只用",),
    why_question=(r"怎么回事|问题出在哪",),
    outcome=(r"^(?:已完成|完成|已修复|修复了|已添加|添加了|已更新)",),
    intent=(
        (
            r"^(?:(?:明白了?|好的?|了解|收到|懂了)[，,！!。]?\s*)?(?:我(?:来|将|会|现在)|让我|现在)"
            r"(?=(?:修改|修复|更新|添加|删除|创建|简化|重构|调整|替换|实现|改))"
        ),
    ),
    diagnosis=(r"没有|缺少|需要|不支持|找不到",),
    task_labels=(r"待办", r"下一步", r"后续"),
    sentence_ends="。！？；",
    meaning={
        "known": (
            (
                r"之前就(?:存在|有)|原本就|本来就|已有的(?:问题|错误|失败)"
                r"|与(?:本次|这次|我的)(?:修改|改动|变更|PR)无关|不是(?:本次|这次|我的)(?:修改|改动)(?:导致|引起|造成)"
                r"|(?:main|master)\s*(?:分支)?上也"
            ),
        ),
        "open": (r"待办|尚未|还没有|还需要|仍需|未提交|未完成|后续",),
        "cause": (r"因为|由于|导致|造成|原因|所以",),
        "failure": (r"失败|错误|报错|问题|冲突|缺少|不支持|无法|不能",),
        "choice": (r"而不是|而非|改为|改用|选择|决定|保留|回退|放弃|推迟|更简单",),
        "change": (
            r"^(?:已|我)?(?:添加|新增|删除|移除|修改|更新|修复|重命名|替换|实现|创建|迁移|调整)",
            # The 把/将 form: "已经把 X 加到 Y 里了", "已将远程地址改为 SSH"
            (
                r"^(?:已经?|我(?:已经?)?)?(?:把|将)[^。；]{1,60}?"
                r"(?:加到|加入|添加到|改为|改成|移到|移动到|放到|替换为|换成|删除|删掉|去掉)"
            ),
        ),
    },
    obligation=(r"不要|不需要|不是让你|必须|禁止|永远不|一定要|只能|不能|需要",),
    offer=(r"^(?:需要我|要不要我|是否需要|如果你需要|如需)",),
    to_reader=(r"你|您|请",),
    hedge=(r"可能|也许|大概|似乎|应该可以",),
    request=(r"^(?:请)?(?:添加|创建|实现|修改|删除|更新|修复|编写|生成|增加)",),
    option=(r"(?:方案|选项|选择)\s*(?:[A-Z0-9]|[一二三四五六])",),
    reasons=(r"理由|原因",),
    checked=(r"测试(?:计划)?", r"验证", r"检查清单"),
)
