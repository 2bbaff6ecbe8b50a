"""Read `/metrics` as Prometheus does (momenta_site/metrics.py), for the tests of what it counts."""

from __future__ import annotations

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: Client | None = None) -> Samples:
    """The samples a scrape from loopback gets (the test client's address is 127.0.0.1)."""
    response = (client or Client()).get("/metrics")
    assert response.status_code == 200, response.status_code
    return parse(response.content.decode())


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; 0 for one not there yet (a label set never counted)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)
