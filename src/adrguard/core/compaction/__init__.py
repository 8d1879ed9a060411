"""Compaction: how a long decision log stays readable without losing history. The read-only
analysis (a disposition per record, with its evidence; blockers; consolidation candidates;
reading sizes) and the archive plan (which files move, which links change). Pure: records,
graph, CURRENT states and file bytes in, data out; the api reads and writes."""
