"""Pure core: types, parsing, graph, index and impact logic. No I/O here."""
