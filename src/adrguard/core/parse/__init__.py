"""Reading one record: markdown events, front matter, formats, status, ids, relationships and
the statements a body makes. :func:`adrguard.core.parse.record.parse` turns a source file into a
:class:`~adrguard.core.model.Decision`; nothing here knows about other records."""
