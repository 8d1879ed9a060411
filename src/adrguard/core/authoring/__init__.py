"""Writing records in a log's own style: learn how a log writes its records (names, format,
header lines, statuses, dates, sections, relations), render a new one, edit the status and the
relations of an existing one without touching anything else, and pick the next free number
(numbers other refs claim included). Pure: no I/O."""
