"""The Russian fan variant of A Game of Thrones: The Board Game (seed 003) on the 2nd-edition engine (``agot2e-ru``)."""
