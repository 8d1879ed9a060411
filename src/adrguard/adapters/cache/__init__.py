"""The record cache, by subject: one home for where it lives and when a run uses it.

* :mod:`.store`: where the cache lives (the one policy, :func:`.store.folder_for`), the store of
  one run (:class:`.store.RunStore`: opened at most once, closed at the end), its entries and
  the packs of a work tree's records;
* :mod:`.keys`: what an entry is keyed by (the parser's signature, the parse options, canonical
  values);
* what is kept in it: :mod:`.names` (what each record's name says), :mod:`.manifest` (the parsed
  impact manifest), :mod:`.runs` (the findings of the corpus before a change), :mod:`.answers`
  (the model's answers).

A module imports the one it uses (this package re-exports nothing): a light run imports only the
parts it reads.
"""
