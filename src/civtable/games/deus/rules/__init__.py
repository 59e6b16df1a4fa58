"""Deus rules by mechanism (rule ids DEUS-… in comments)."""
