"""Game-agnostic contracts and machinery. Imports nothing above it."""
