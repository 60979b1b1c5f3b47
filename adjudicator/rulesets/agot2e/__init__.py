"""A Game of Thrones: The Board Game, 2nd edition (FFG 2011): the edition layer on the shared AGoT engine."""
