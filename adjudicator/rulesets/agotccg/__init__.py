"""A Game of Thrones CCG (basic rules v3.7) by mail: the judge ruleset ``agotccg``."""
