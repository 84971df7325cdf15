"""Placeholder until the statistics issue lands: the report renders nothing yet."""
