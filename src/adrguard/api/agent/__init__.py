"""The agent surface (``find``, ``context``, ``search``, ``analyze_impact``, the MCP server's
answers, the read guard): what an agent asks, answered from the one pipeline. Empty on purpose:
importing one module of it (the read guard, run before every tool call) loads nothing else."""
