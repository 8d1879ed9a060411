"""Citations: the code and documents outside the ADR roots that name a decision.

``syntax`` says how a file writes comments (only comments count in code; prose counts in
documents), ``scan`` finds the citations of one file in linear time, ``fields`` reads the
structured forms (an ``adrs:`` front-matter key, a table row labelled ADRs), and ``resolve``
ties each citation to the record it names and says whether that decision is still in force.
"""
