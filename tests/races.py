"""Commands pressed at the same moment, each in its own thread (the race tests)."""

import threading

from django.db import connections

from tables.services.core import ServiceError


def race(*calls) -> list[str]:
    """Run the calls at the same moment, each in its own thread: "ok", "refused" (a
    ServiceError) or the name of any other exception, for each."""
    barrier = threading.Barrier(len(calls))
    results = [""] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            call()
            results[i] = "ok"
        except ServiceError:
            results[i] = "refused"
        except Exception as error:  # an IntegrityError says the lock did not hold
            results[i] = type(error).__name__
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results
