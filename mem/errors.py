"""Exit codes and the expected failures that `mem` explains to its user."""

from enum import IntEnum
from typing import ClassVar


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1  # an expected MemError, already explained to the user
    USAGE = 2  # bad flags or arguments
    INTERRUPTED = 130


class MemError(Exception):
    """An expected failure, with a message written for the user: what happened; what to do."""

    exit_code: ClassVar[ExitCode] = ExitCode.FAILURE
    code: ClassVar[str] = "mem_error"  # stable id for --json consumers


class UsageError(MemError):
    exit_code = ExitCode.USAGE
    code = "usage"


class VaultNotFound(MemError):
    code = "vault_not_found"


class InvalidAgent(UsageError):
    code = "invalid_agent"


class InvalidCategory(UsageError):
    code = "invalid_category"


class InvalidInput(UsageError):
    """A flag's or an argument's value that cannot be used."""

    code = "invalid_input"


class InvalidContent(MemError):
    """Input that is read, not typed (stdin, a file), that cannot be stored: not a usage error."""

    code = "invalid_content"


class EntryNotFound(MemError):
    code = "entry_not_found"


class AmbiguousId(MemError):
    code = "ambiguous_id"


class DuplicateId(MemError):
    """Two entries share one id (a git merge): which one a command means is unclear."""

    code = "duplicate_id"


class VaultReadOnly(MemError):
    code = "vault_read_only"


class UnsafePath(MemError):
    code = "unsafe_path"


class MalformedEntry(MemError):
    code = "malformed_entry"


class EditorFailed(MemError):
    code = "editor_failed"


class IndexBusy(MemError):
    code = "index_busy"


class IndexTablesFailed(MemError):
    code = "index_tables_failed"


class IndexRebuildFailed(MemError):
    code = "index_rebuild_failed"


class NotATask(MemError):
    code = "not_a_task"


class NoMatchingItem(MemError):
    code = "no_matching_item"


class FormatMismatch(MemError):
    code = "format_mismatch"


class InvalidSetting(MemError):
    code = "invalid_setting"


class FileUnreadable(MemError):
    code = "file_unreadable"


class FileUnwritable(MemError):
    code = "file_unwritable"


class DiskFull(FileUnwritable):
    """No room left to write (a full disk or quota): reading still works."""


class NotUtf8(MemError):
    code = "not_utf8"


class UnsafeEdit(MemError):
    code = "unsafe_edit"


class CommandNotStarted(MemError):
    code = "command_not_started"


class NotAFolder(MemError):
    code = "not_a_folder"
