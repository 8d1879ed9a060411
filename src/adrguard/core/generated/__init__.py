"""The files adrguard generates and compares: the INDEX of each root (:mod:`.index`) and the
reviewed CURRENT.md view with its sources manifest (:mod:`.current`, :mod:`.manifest`), both
between markers (:mod:`.region`)."""
