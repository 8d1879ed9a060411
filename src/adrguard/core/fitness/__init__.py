"""Fitness rules: the manifest that ties accepted decisions to checks, the evaluation of those
checks over evidence files and tracked files, the drift baseline and the audit
(``adrguard verify``)."""
