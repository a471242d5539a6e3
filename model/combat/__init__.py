"""The combat rulebook (chapters 400, 500, 800): the damage pipeline, Armor, costs, retaliation, Bloodletting."""
