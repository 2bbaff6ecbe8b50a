"""Read /etc/momenta/momenta.env as systemd does, then run manage.py with it (deploy/manage).

systemd reads the file for the workers (`EnvironmentFile=`): each `KEY=value`
line taken literally, no expansion. deploy/manage used to source it with the
shell, which expands `$`, splits at spaces and runs backquotes: a password with
`$` in DATABASE_URL reached the workers whole and `manage.py migrate` mangled.
Here a value is taken as written. What systemd would interpret (quotes,
backslashes) is refused, naming the line, so a file this accepts means the same
to both; see docs/settings.md.

    python -m momenta_site.env_file /etc/momenta/momenta.env manage.py migrate
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class EnvFileError(ValueError):
    pass


def read(path: Path | str) -> dict[str, str]:
    values = {}
    for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "#;":  # systemd's comments: on their own line only
            continue
        key, equals, value = line.partition("=")
        key, value = key.strip(), value.strip()
        where = f"{path}, line {number}"
        if not equals or not _KEY.fullmatch(key):
            raise EnvFileError(f"{where}: not a KEY=value line")
        if any(c in value for c in "\"'\\"):
            raise EnvFileError(
                f"{where}: {key} has a quote or a backslash, which systemd would strip or "
                "interpret: write the value bare (spaces and $ are kept as they are)"
            )
        values[key] = value
    return values


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit("usage: python -m momenta_site.env_file ENV_FILE PROGRAM [ARGS…]")
    try:
        os.environ.update(read(argv[0]))
    except (OSError, EnvFileError) as error:
        raise SystemExit(str(error)) from None
    os.execv(sys.executable, [sys.executable, *argv[1:]])


if __name__ == "__main__":
    main(sys.argv[1:])
