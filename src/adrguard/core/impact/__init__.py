"""Which decisions govern what a change touches: the impact manifest (:mod:`.mapping`) and its
globs (:mod:`.globs`), the analysis of a change set (:mod:`.analysis`) and what a change did to
the records themselves (:mod:`.history`)."""
