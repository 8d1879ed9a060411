"""Writing records: ``new`` and ``supersede``, ``link`` and ``consolidate``."""
