"""The one pipeline: a source → discover → records (cache, parse) → corpus → citation scan.
Every command that reads records goes through :mod:`.corpus`."""
