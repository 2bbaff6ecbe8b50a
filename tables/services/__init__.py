"""The only code that changes game state: one module per domain, one function per command."""
