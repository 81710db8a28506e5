"""What the benchmarks share: the table and a mix of deals as an evening has them."""

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
DEALS = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50},
    {"passed": True},
    {"game": "null", "hand": True, "won": True},
    {"game": "clubs", "matadors": 3, "with": False, "hand": True, "declarer_points": 95},
    {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
]
