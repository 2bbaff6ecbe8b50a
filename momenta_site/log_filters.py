"""Logging filters: a refused request is worth a line, not a traceback."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """Drop the traceback Django attaches to 403/404 answers (PermissionDenied, Http404).

    A stranger probing URLs would otherwise fill the log with stack traces of
    access checks that worked as designed; the one-line warning stays.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404):
            record.exc_info = None
            record.exc_text = None
        return True
