"""Fixed suites of scenarios: conformance vectors (``suite``), their files (``files``), the exhaustive tiers
(``exhaust``), and the clauses a profile can reach (``require_coverage``, computed from vectors).
"""
