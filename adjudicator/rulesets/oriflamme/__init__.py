"""Krvavý trůn (Oriflamme) by mail: see ``ruleset.py`` and the README section "Oriflamme (Krvavý trůn)"."""
