"""Privacy ledgers: what each mechanism call costs each variable, and their composition."""
