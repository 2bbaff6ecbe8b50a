# The short forms a reader of this language expects (momenta_site/formats/__init__.py).
SHORT_DATE_FORMAT = "j. N Y"
SHORT_DATETIME_FORMAT = "j. N Y, H:i"
MONTH_DAY_FORMAT = "j. N"  # a ledger line's day: the year is the page's
