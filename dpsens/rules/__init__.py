"""The rule table: stub files plus the special rules they name."""
