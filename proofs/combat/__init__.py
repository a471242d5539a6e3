"""Z3 theorems over the combat rulebook's model."""
