"""An independently written production-style engine and its seeded mutants."""
