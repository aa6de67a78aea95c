"""The pure rules core: errors, tiles and bags, grid coordinates, the game contract."""
