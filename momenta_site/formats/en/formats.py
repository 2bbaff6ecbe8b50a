# The short forms a reader of this language expects (momenta_site/formats/__init__.py).
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"  # a ledger line's day: the year is the page's
