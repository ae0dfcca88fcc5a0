"""``python -m actors.cli``: the same command line as the ``chess-actors`` script."""

import sys

from actors.cli import main

sys.exit(main())
