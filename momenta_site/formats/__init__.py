"""The table's short dates in each language's own style (FORMAT_MODULE_PATH): Django's
SHORT_DATE_FORMAT is all digits ("01.12.2026"); a table reads "1. Dez. 2026", "1 déc.
2026", "1 dic 2026". Everything else is Django's own format for the language."""
