"""Starting, limiting and talking to one bot process. No game knowledge.

``get_sandbox("auto" | "docker" | "process")`` returns a backend; ``backend.start(code, ...)``
returns a :class:`sandbox.base.BotProcess`, a JSON-lines pipe to one bot for one match.
"""
