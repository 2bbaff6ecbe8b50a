"""What the live path counts for `/metrics` (momenta_site/metrics.py).

An increment in memory per socket and per event, nothing more: no database work, no I/O
(under several workers, prometheus_client's multiprocess mode writes it to a mapped file).
Imports nothing of Django, so a process can count before the site is set up.
"""

from prometheus_client import Counter, Gauge

# livesum: with several workers, the open sockets of the live workers added up; a dead
# worker's are dropped at the next scrape (momenta_site/metrics.py).
SOCKETS_OPEN = Gauge(
    "momenta_sockets_open",
    "Table websockets accepted and not yet closed.",
    multiprocess_mode="livesum",
)
EVENTS_PUSHED = Counter(
    "momenta_events_pushed",
    "Table events committed and announced to the live sockets, by kind.",
    ["kind"],
)
