"""One package per game; each holds `GAME` in its `__init__`. Discovered by balance.core.registry."""
