"""The clause catalogue: every clause of both rulebooks, its status and its interpretation notes."""
