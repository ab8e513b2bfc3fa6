"""One exception hierarchy for sgrag, so callers (CLI, app) can show a readable message."""
from __future__ import annotations


class SgragError(Exception):
    """Base class of every error sgrag raises on purpose."""


class InputFormatError(SgragError):
    """A user-supplied file is malformed; the message names file, line and problem."""

    def __init__(self, path: str, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line, problem
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {problem}")


class WorkspaceError(SgragError):
    """The workspace is missing, locked, or has no usable index."""


class WorkspaceBusy(WorkspaceError):
    """Another writer holds the workspace lock; ``holder`` says who (pid, command, since)."""

    def __init__(self, message: str, holder: dict):
        self.holder = holder
        super().__init__(message)


class BuildError(SgragError):
    """An index build could not complete (the previous index stays in use)."""


class BuildCancelled(BuildError):
    """The build was cancelled by the caller; nothing was switched."""


class ParseError(SgragError):
    """LLM output could not be parsed; carries the offending line."""

    def __init__(self, message: str, line: str = ""):
        self.line = line
        super().__init__(f"{message}: {line!r}" if line else message)


class LLMError(SgragError):
    """The LLM endpoint failed after retries or is not configured."""


class ConfigError(SgragError):
    """A workspace's configuration names something that does not exist or has a value of the wrong kind."""
