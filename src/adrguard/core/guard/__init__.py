"""The read guard (issue 32): whether a coding agent's direct read or search of the decision log
is allowed, hinted at or denied, decided from the log's layout alone (:mod:`.layout`), by the
policy of :mod:`.policy`, with a receipt naming the bounded retrieval to call instead
(:mod:`.receipts`); :mod:`.shell` recognises the simple shell reads and searches a command
holds, without running anything. Pure: the paths come in normalised, the layout comes in built.
"""
