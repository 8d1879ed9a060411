"""Time ``adrguard check`` side by side with adr-check: ``run.py --peer`` under its old name.

    python benchmarks/peer.py --peer /tmp/adrcheck-venv/bin/adr-check --sizes 100,1000,10000

Same as ``python benchmarks/run.py --peer PEER ...`` (every other option is passed on).
"""

from __future__ import annotations

import sys

from run import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
