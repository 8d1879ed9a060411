"""The decision graph of a corpus: every declared relationship resolved to a record
(:mod:`.resolve`), supersession and dependency edges, chains and cycles (:mod:`.graph`)."""
