"""A Game of Thrones: The Board Game, 1st edition (2003): the ruleset."""
