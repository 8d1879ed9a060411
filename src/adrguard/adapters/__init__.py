"""Adapters: the only modules that touch the file system, git or the network."""
