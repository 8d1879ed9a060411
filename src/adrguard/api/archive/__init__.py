"""``archive plan``, ``archive apply`` / ``restore`` and the lifecycle of a kept plan."""
