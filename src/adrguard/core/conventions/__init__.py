"""What a log does by habit, learned from its own records: file names, dates, statuses and
sections (:class:`~adrguard.core.conventions.log.Log`). Convention rules judge a record against
its log, not against adrguard's defaults."""
