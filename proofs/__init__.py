"""Z3 encodings of the model, named theorems over them, and the runner."""
