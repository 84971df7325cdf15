"""balance: Monte-Carlo balance analysis for card games."""

__version__ = "0.1.0"
