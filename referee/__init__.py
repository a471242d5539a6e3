"""referee: a formally-checked reference model of the combat and play rules."""

__version__ = "0.1.0"
