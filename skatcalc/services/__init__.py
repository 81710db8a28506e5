"""Sheets, players, season, events: the domain services."""
