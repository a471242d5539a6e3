"""``python -m engine``: the engine over JSON lines, one scenario a line on stdin, one answer a line on stdout.

Each answer is written and flushed as soon as it is computed. A blank line is skipped. A line that is not a
JSON object is a message on stderr and exit status 1. stderr is free for logs.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from .core import answer


def serve(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Answer every scenario line of ``stdin`` on ``stdout``; the exit status (1 on a line that is not JSON)."""
    for number, line in enumerate(iter(stdin.readline, ""), 1):
        if not line.strip():
            continue
        try:
            scenario = json.loads(line)
        except json.JSONDecodeError as error:
            print(f"engine: stdin line {number} is not JSON ({error}): {line.strip()[:200]}", file=stderr)
            return 1
        if not isinstance(scenario, dict):
            print(f"engine: stdin line {number} is not a JSON object: {line.strip()[:200]}", file=stderr)
            return 1
        stdout.write(json.dumps(answer(scenario)) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.stdin, sys.stdout, sys.stderr))
