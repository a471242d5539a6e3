"""The executable specification: small pure rule functions, each tagged with its clause ids."""
