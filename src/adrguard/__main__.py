from adrguard.cli import main

raise SystemExit(main())
