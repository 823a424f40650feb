"""Playing variants: the players (random legal and heuristic) and the impact runs that play the same deals under several rulesets."""
