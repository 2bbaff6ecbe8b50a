"""The session recap (issue 40): what happened at the table over a session or a scene.

Read-only, from what the table already stores, never from the log's drawn cards:
`spans` finds a session's or a scene's stretch of the event log, `facts` reads the
events one reader may see and their ledger lines (two queries) and keeps keys and
numbers, `chart` turns the pools' values into SVG coordinates. Wording is
tables/presenters/recap.py's; the page and the Markdown export are its templates.
"""
